// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A capture (src/capture.h) fed through its job sink: the losses each collector hands over
 * counted by kind (CUDA launches and syncs apart from ioctls and waits), the events after its
 * end left out and counted, and its summary naming each loss by what was lost and where.
 */
#include "tests/unit/cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clock.h"
#include "src/capture.h"

static struct call_span launch(uint64_t mono_ns)
{
	struct call_span c = {
		.kind = CALL_SPAN_CUDA_LAUNCH, .pid = 7, .tid = 7, .start_ns = mono_ns, .end_ns = mono_ns
	};

	strcpy(c.comm, "train");
	strcpy(c.thread, "train");
	strcpy(c.name, "kernel_a()");
	return c;
}

static void losses_by_kind_and_end(void **state)
{
	const struct job_sink *sink = capture_sink();
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	struct call_span before[] = { launch(now - 3000000), launch(now - 2000000), launch(now - 1000000) };
	struct call_span after[] = { launch(now - 500000), launch(now + 1000000000ULL), launch(now + 2000000000ULL) };
	struct snapshot s = { 0 };
	struct capture_stats st;
	struct capture *c;
	char *buf = NULL, *text = NULL;
	size_t len = 0, tlen = 0;
	FILE *f = open_memstream(&buf, &len), *out = open_memstream(&text, &tlen);
	int err;

	(void)state;
	assert_non_null(f);
	assert_non_null(out);
	c = capture_open(f, 1 << 20, &err);
	assert_non_null(c);
	capture_route(c);
	assert_true(atomic_load(sink->active));
	sink->cuda(sink->arg, before, 3, 5); /* 5 lost in the nvidia collector's ring buffer */
	sink->calls(sink->arg, NULL, 0, 2); /* 2 in the calls collector's */
	clock_gettime(CLOCK_REALTIME, &s.wall);
	capture_end(c, &s); /* now: the first of after[] before it, the others after */
	sink->cuda(sink->arg, after, 3, 0);
	capture_route(NULL);
	assert_false(atomic_load(sink->active));
	assert_int_equal(capture_close(c, &st), 0);
	assert_int_equal(st.launches, 4);
	assert_int_equal(st.cuda_lost, 5);
	assert_int_equal(st.calls_lost, 2);
	assert_int_equal(st.cut, 2);
	assert_int_equal(st.over_limit + st.dropped + st.calls_refused, 0);
	capture_summary(out, "gputop-bpf", "t.pftrace", &st);
	fclose(out);
	assert_non_null(strstr(text, ", 4 CUDA launches, 0 CUDA syncs written, "));
	assert_non_null(strstr(text, "\ngputop-bpf: trace 't.pftrace': lost before the writer, a buffer full: 5 CUDA "
				     "launches and syncs (the nvidia collector's capture ring buffer); 2 ioctls and "
				     "fence waits (the calls collector's capture ring buffer)\n"));
	assert_non_null(
		strstr(text, "\ngputop-bpf: trace 't.pftrace': 2 events after its end (--duration) left out\n"));
	assert_null(strstr(text, "not written"));
	free(text);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(losses_by_kind_and_end),
	};

	return cmocka_run_group_tests_name("capture", tests, NULL, NULL);
}
