// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collectors/irq/irq_lines.h"

static void gpu_handler_names(void **state)
{
	(void)state;
	assert_true(irq_actions_are_gpu("amdgpu"));
	assert_true(irq_actions_are_gpu("i915"));
	assert_true(irq_actions_are_gpu("nvme0q1,nvidia"));
	assert_false(irq_actions_are_gpu("xhci_hcd"));
	assert_false(irq_actions_are_gpu("amdgpu-foo"));
	assert_false(irq_actions_are_gpu(""));
}

static void write_line(const char *dir, const char *irq, const char *actions)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, irq);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/actions", dir, irq);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(actions, f);
	fclose(f);
}

static void scan_a_synthetic_sysfs(void **state)
{
	char dir[] = "/tmp/gputop-irq-XXXXXX";
	struct irq_line *lines;
	int n, gpu = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_line(dir, "40", "amdgpu\n");
	write_line(dir, "41", "xhci_hcd\n");
	write_line(dir, "42", "\n"); /* no handler: skipped */
	write_line(dir, "not-a-number", "i915\n");
	n = irq_lines_scan(dir, &lines);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		if (lines[i].irq == 40) {
			assert_string_equal(lines[i].actions, "amdgpu");
			gpu += lines[i].gpu;
		} else {
			assert_int_equal(lines[i].irq, 41);
			assert_false(lines[i].gpu);
		}
	}
	assert_int_equal(gpu, 1);
	free(lines);
	assert_true(irq_lines_scan("/nonexistent-gputop", &lines) < 0);
	assert_int_equal(system("rm -rf /tmp/gputop-irq-??????"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_handler_names),
		cmocka_unit_test(scan_a_synthetic_sysfs),
	};
	return cmocka_run_group_tests_name("irq_lines", tests, NULL, NULL);
}
