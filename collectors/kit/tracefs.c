// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collectors/kit/tracefs.h"

static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/*
 * Whether path exists, as this process's effective credentials see it: a
 * non-root user with CAP_DAC_READ_SEARCH (setcap) may search tracefs (mode 700),
 * which access() denies, as it checks the real user without capabilities.
 */
static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

const char *tracefs_root(void)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (exists(path))
			return roots[i];
	}
	return NULL;
}

int tracefs_ensure_mounted(void)
{
	if (tracefs_root())
		return 0;
	if (mount("nodev", roots[0], "tracefs", 0, NULL))
		return -errno;
	return tracefs_root() ? 0 : -ENOENT;
}

static bool events_path_exists(const char *rel)
{
	const char *root = tracefs_root();
	char path[PATH_MAX];

	if (!root)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s", root, rel);
	return exists(path);
}

bool tracepoint_exists(const char *group, const char *event)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/%s/id", group, event);
	return events_path_exists(rel);
}

bool tracepoint_group_exists(const char *group)
{
	return events_path_exists(group);
}
