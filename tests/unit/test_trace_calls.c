// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU calls in the trace: the packets ioctls and fence waits make, what they count, the limit. */
#include "tests/unit/cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include "output/trace_calls.h"
#include "tests/unit/pb_read.h"

static struct call_span call(enum call_span_kind kind, uint32_t tid, uint64_t start)
{
	struct call_span c = { .kind = kind, .pid = 7, .tid = tid, .start_ns = start,
			       .end_ns = start + 10, .ret = -1 };

	strcpy(c.comm, "app");
	strcpy(c.thread, "app:gl");
	strcpy(c.name, kind == CALL_SPAN_IOCTL ? "AMDGPU_CS" : "amdgpu");
	strcpy(c.dev, "card0");
	return c;
}

/*
 * Tracks described once each: the process, its two threads, one thread's
 * "fence waits" and "CUDA syncs"; each call a begin and an end, a launch an
 * instant; lost calls in the note's count.
 */
static void calls_counted(void **state)
{
	static struct trace_counters tc;
	static struct trace_calls tcl;
	struct call_span c[] = {
		call(CALL_SPAN_IOCTL, 8, 100),	    call(CALL_SPAN_FENCE_WAIT, 8, 120),
		call(CALL_SPAN_IOCTL, 8, 200),	    call(CALL_SPAN_IOCTL, 9, 150),
		call(CALL_SPAN_FENCE_WAIT, 8, 300), call(CALL_SPAN_CUDA_LAUNCH, 9, 400),
		call(CALL_SPAN_CUDA_SYNC, 8, 500),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, 1 << 20), 0);
	trace_calls_init(&tcl, &tc, 0);
	trace_calls_add(&tcl, c, sizeof(c) / sizeof(c[0]), 4);
	assert_int_equal(tcl.ioctls, 3);
	assert_int_equal(tcl.waits, 2);
	assert_int_equal(tcl.launches, 1);
	assert_int_equal(tcl.syncs, 1);
	assert_int_equal(tcl.lost, 4);
	assert_int_equal(tc.w.lost, 4); /* lost before the writer, not dropped by it */
	assert_int_equal(tc.w.dropped + tc.w.over_limit, 0);
	/* tracks: the process, 2 threads, thread 8's fence waits and CUDA syncs; 6 slices, 1 instant */
	assert_int_equal(tc.w.packets, 5 + 2 * 6 + 1);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	free(buf);
}

/* 2000 calls into a small limit: within it, each written or counted lost, every slice ended. */
static void calls_into_limit(void **state)
{
	static struct trace_counters tc;
	static struct trace_calls tcl;
	uint64_t begins, ends;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, PERFETTO_LIMIT_MIN + 4096), 0);
	trace_calls_init(&tcl, &tc, 0);
	for (uint32_t i = 0; i < 1000; i++) {
		struct call_span c[] = { call(CALL_SPAN_IOCTL, 8, 100 * i),
					 call(CALL_SPAN_FENCE_WAIT, 8, 100 * i + 20) };

		trace_calls_add(&tcl, c, 2, 0);
	}
	assert_true(tcl.ioctls > 10 && tcl.lost > 0);
	assert_int_equal(tcl.ioctls + tcl.waits + tcl.lost, 2000);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	assert_true(len <= PERFETTO_LIMIT_MIN + 4096);
	count_slices(buf, len, &begins, &ends);
	assert_int_equal(begins, tcl.ioctls + tcl.waits);
	assert_int_equal(ends, begins);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(calls_counted),
		cmocka_unit_test(calls_into_limit),
	};

	return cmocka_run_group_tests_name("trace_calls", tests, NULL, NULL);
}
