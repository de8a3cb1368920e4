// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --stacks for the scheduler: stacked queue records through the matcher into
 * the sums per (process, ring, stack), written in each weight: jobs, GPU time
 * (run -> done), queue wait (queue -> run); a job without its queue record in
 * none; a weight without jobs takes none.
 */
#include "cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collectors/drm_sched/sched_match.h"
#include "collectors/drm_sched/sched_stacks.h"
#include "collectors/kit/stack_table.h"

#define RING 2

static struct ring_key keys[SCHED_MAX_RINGS];
static struct table *rows_out; /* run() fills it with the drm_sched.stacks rows, where set */

static void add(struct sched_match *m, __u8 kind, __u64 key, __u64 ts, __s32 ustack)
{
	struct sched_rec_stacked r = { .rec = { .ts_ns = ts, .key = key, .aux = key + 1,
						.ring = RING, .kind = kind },
				       .stack = { .caller = 0, .ustack_id = ustack, .kstack_id = -1 } };

	if (kind == SCHED_EV_QUEUE) {
		r.rec.tgid = (__u32)getpid();
		strcpy(r.rec.comm, "submit");
	}
	assert_int_equal(sched_match_add_stacked(m, &r), 0);
}

static void on_job(void *arg, __u32 ring, const struct job_span *span)
{
	sched_stacks_add(arg, ring, span);
}

/*
 * The file of weight w after four jobs: two from stack 5, one from stack 6, one
 * unqueued; before it is written, chains(&ss) when not NULL.
 */
static char *run_with(enum stack_weight w, uint64_t *total, void (*chains)(struct sched_stacks *))
{
	char path[] = "/tmp/gputop-sched-stacks-XXXXXX", why[300], *text = NULL;
	struct sched_match *m = sched_match_new(64, 64, false);
	struct stack_file sf;
	struct sched_stacks ss;
	size_t cap = 0;
	FILE *f;
	int fd = mkstemp(path);

	assert_true(fd >= 0 && m);
	close(fd);
	assert_int_equal(stack_file_open(&sf, path, w, why, sizeof(why)), 0);
	sched_stacks_init(&ss, &sf);
	sched_stacks_seen(&ss, (uint32_t)getpid(), "submit");
	sched_match_on_job(m, on_job, &ss);
	add(m, SCHED_EV_QUEUE, 0x100, 1000, 5); /* wait 100, GPU 1000 */
	add(m, SCHED_EV_RUN, 0x100, 1100, -1);
	add(m, SCHED_EV_DONE, 0x100, 2100, -1);
	add(m, SCHED_EV_QUEUE, 0x200, 3000, 5); /* wait 500, GPU 2000 */
	add(m, SCHED_EV_RUN, 0x200, 3500, -1);
	add(m, SCHED_EV_DONE, 0x200, 5500, -1);
	add(m, SCHED_EV_QUEUE, 0x300, 6000, 6); /* wait 10, GPU 300 */
	add(m, SCHED_EV_RUN, 0x300, 6010, -1);
	add(m, SCHED_EV_DONE, 0x300, 6310, -1);
	add(m, SCHED_EV_RUN, 0x400, 7000, -1); /* queued before attach: no process's */
	add(m, SCHED_EV_DONE, 0x400, 8000, -1);
	sched_match_drain_end(m);
	if (rows_out) { /* the live table, from the same sums */
		struct stack_rows rs = { 0 };

		sched_stacks_rows(&ss, -1, keys, stack_rows_add, &rs);
		assert_int_equal(stack_rows_table(&rs, rows_out), 0);
		stack_rows_free(&rs);
	}
	if (chains)
		chains(&ss);
	assert_int_equal(sched_stacks_write(&ss, -1, keys), 0);
	*total = sf.total;
	assert_int_equal(stack_file_close(&sf), 0);
	sched_stacks_free(&ss);
	sched_match_free(m);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(getdelim(&text, &cap, '\0', f) > 0);
	fclose(f);
	unlink(path);
	return text;
}

static char *run(enum stack_weight w, uint64_t *total)
{
	return run_with(w, total, NULL);
}

static void weights(void **state)
{
	static const struct {
		enum stack_weight w;
		uint64_t a, b;
	} want[] = {
		{ STACK_WEIGHT_COUNT, 2, 1 },
		{ STACK_WEIGHT_JOBS, 2, 1 },
		{ STACK_WEIGHT_GPU_TIME, 3000, 300 },
		{ STACK_WEIGHT_QUEUE_WAIT, 600, 10 },
	};
	char line[128];

	(void)state;
	strcpy(keys[RING].dev, "mockgpu");
	strcpy(keys[RING].name, "gfx_0.0.0");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t total;
		char *text = run(want[i].w, &total);

		/* stacks 5 and 6, both "[no stack]" here: one line, their weights added */
		snprintf(line, sizeof(line), "submit;[no stack];[ring mockgpu gfx_0.0.0] %llu\n",
			 (unsigned long long)(want[i].a + want[i].b));
		assert_string_equal(text, line);
		assert_int_equal(total, want[i].a + want[i].b);
		free(text);
	}
}

