// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What an empty table says (model/table_seen.c), the one text of the interface,
 * the batch text and -J: rows seen earlier are never said not to have been,
 * -p's filter is said, and a table a recording lacks is said to be missing.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>
#include "model/table_seen.h"
#include "output/json.h"
#include "output/text.h"
#include "recording/json_read.h"

/* A snapshot seq with one table of name, its rows (pid, key) where the table has such columns. */
static struct snapshot *snap(uint64_t seq, const char *name, const unsigned int (*rows)[2], size_t n)
{
	const struct table_desc *d = table_desc_find(name);
	struct snapshot *s = calloc(1, sizeof(*s));
	int pid, key;

	assert_non_null(d);
	assert_non_null(s);
	pid = table_col(d, "pid");
	key = !strcmp(name, "drm_sched.rings") ? table_col(d, "name") :
	      table_col(d, "dev") >= 0	       ? table_col(d, "dev") :
						 table_col(d, "device");
	s->seq = seq;
	s->tables = calloc(1, sizeof(*s->tables));
	s->tables[s->ntables++] = table_new(d);
	for (size_t r = 0; r < n; r++) {
		struct cell *row = table_row_add(s->tables[0]);
		char dev[16];

		assert_non_null(row);
		snprintf(dev, sizeof(dev), "d%u", rows[r][1]);
		if (pid >= 0)
			cell_set_u64(row, (unsigned int)pid, rows[r][0]);
		if (key >= 0)
			cell_set_str(row, (unsigned int)key, dev);
	}
	return s;
}

static const char *said(const struct table_seen *seen, const char *name, const struct snapshot *s, uint32_t pid,
			bool replay)
{
	static char text[600];
	struct empty_context ctx = { .seen = seen, .pid_filter = pid, .replay = replay };
	const struct table_desc *d = table_desc_find(name);

	return table_empty_text(d, s ? snapshot_table(s, name) : NULL, &ctx, text, sizeof(text));
}

static void empty_after_rows_says_they_were(void **state)
{
	static const unsigned int three[][2] = { { 10, 0 }, { 10, 1 }, { 11, 0 } };
	struct table_seen *seen = table_seen_new();
	struct snapshot *full = snap(1, "calls.ioctls", three, 3), *empty = snap(2, "calls.ioctls", NULL, 0);

	(void)state;
	assert_string_equal(said(seen, "calls.ioctls", empty, 0, false),
			    table_desc_find("calls.ioctls")->empty); /* never a row: the table's own text */
	table_seen_update(seen, full);
	table_seen_update(seen, full); /* the same snapshot twice counts once */
	table_seen_update(seen, empty);
	/* processes, not rows: two PIDs had the three rows */
	assert_string_equal(said(seen, "calls.ioctls", empty, 0, false),
			    "None now: 2 processes had rows here earlier and have exited or stopped.");
	assert_string_equal(said(NULL, "calls.ioctls", empty, 7, false),
			    "No row of process 7 (-p 7 shows only its rows).");
	assert_string_equal(said(seen, "calls.ioctls", empty, 10, false),
			    "None now: process 10 had 3 rows here earlier (-p 10 shows only its rows).");
	assert_string_equal(said(seen, "calls.ioctls", NULL, 0, true),
			    "This recording has no calls.ioctls table (the gputop-bpf that made it wrote none): it "
			    "cannot say what happened here.");
	snapshot_free(full);
	snapshot_free(empty);
	/* NVML lists a process only while it holds a context: its own words, not "exited" */
	full = snap(3, "nvidia.gpu_processes", three, 1);
	empty = snap(4, "nvidia.gpu_processes", NULL, 0);
	table_seen_update(seen, full);
	table_seen_update(seen, empty);
	assert_string_equal(said(seen, "nvidia.gpu_processes", empty, 0, false),
			    "None now: 1 process had rows here earlier; NVML lists a process only while it holds a GPU "
			    "context (one may still run without).");
	snapshot_free(full);
	snapshot_free(empty);
	table_seen_free(seen);
}

