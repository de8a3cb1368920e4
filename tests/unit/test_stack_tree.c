// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The Stacks view's call tree (tui/stack_tree.c) from stacks tables' rows, and hostile rows. */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui/stack_tree.h"

enum { C_PID, C_COMM, C_SOURCE, C_LEAF, C_FRAMES, C_COUNT, C_GPU, C_WAIT, C_SAMPLED, C_COLS };
static const struct col_desc cols[C_COLS] = {
	[C_PID] = { "pid", "PID", "p", COL_U64, UNIT_NONE, 7, COL_KEY },
	[C_COMM] = { "comm", "COMM", "c", COL_STR, UNIT_NONE, 15, 0 },
	[C_SOURCE] = { "source", "SOURCE", "s", COL_STR, UNIT_NONE, 7, COL_KEY },
	[C_LEAF] = { "leaf", "LEAF", "l", COL_STR, UNIT_NONE, 20, COL_KEY },
	[C_FRAMES] = { "frames", "FRAMES", "f", COL_STR, UNIT_NONE, 40, COL_KEY },
	[C_COUNT] = { "count", "COUNT", "n", COL_U64, UNIT_COUNT, 8, 0 },
	[C_GPU] = { "gpu_time_ns", "GPU", "g", COL_U64, UNIT_NS, 8, 0 },
	[C_WAIT] = { "queue_wait_ns", "WAIT", "w", COL_U64, UNIT_NS, 8, 0 },
	[C_SAMPLED] = { "sampled", "SAMPLED", "x", COL_STR, UNIT_NONE, 20, COL_DETAIL },
};
static const struct table_desc launches_desc = { .name = "test_nv.stacks", .cols = cols, .ncols = C_COLS };
static const struct table_desc jobs_desc = { .name = "test_sched.stacks", .cols = cols, .ncols = C_COLS };
/* the same columns under a name that is not a stacks table's: left alone */
static const struct table_desc other_desc = { .name = "test.stacks_not", .cols = cols, .ncols = C_COLS };

struct row {
	uint32_t pid;
	const char *comm, *source, *leaf, *frames;
	uint64_t count;
	double gpu, wait; /* NAN: unknown */
};

static const struct row launch_rows[] = {
	{ 10, "trainer", "launch", "sgemm", "_start;main;step;fwd", 300, NAN, NAN },
	{ 10, "trainer", "launch", "add", "_start;main;step;fwd", 120, NAN, NAN },
	{ 10, "trainer", "launch", "sgemm_t", "_start;main;step;bwd", 200, NAN, NAN },
	{ 10, "trainer", "launch", "memset", "", 7, NAN, NAN },
	{ 11, "other", "launch", "k", "main", 5, NAN, NAN },
};
static const struct row job_rows[] = {
	{ 20, "sub", "job", "card0 gfx", "main;a;ioctl", 40, 80e6, 4e6 },
	{ 20, "sub", "job", "card0 gfx", "main;b;ioctl", 20, 30e6, 1e6 },
	{ 20, "sub", "job", "card0 comp", "main;b;ioctl", 10, 5e6, 0.5e6 },
	{ 10, "trainer", "job", "card0 gfx", "main;c", 3, 1e6, 1e3 },
};

/* cmocka 1.1 has no double comparison */
#define assert_double_equal(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static struct table *table_of(const struct table_desc *d, const struct row *r, size_t n, const char *sampled)
{
	struct table *t = table_new(d);

	for (size_t i = 0; i < n; i++) {
		struct cell *c = table_row_add(t);

		cell_set_u64(c, C_PID, r[i].pid);
		cell_set_str(c, C_COMM, r[i].comm);
		cell_set_str(c, C_SOURCE, r[i].source);
		cell_set_str(c, C_LEAF, r[i].leaf);
		cell_set_str(c, C_FRAMES, r[i].frames);
		cell_set_u64(c, C_COUNT, r[i].count);
		if (!isnan(r[i].gpu))
			cell_set_u64(c, C_GPU, (uint64_t)r[i].gpu);
		if (!isnan(r[i].wait))
			cell_set_u64(c, C_WAIT, (uint64_t)r[i].wait);
		cell_set_str(c, C_SAMPLED, sampled);
	}
	return t;
}

struct fixture {
	struct table *tables[3];
	struct snapshot snap;
};

static void fixture_make(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->tables[0] = table_of(&launches_desc, launch_rows, sizeof(launch_rows) / sizeof(launch_rows[0]),
				"DWARF: 40 of 632 launches unwound");
	f->tables[1] = table_of(&jobs_desc, job_rows, sizeof(job_rows) / sizeof(job_rows[0]), "");
	f->tables[2] = table_of(&other_desc, launch_rows, 1, "");
	f->snap.tables = f->tables;
	f->snap.ntables = 3;
}

static void fixture_free(struct fixture *f)
{
	for (int i = 0; i < 3; i++)
		table_free(f->tables[i]);
}