/* drm_sched.stacks: a row per sum, heaviest first, its times summed, the file's line in its cells. */
static void table_rows(void **state)
{
	uint64_t total;
	char *text;

	(void)state;
	strcpy(keys[RING].dev, "mockgpu");
	strcpy(keys[RING].name, "gfx_0.0.0");
	rows_out = table_new(&sched_stacks_table);
	assert_non_null(rows_out);
	text = run(STACK_WEIGHT_COUNT, &total);
	/* stacks 5 and 6 both "[no stack]" here (no stack map): one row of the table, their sums added */
	assert_int_equal(rows_out->nrows, 1);
	assert_int_equal(table_num(rows_out, 0, "pid"), getpid());
	assert_string_equal(table_str(rows_out, 0, "comm"), "submit");
	assert_string_equal(table_str(rows_out, 0, "source"), "job");
	assert_string_equal(table_str(rows_out, 0, "leaf"), "mockgpu gfx_0.0.0");
	assert_string_equal(table_str(rows_out, 0, "frames"), "[no stack]");
	assert_string_equal(table_str(rows_out, 0, "sampled"), "");
	assert_int_equal(table_num(rows_out, 0, "count"), 3);
	assert_int_equal(table_num(rows_out, 0, "gpu_time_ns"), 3300);
	assert_int_equal(table_num(rows_out, 0, "queue_wait_ns"), 610);
	assert_string_equal(text, "submit;[no stack];[ring mockgpu gfx_0.0.0] 3\n"); /* the row's line */
	free(text);
	table_free(rows_out);
	rows_out = NULL;
}

/* Two stacks that symbolize alike are one row of the table, their sums added. */
static void rows_alike_merged(void **state)
{
	struct stack_rows rs = { 0 };
	struct table *t = table_new(&sched_stacks_table);
	char comm[16] = "x"; /* a source's process entry, which may move before the table is made */
	struct stack_row a = { .pid = 7, .comm = comm, .source = STACK_SOURCE_JOBS, .leaf = "dev r", .frames = "m;f",
			       .sampled = "", .count = 199, .timed = true, .gpu_ns = 10, .wait_ns = 1 };
	struct stack_row b = a, c = a;

	(void)state;
	assert_non_null(t);
	b.count = 1, b.gpu_ns = 5, b.wait_ns = 2;
	c.frames = "m;g", c.count = 3;
	stack_rows_add(&rs, &a);
	stack_rows_add(&rs, &c);
	stack_rows_add(&rs, &b);
	strcpy(comm, "moved");
	assert_int_equal(stack_rows_table(&rs, t), 0);
	assert_string_equal(table_str(t, 0, "comm"), "x"); /* the name as it was when added */
	assert_int_equal(t->nrows, 2);
	assert_string_equal(table_str(t, 0, "frames"), "m;f");
	assert_int_equal(table_num(t, 0, "count"), 200);
	assert_int_equal(table_num(t, 0, "gpu_time_ns"), 15);
	assert_int_equal(table_num(t, 0, "queue_wait_ns"), 3);
	assert_int_equal(table_num(t, 1, "count"), 3);
	stack_rows_free(&rs);
	table_free(t);
}

