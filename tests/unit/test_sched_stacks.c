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

#define RING 2

static struct ring_key keys[SCHED_MAX_RINGS];

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

/* The file of weight w after four jobs: two from stack 5, one from stack 6, one unqueued. */
static char *run(enum stack_weight w, uint64_t *total)
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

		snprintf(line, sizeof(line), "submit;[no stack];[ring mockgpu gfx_0.0.0] %llu\n",
			 (unsigned long long)want[i].a);
		assert_non_null(strstr(text, line));
		snprintf(line, sizeof(line), "submit;[no stack];[ring mockgpu gfx_0.0.0] %llu\n",
			 (unsigned long long)want[i].b);
		assert_non_null(strstr(text, line));
		assert_int_equal(total, want[i].a + want[i].b);
		assert_int_equal(strchr(strchr(text, '\n') + 1, '\n')[1], '\0'); /* two lines */
		free(text);
	}
}

static void weight_words(void **state)
{
	struct stack_file sf = { .weight = STACK_WEIGHT_LAUNCHES };
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(weights),
		cmocka_unit_test(weight_words),
	};
	return cmocka_run_group_tests_name("sched_stacks", tests, NULL, NULL);
}