static void rows_of_a_table_without_processes(void **state)
{
	static const unsigned int two[][2] = { { 0, 1 }, { 0, 2 } }, one[][2] = { { 0, 1 } };
	struct table_seen *seen = table_seen_new();
	struct snapshot *a = snap(1, "drm_sched.rings", two, 2), *b = snap(2, "drm_sched.rings", one, 1),
			*none = snap(3, "drm_sched.rings", NULL, 0);

	(void)state;
	table_seen_update(seen, a);
	table_seen_update(seen, b);
	table_seen_update(seen, none);
	assert_string_equal(said(seen, "drm_sched.rings", none, 0, false),
			    "None now: the 2 rows shown here earlier are gone.");
	/* a scope of its own (a G view's GPU): only the rows put there */
	table_seen_add(seen, "drm_sched.rings@card0", b->tables[0]);
	{
		char text[300];
		struct empty_context ctx = { .seen = seen, .scope = "drm_sched.rings@card0" };

		assert_string_equal(table_empty_text(none->tables[0]->desc, none->tables[0], &ctx, text, sizeof(text)),
				    "None now: the 1 row shown here earlier is gone.");
	}
	snapshot_free(a);
	snapshot_free(b);
	snapshot_free(none);
	table_seen_free(seen);
}

/* Past TABLE_SEEN_MAX distinct rows a table's count is a lower bound, and says so. */
static void counts_bounded_say_at_least(void **state)
{
	unsigned int(*rows)[2] = calloc(TABLE_SEEN_MAX + 2, sizeof(*rows));
	struct table_seen *seen = table_seen_new();
	struct snapshot *many, *none = snap(2, "calls.ioctls", NULL, 0);
	char want[200];

	(void)state;
	assert_non_null(rows);
	for (unsigned int i = 0; i < TABLE_SEEN_MAX + 2; i++)
		rows[i][0] = i + 1;
	many = snap(1, "calls.ioctls", (const unsigned int(*)[2])rows, TABLE_SEEN_MAX + 2);
	table_seen_update(seen, many);
	snprintf(want, sizeof(want),
		 "None now: at least %u processes had rows here earlier and have exited or stopped.", TABLE_SEEN_MAX);
	assert_string_equal(said(seen, "calls.ioctls", none, 0, false), want);
	free(rows);
	snapshot_free(many);
	snapshot_free(none);
	table_seen_free(seen);
}

/* -p: every table with a PID column keeps the process's rows only (not the monitor's own, nor Xid's bystander). */
static void pid_filter_takes_every_pid_column(void **state)
{
	static const unsigned int two[][2] = { { 5, 0 }, { 6, 1 } };
	struct snapshot *s = snap(1, "memory.clients", two, 2);

	(void)state;
	assert_true(table_pid_filtered(table_desc_find("memory.clients"))); /* a PID that is not a key */
	assert_true(table_pid_filtered(table_desc_find("memory.regions")));
	assert_true(table_pid_filtered(table_desc_find("memory.engines")));
	assert_true(table_pid_filtered(table_desc_find("gpu.processes")));
	assert_false(table_pid_filtered(table_desc_find("self.process")));
	assert_false(table_pid_filtered(table_desc_find("drm_sched.rings")));
	snapshot_filter_pid(s, 6);
	assert_int_equal(s->tables[0]->nrows, 1);
	assert_int_equal(table_num(s->tables[0], 0, "pid"), 6);
	snapshot_free(s);
}

/* -J: "empty" says the same for each table without a row; the reader reads the line back. */
static void json_says_the_same_and_reads_back(void **state)
{
	static const unsigned int one[][2] = { { 3, 0 } };
	struct table_seen *seen = table_seen_new();
	struct snapshot *a = snap(1, "calls.ioctls", one, 1), *none = snap(2, "calls.ioctls", NULL, 0), *back;
	struct empty_context ctx = { .seen = seen };
	const char *path[] = { "empty", "calls.ioctls", NULL };
	char *line, err[256];
	yajl_val v, text;

	(void)state;
	table_seen_update(seen, a);
	table_seen_update(seen, none);
	line = snapshot_to_json_noted(none, &ctx);
	assert_non_null(line);
	v = yajl_tree_parse(line, err, sizeof(err));
	assert_non_null(v);
	text = yajl_tree_get(v, path, yajl_t_string);
	assert_non_null(text);
	assert_string_equal(YAJL_GET_STRING(text), said(seen, "calls.ioctls", none, 0, false));
	back = snapshot_from_json(line, err, sizeof(err));
	assert_non_null(back);
	assert_non_null(snapshot_table(back, "calls.ioctls"));
	yajl_tree_free(v);
	free(line);
	line = snapshot_to_json(none); /* a recording's line: no "empty" */
	assert_null(strstr(line, "\"empty\""));
	free(line);
	snapshot_free(back);
	snapshot_free(a);
	snapshot_free(none);
	table_seen_free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_after_rows_says_they_were),
		cmocka_unit_test(rows_of_a_table_without_processes),
		cmocka_unit_test(counts_bounded_say_at_least),
		cmocka_unit_test(pid_filter_takes_every_pid_column),
		cmocka_unit_test(json_says_the_same_and_reads_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