static void weight_words(void **state)
{
	struct stack_file sf = { .weight = STACK_WEIGHT_LAUNCHES, .open = true };
	struct sched_stacks ss;

	(void)state;
	assert_int_equal(stack_weight_parse("gpu-time"), STACK_WEIGHT_GPU_TIME);
	assert_int_equal(stack_weight_parse("queue-wait"), STACK_WEIGHT_QUEUE_WAIT);
	assert_int_equal(stack_weight_parse("count"), STACK_WEIGHT_COUNT);
	assert_int_equal(stack_weight_parse("gpu_time"), -1);
	assert_true(stack_weight_takes(STACK_WEIGHT_COUNT, STACK_SOURCE_LAUNCHES));
	assert_false(stack_weight_takes(STACK_WEIGHT_JOBS, STACK_SOURCE_LAUNCHES));
	assert_false(stack_weight_takes(STACK_WEIGHT_LAUNCHES, STACK_SOURCE_JOBS));
	/* calls and blocked: GPU ioctls and fence waits only; count takes no calls */
	assert_int_equal(stack_weight_parse("calls"), STACK_WEIGHT_CALLS);
	assert_int_equal(stack_weight_parse("blocked"), STACK_WEIGHT_BLOCKED);
	assert_true(stack_weight_takes(STACK_WEIGHT_BLOCKED, STACK_SOURCE_CALLS));
	assert_false(stack_weight_takes(STACK_WEIGHT_COUNT, STACK_SOURCE_CALLS));
	assert_false(stack_weight_takes(STACK_WEIGHT_CALLS, STACK_SOURCE_JOBS));
	assert_false(stack_weight_takes(STACK_WEIGHT_BLOCKED, STACK_SOURCE_LAUNCHES));
	assert_true(stack_weight_ns(STACK_WEIGHT_BLOCKED));
	assert_false(stack_weight_ns(STACK_WEIGHT_CALLS));
	/* syncs and sync-time: CUDA syncs only (not in calls: a sync's own ioctls are there) */
	assert_int_equal(stack_weight_parse("sync-time"), STACK_WEIGHT_SYNC_TIME);
	assert_true(stack_weight_takes(STACK_WEIGHT_SYNCS, STACK_SOURCE_SYNCS));
	assert_false(stack_weight_takes(STACK_WEIGHT_CALLS, STACK_SOURCE_SYNCS));
	assert_false(stack_weight_takes(STACK_WEIGHT_SYNC_TIME, STACK_SOURCE_CALLS));
	assert_true(stack_weight_ns(STACK_WEIGHT_SYNC_TIME));
	sched_stacks_init(&ss, &sf);
	assert_null(ss.sf); /* launches only: the scheduler takes none */
}

/* Two functions of this binary, as an unwound chain's frames. */
static __attribute__((noinline)) int chain_leaf(int x)
{
	return x * 3 + 1;
}

static __attribute__((noinline)) int chain_root(int x)
{
	return chain_leaf(x) + 2;
}

/* Chains unwound from stack 5's copies: leaf;root once each, or (one_chain) leaf;root once. */
static bool one_chain;

static void add_chains(struct sched_stacks *ss)
{
	struct sched_sample_key sk = { .tgid = (uint32_t)getpid(), .ring = RING, .ustack_id = 5,
				       .kstack_id = -1 };
	struct dwarf_key k = dwarf_key_of(&sk, sizeof(sk));
	struct unwind_result a = { .ips = { (uintptr_t)chain_leaf + 1, (uintptr_t)chain_root + 1 },
				   .n = 2, .complete = true };
	struct unwind_result b = { .ips = { (uintptr_t)chain_leaf + 1 }, .n = 1, .complete = true };

	dwarf_chains_add(&ss->dwarf, &k, &a);
	if (!one_chain)
		dwarf_chains_add(&ss->dwarf, &k, &b);
}

/*
 * Stack 5's jobs unwound with DWARF: its weights shared between its two
 * chains by samples (one each), the frame-pointer line for stack 6 as before;
 * with one copy of its two jobs, the whole weight on one chain, said sampled.
 */
static void dwarf_shares(void **state)
{
	static const struct {
		enum stack_weight w;
		uint64_t each, fp;
	} want[] = {
		{ STACK_WEIGHT_JOBS, 1, 1 },
		{ STACK_WEIGHT_GPU_TIME, 1500, 300 },
		{ STACK_WEIGHT_QUEUE_WAIT, 300, 10 },
	};
	char line[160];
	uint64_t total;
	char *text;

	(void)state;
	(void)chain_root(1);
	strcpy(keys[RING].dev, "mockgpu");
	strcpy(keys[RING].name, "gfx_0.0.0");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		text = run_with(want[i].w, &total, add_chains);
		snprintf(line, sizeof(line), "submit;chain_root;chain_leaf;[ring mockgpu gfx_0.0.0] %llu\n",
			 (unsigned long long)want[i].each);
		assert_non_null(strstr(text, line));
		snprintf(line, sizeof(line), "submit;chain_leaf;[ring mockgpu gfx_0.0.0] %llu\n",
			 (unsigned long long)want[i].each);
		assert_non_null(strstr(text, line));
		snprintf(line, sizeof(line), "submit;[no stack];[ring mockgpu gfx_0.0.0] %llu\n",
			 (unsigned long long)want[i].fp);
		assert_non_null(strstr(text, line));
		assert_int_equal(total, 2 * want[i].each + want[i].fp);
		free(text);
	}
	one_chain = true;
	text = run_with(STACK_WEIGHT_JOBS, &total, add_chains);
	one_chain = false;
	assert_non_null(strstr(text, "submit;[DWARF: 1 of 2 jobs unwound];chain_root;chain_leaf;"
				     "[ring mockgpu gfx_0.0.0] 2\n"));
	assert_int_equal(total, 3);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(weights),
		cmocka_unit_test(weight_words),
		cmocka_unit_test(table_rows),
		cmocka_unit_test(dwarf_shares),
		cmocka_unit_test(rows_alike_merged),
	};
	return cmocka_run_group_tests_name("sched_stacks", tests, NULL, NULL);
}
