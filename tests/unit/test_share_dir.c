// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The data installed beside the binary (core/share_dir.c): PREFIX/share/gputop-bpf/SUB for PREFIX/bin. */
#include "tests/unit/cmocka_all.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/share_dir.h"

static void installed_and_not(void **state)
{
	char root[] = "/tmp/gputop-share-XXXXXX", exe[PATH_MAX], want[PATH_MAX], got[PATH_MAX];
	const char *const dirs[] = { "/bin", "/share", "/share/gputop-bpf", "/share/gputop-bpf/examples", "/build" };

	(void)state;
	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(want, sizeof(want), "%s%s", root, dirs[i]);
		assert_int_equal(mkdir(want, 0755), 0);
	}
	/* make install's layout, whatever PREFIX: the examples beside the binary */
	snprintf(exe, sizeof(exe), "%s/bin/gputop-bpf", root);
	snprintf(want, sizeof(want), "%s/share/gputop-bpf/examples", root);
	assert_true(share_dir_for(exe, "examples", got, sizeof(got)));
	assert_string_equal(got, want);
	/* a folder the install does not have; too small a buffer */
	assert_false(share_dir_for(exe, "themes", got, sizeof(got)));
	assert_false(share_dir_for(exe, "examples", got, 16));
	/* run from the source tree (build/default/gputop-bpf, or the copy at its top): none */
	snprintf(exe, sizeof(exe), "%s/build/gputop-bpf", root);
	assert_false(share_dir_for(exe, "examples", got, sizeof(got)));
	snprintf(exe, sizeof(exe), "%s/gputop-bpf", root);
	assert_false(share_dir_for(exe, "examples", got, sizeof(got)));
	assert_false(share_dir_for("gputop-bpf", "examples", got, sizeof(got)));
	assert_false(share_dir_for("/sbin/gputop-bpf", "examples", got, sizeof(got))); /* not PREFIX/bin */
	for (size_t i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(want, sizeof(want), "%s%s", root, dirs[i]);
		rmdir(want);
	}
	rmdir(root);
}

/* The running binary: this test is no installed gputop-bpf, so none. */
static void running_binary(void **state)
{
	char got[PATH_MAX];

	(void)state;
	assert_false(share_dir("examples", got, sizeof(got)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(installed_and_not),
		cmocka_unit_test(running_binary),
	};
	return cmocka_run_group_tests_name("share_dir", tests, NULL, NULL);
}
