// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The --stacks file's lines (symbols/stack_file.c): root first, the command the
 * root; a stack cut short says [truncated] right after it (after the process's
 * [sampled] note); lines of one text summed into one, exactly; a recording's
 * control bytes escaped; a source the weight does not take left out.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/stack_file.h"

/* The file's text after rows[0..n) went in with weight w; *lines and *total as the end line says. */
static char *file_of(enum stack_weight w, const struct stack_row *rows, size_t n, uint64_t *lines, uint64_t *total)
{
	char path[] = "/tmp/gputop-stack-file-XXXXXX", why[300], *text = NULL;
	struct stack_file sf;
	size_t cap = 0;
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(stack_file_open(&sf, path, w, why, sizeof(why)), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(stack_file_row(&sf, &rows[i]), 0);
	*lines = sf.lines;
	*total = sf.total;
	assert_int_equal(stack_file_close(&sf), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	if (getdelim(&text, &cap, '\0', f) < 0)
		text = strdup("");
	fclose(f);
	unlink(path);
	return text;
}

static const struct stack_row launch = { .pid = 10,
					 .comm = "python3",
					 .source = STACK_SOURCE_LAUNCHES,
					 .leaf = "gemm",
					 .frames = "[truncated];libcublasLt.so+0x10;cuLaunchKernel",
					 .sampled = "",
					 .count = 5 };

static void command_first(void **state)
{
	struct stack_row rows[3] = { launch, launch, launch };
	uint64_t lines, total;
	char *text;

	(void)state;
	rows[1].frames = "main;f;cuLaunchKernel";
	rows[2].sampled = "DWARF: 1 of 9 launches unwound";
	text = file_of(STACK_WEIGHT_COUNT, rows, 3, &lines, &total);
	assert_string_equal(text, "python3;[truncated];libcublasLt.so+0x10;cuLaunchKernel;gemm 5\n"
				  "python3;main;f;cuLaunchKernel;gemm 5\n"
				  "python3;[DWARF: 1 of 9 launches unwound];[truncated];libcublasLt.so+0x10;"
				  "cuLaunchKernel;gemm 5\n");
	assert_int_equal(lines, 3);
	assert_int_equal(total, 15);
	free(text);
}

/* Four rows (two processes of one command, two stacks that symbolize alike): two lines, exact sums. */
static void same_lines_summed(void **state)
{
	struct stack_row rows[4] = { launch, launch, launch, launch };
	uint64_t lines, total;
	char *text;

	(void)state;
	rows[1].pid = 11, rows[1].count = 7;
	rows[2].frames = "main;cuLaunchKernel", rows[2].count = 1;
	rows[3].pid = 12, rows[3].frames = "main;cuLaunchKernel", rows[3].count = 1000000000000ULL;
	text = file_of(STACK_WEIGHT_LAUNCHES, rows, 4, &lines, &total);
	assert_string_equal(text, "python3;[truncated];libcublasLt.so+0x10;cuLaunchKernel;gemm 12\n"
				  "python3;main;cuLaunchKernel;gemm 1000000000001\n");
	assert_int_equal(lines, 2);
	assert_int_equal(total, 1000000000013ULL);
	free(text);
}

/* A recording's row: control bytes escaped wherever they are; other sources' rows left out. */
static void hostile_and_other_sources(void **state)
{
	struct stack_row rows[3] = { launch, launch, launch };
	uint64_t lines, total;
	char *text;

	(void)state;
	rows[0].comm = "ev;il\n", rows[0].frames = "a\nb;\x1b[2J", rows[0].leaf = "k\r";
	rows[1].source = STACK_SOURCE_JOBS, rows[1].timed = true, rows[1].gpu_ns = 9;
	rows[2].source = STACK_SOURCE_CALLS, rows[2].blocked_ns = 4;
	text = file_of(STACK_WEIGHT_LAUNCHES, rows, 3, &lines, &total);
	assert_string_equal(text, "ev\\x3bil\\x0a;a\\x0ab;\\x1b[2J;k\\x0d 5\n");
	assert_int_equal(lines, 1);
	free(text);
	text = file_of(STACK_WEIGHT_GPU_TIME, rows, 3, &lines, &total);
	assert_string_equal(text, "python3;[truncated];libcublasLt.so+0x10;cuLaunchKernel;[ring gemm] 9\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(command_first),
		cmocka_unit_test(same_lines_summed),
		cmocka_unit_test(hostile_and_other_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
