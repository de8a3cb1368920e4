/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fixture trees (tests/fixtures/sysfs/make-trees.sh) made once for a test
 * group in a new folder under /tmp, and removed after it; sysfs is pointed
 * back at the real one.
 */
#ifndef GPUTOP_TEST_FIXTURE_TREES_H
#define GPUTOP_TEST_FIXTURE_TREES_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "core/sysroot.h"

static char root[64];

/* readable_by_all: the folder and the trees a+rX (a test that reads them as nobody). */
static int trees_make(bool readable_by_all)
{
	char cmd[256];

	snprintf(root, sizeof(root), "/tmp/gputop-trees-XXXXXX");
	if (!mkdtemp(root) || (readable_by_all && chmod(root, 0755)))
		return -1;
	snprintf(cmd, sizeof(cmd), "tests/fixtures/sysfs/make-trees.sh '%s'%s%s%s", root,
		 readable_by_all ? " && chmod -R a+rX '" : "", readable_by_all ? root : "",
		 readable_by_all ? "'" : "");
	return system(cmd) ? -1 : 0;
}

static int trees_remove(void **state)
{
	char cmd[96];

	(void)state;
	sysroot_set(SYSROOT_SYS, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

#endif
