// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU jobs in the trace: lanes by time for slices known whole, and the packets a job makes. */
#include "tests/unit/cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include "output/span_lanes.h"
#include "output/trace_jobs.h"
#include "tests/unit/pb_read.h"

/* Lowest lane free by the slice's start, whatever order slices come in; bounded. */
static void span_lanes_by_time(void **state)
{
	static struct span_lanes l;

	(void)state;
	span_lanes_init(&l);
	assert_int_equal(span_lanes_fit(&l, 10, 20), 0);
	assert_int_equal(span_lanes_fit(&l, 15, 30), 1); /* overlaps the first */
	assert_int_equal(span_lanes_fit(&l, 20, 25), 0); /* starts as the first ends */
	assert_int_equal(span_lanes_fit(&l, 5, 8), 2); /* earlier than both lanes' ends */
	assert_int_equal(l.used, 3);
	span_lanes_init(&l);
	for (int i = 0; i < SPAN_LANES_MAX; i++)
		assert_int_equal(span_lanes_fit(&l, 100, 200), i);
	assert_int_equal(span_lanes_fit(&l, 150, 160), -1);
	assert_int_equal(span_lanes_fit(&l, 200, 210), 0);
}

static struct job_span job(const char *ring, uint64_t q, uint64_t r, uint64_t d, uint32_t pid)
{
	struct job_span s = { .queue_ns = q, .run_ns = r, .done_ns = d, .pid = pid, .seq = q };

	strcpy(s.dev, "gpu0");
	strcpy(s.ring, ring);
	strcpy(s.comm, "submit");
	return s;
}

/*
 * Three jobs on one ring, the second overlapping the first (two lanes), the
 * third with no run known (no "running" slice), one on another ring; jobs the
 * collector lost are counted in the note; jobs past every lane are lost.
 */
static void jobs_on_lanes_counted(void **state)
{
	static struct trace_counters tc;
	static struct trace_jobs tj;
	struct job_span spans[] = {
		job("gfx", 1000, 1100, 2000, 7),
		job("gfx", 1500, 2000, 3000, 7),
		job("gfx", 2500, 0, 3500, 0),
		job("comp", 1000, 1200, 1300, 8),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, 1 << 20), 0);
	trace_jobs_init(&tj, &tc, 0);
	trace_jobs_add(&tj, spans, 4, 5);
	assert_int_equal(tj.slices, 4);
	assert_int_equal(tj.lost, 5);
	assert_int_equal(tc.w.lost, 5);
	/* tracks: the device, 2 rings, gfx's 2 lanes and comp's 1; events: 4 + 4 + 2 + 4 */
	assert_int_equal(tc.w.packets, 6 + 14);
	for (int i = 0; i < SPAN_LANES_MAX; i++)
		spans[i % 4] = job("sdma", 10000, 10001, 20000, 9), trace_jobs_add(&tj, spans, 1, 0);
	assert_int_equal(tj.slices, 4 + SPAN_LANES_MAX);
	trace_jobs_add(&tj, spans, 1, 0);
	assert_int_equal(tj.lost, 5 + 1);
	assert_int_equal(tc.w.lost + tc.w.dropped, 5 + 1); /* no lane for it */
	assert_int_equal(tc.w.dropped, 1);
	trace_jobs_free(&tj);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	free(buf);
}

/* 200 jobs into limit bytes: every slice begun is ended, within the limit; the rest counted. */
static void jobs_into_limit(uint64_t limit)
{
	static struct trace_counters tc;
	static struct trace_jobs tj;
	struct job_span s;
	uint64_t begins, ends;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, limit), 0);
	trace_jobs_init(&tj, &tc, 0);
	for (uint64_t i = 0; i < 200; i++) {
		s = job("gfx", 1000 * i + 1, 1000 * i + 2, 1000 * i + 900, 7);
		trace_jobs_add(&tj, &s, 1, 0);
	}
	assert_true(tj.slices > 10 && tj.lost > 0);
	assert_int_equal(tj.slices + tj.lost, 200);
	assert_true(perfetto_unwritten(&tc.w) >= tj.lost);
	trace_jobs_free(&tj);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	assert_true(len <= limit);
	count_slices(buf, len, &begins, &ends);
	assert_true(begins >= tj.slices && begins <= 2 * tj.slices); /* jobs, most with "running" */
	assert_int_equal(ends, begins);
	free(buf);
}

/* Whichever byte the limit falls on, a job begun is ended. */
static void begun_jobs_end_within_limit(void **state)
{
	(void)state;
	for (uint64_t limit = PERFETTO_LIMIT_MIN + 2048; limit < PERFETTO_LIMIT_MIN + 2048 + 128;
	     limit++)
		jobs_into_limit(limit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(span_lanes_by_time),
		cmocka_unit_test(jobs_on_lanes_counted),
		cmocka_unit_test(begun_jobs_end_within_limit),
	};
	return cmocka_run_group_tests_name("trace_jobs", tests, NULL, NULL);
}