/* Every node: inclusive = self + its children's inclusive, in every weight. */
static void assert_sums(const struct stack_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct stack_node *n = &t->nodes[i];

		for (int w = 0; w < TW_COUNT; w++) {
			double sum = n->self[w];

			for (uint32_t k = n->first_child; k != STACK_NONE; k = t->nodes[k].next_sibling)
				sum += t->nodes[k].incl[w];
			assert_double_equal(n->incl[w], sum, 1e-6);
		}
	}
}

static const struct stack_node *find(const struct stack_tree *t, uint32_t parent, const char *name)
{
	for (uint32_t k = t->nodes[parent].first_child; k != STACK_NONE; k = t->nodes[k].next_sibling)
		if (!strcmp(t->nodes[k].name, name))
			return &t->nodes[k];
	return NULL;
}

static uint32_t idx(const struct stack_tree *t, const struct stack_node *n)
{
	assert_non_null(n);
	return (uint32_t)(n - t->nodes);
}

static void tree_from_rows(void **state)
{
	struct fixture f;
	struct stack_tree t;
	struct stack_filter all = { 0 };
	const struct stack_node *p10, *p20, *fwd;

	(void)state;
	fixture_make(&f);
	assert_true(stack_tree_build(&t, &f.snap, &all));
	assert_int_equal(t.tables, 2); /* not test.stacks_not */
	assert_int_equal(t.rows, 9);
	assert_sums(&t);
	/* the roots: each process's sums over its rows of the tables */
	p10 = find(&t, 0, "trainer 10");
	p20 = find(&t, 0, "sub 20");
	assert_double_equal(p10->incl[TW_LAUNCHES], 627, 0);
	assert_double_equal(p10->incl[TW_JOBS], 3, 0);
	assert_double_equal(p10->incl[TW_GPU_NS], 1e6, 0);
	assert_double_equal(p20->incl[TW_JOBS], 70, 0);
	assert_double_equal(p20->incl[TW_GPU_NS], 115e6, 0);
	assert_double_equal(p20->incl[TW_QUEUE_NS], 5.5e6, 0);
	assert_double_equal(find(&t, 0, "other 11")->incl[TW_LAUNCHES], 5, 0);
	assert_double_equal(t.nodes[0].incl[TW_LAUNCHES], 632, 0);
	/* frames root first, merged where shared; the leaf last; no frames: the leaf under the process */
	fwd = find(&t, idx(&t, find(&t, idx(&t, find(&t, idx(&t, find(&t, idx(&t, p10), "_start")), "main")),
				"step")), "fwd");
	assert_double_equal(fwd->incl[TW_LAUNCHES], 420, 0);
	assert_double_equal(fwd->self[TW_LAUNCHES], 0, 0);
	assert_double_equal(find(&t, idx(&t, fwd), "sgemm")->self[TW_LAUNCHES], 300, 0);
	assert_int_equal(find(&t, idx(&t, fwd), "sgemm")->kind, SK_LEAF);
	assert_double_equal(find(&t, idx(&t, p10), "memset")->self[TW_LAUNCHES], 7, 0);
	assert_true(t.has[TW_LAUNCHES] && t.has[TW_JOBS] && t.has[TW_GPU_NS] && t.has[TW_QUEUE_NS]);
	assert_false(t.has[TW_CALLS] || t.has[TW_BLOCKED_NS]);
	assert_int_equal(t.nnotes, 1);
	assert_string_equal(t.notes[0], "DWARF: 40 of 632 launches unwound");
	stack_tree_free(&t);
	fixture_free(&f);
}

static void filters(void **state)
{
	struct fixture f;
	struct stack_tree t;
	struct stack_filter pid = { .pid = 20 }, ring = { .ring = "card0 gfx" };

	(void)state;
	fixture_make(&f);
	assert_true(stack_tree_build(&t, &f.snap, &pid));
	assert_int_equal(t.nodes[0].nchildren, 1);
	assert_double_equal(t.nodes[0].incl[TW_JOBS], 70, 0);
	assert_false(t.has[TW_LAUNCHES]);
	stack_tree_free(&t);
	/* a ring: its job rows only, of every process */
	assert_true(stack_tree_build(&t, &f.snap, &ring));
	assert_int_equal(t.rows, 3);
	assert_double_equal(t.nodes[0].incl[TW_JOBS], 63, 0);
	assert_double_equal(t.nodes[0].incl[TW_GPU_NS], 111e6, 0);
	assert_null(find(&t, idx(&t, find(&t, 0, "sub 20")), "card0 comp"));
	assert_sums(&t);
	stack_tree_free(&t);
	fixture_free(&f);
}

static bool all_open(void *ctx, const struct stack_node *n)
{
	(void)ctx, (void)n;
	return true;
}

static bool processes_open(void *ctx, const struct stack_node *n)
{
	(void)ctx;
	return n->kind == SK_PROCESS;
}

static void lines_sorted_and_open(void **state)
{
	struct fixture f;
	struct stack_tree t;
	struct stack_filter all = { 0 };
	uint32_t lines[64];
	size_t n;

	(void)state;
	fixture_make(&f);
	assert_true(stack_tree_build(&t, &f.snap, &all));
	/* by launches: the processes with launches only, the heaviest first; each open shows its children */
	n = stack_tree_lines(&t, TW_LAUNCHES, processes_open, NULL, lines, 64);
	assert_int_equal(n, 5);
	assert_string_equal(t.nodes[lines[0]].name, "trainer 10");
	assert_string_equal(t.nodes[lines[1]].name, "_start");
	assert_string_equal(t.nodes[lines[2]].name, "memset");
	assert_string_equal(t.nodes[lines[3]].name, "other 11");
	assert_string_equal(t.nodes[lines[4]].name, "main");
	/* all open: every node with the weight once, each after its parent, siblings heaviest first */
	n = stack_tree_lines(&t, TW_GPU_NS, all_open, NULL, lines, 64);
	for (size_t i = 0; i < n; i++) {
		assert_true(t.nodes[lines[i]].incl[TW_GPU_NS] > 0);
		if (i && t.nodes[lines[i]].depth > 1) /* its parent is above it */
			assert_true(t.nodes[lines[i]].depth <= t.nodes[lines[i - 1]].depth + 1);
	}
	assert_string_equal(t.nodes[lines[0]].name, "sub 20");
	assert_string_equal(t.nodes[lines[2]].name, "a"); /* 80 ms before b's 35 ms */
	assert_int_equal(n, 13);
	n = stack_tree_lines(&t, TW_GPU_NS, all_open, NULL, lines, 4); /* bounded by the room given */
	assert_int_equal(n, 4);
	stack_tree_free(&t);
	fixture_free(&f);
}

static const double one[TW_COUNT] = { 1, NAN, NAN, 5, NAN, NAN };

static void hostile_rows(void **state)
{
	struct stack_tree t;
	size_t len = 10000 * 7 + 1;
	char *deep = malloc(len), *wide = malloc(5001);
	size_t at = 0, depth = 0;

	(void)state;
	for (int i = 0; i < 10000; i++)
		at += (size_t)snprintf(deep + at, len - at, "%sf%d", i ? ";" : "", i);
	memset(wide, 'A', 5000);
	wide[5000] = '\0';
	assert_true(stack_tree_init(&t));
	/* 10,000 frames: STACK_DEPTH_MAX of them, then one node that says how many more */
	assert_true(stack_tree_add(&t, 1, "deep", deep, "leaf", one));
	for (uint32_t k = t.nodes[0].first_child; k != STACK_NONE; k = t.nodes[k].first_child)
		depth = t.nodes[k].depth;
	assert_int_equal(depth, 1 + STACK_DEPTH_MAX + 1 + 1);
	assert_non_null(strstr(t.nodes[t.n - 2].name, "[9872 more frames not shown]"));
	/* a frame of 5,000 bytes: kept to STACK_NAME_MAX, ending in an ellipsis */
	assert_true(stack_tree_add(&t, 2, "wide", wide, "leaf", one));
	assert_true(strlen(t.nodes[t.n - 2].name) < STACK_NAME_MAX);
	assert_non_null(strstr(t.nodes[t.n - 2].name, "\xe2\x80\xa6"));
	assert_true(stack_tree_add(&t, 2, "wide", wide, "leaf", one)); /* the same node again */
	assert_double_equal(t.nodes[t.n - 2].incl[TW_LAUNCHES], 2, 0);
	/* empty frames between ';' named; none at all: the leaf under the process; escapes kept (drawn escaped) */
	assert_true(stack_tree_add(&t, 3, "e\x1b[2J", ";;\x1b]0;x\x07", "", one));
	assert_non_null(find(&t, idx(&t, find(&t, 0, "e\x1b[2J 3")), "[empty frame]"));
	assert_true(stack_tree_add(&t, 4, NULL, NULL, NULL, one));
	assert_non_null(find(&t, idx(&t, find(&t, 0, "? 4")), "[no leaf]"));
	assert_sums(&t);
	stack_tree_free(&t);
	free(deep);
	free(wide);
}

static void node_bound(void **state)
{
	struct stack_tree t;
	char frame[32];
	size_t added = 0;

	(void)state;
	assert_true(stack_tree_init(&t));
	for (int i = 0; i < STACK_NODES_MAX; i++) { /* two new nodes a row: the bound comes halfway */
		snprintf(frame, sizeof(frame), "f%d", i);
		added += stack_tree_add(&t, 1, "many", frame, "k", one);
	}
	assert_true(t.n <= STACK_NODES_MAX);
	assert_int_equal(t.rows, STACK_NODES_MAX);
	assert_int_equal(t.rows_left_out, STACK_NODES_MAX - added);
	assert_true(t.rows_left_out > 0);
	assert_double_equal(t.nodes[0].incl[TW_LAUNCHES], (double)added, 0);
	stack_tree_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tree_from_rows), cmocka_unit_test(filters),
		cmocka_unit_test(lines_sorted_and_open), cmocka_unit_test(hostile_rows),
		cmocka_unit_test(node_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
