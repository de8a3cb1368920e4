// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The display in the trace: the packets vblanks and deliveries make, what they count, the limit. */
#include "tests/unit/cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include "output/trace_display.h"

static struct display_mark vblank(int crtc, uint32_t seq, uint64_t ns)
{
	return (struct display_mark){ .kind = DISPLAY_MARK_VBLANK, .crtc = crtc, .seq = seq,
				      .ts_ns = ns };
}

static struct display_mark delivery(uint32_t pid, uint64_t file, uint32_t seq, uint32_t missed)
{
	struct display_mark m = { .kind = DISPLAY_MARK_DELIVERY, .seq = seq, .ts_ns = seq * 100,
				  .pid = pid, .file = file, .missed = missed };

	strcpy(m.comm, "flip");
	return m;
}

/*
 * Tracks described once each: "display", its CRTC, the client's process and
 * the client's track (per file), the kernel's own under "display"; the counts;
 * the marks the collector lost in the note's count.
 */
static void marks_counted(void **state)
{
	static struct trace_counters tc;
	static struct trace_display td;
	struct display_mark m[] = {
		vblank(0, 1, 100),    delivery(9, 0xa, 1, 0), vblank(0, 2, 200),
		delivery(9, 0xa, 2, 0), delivery(9, 0xb, 2, 0), vblank(0, 5, 500),
		delivery(9, 0xa, 5, 2), delivery(0, 0, 5, 0),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, 1 << 20), 0);
	trace_display_init(&td, &tc, 1000);
	trace_display_add(&td, m, sizeof(m) / sizeof(m[0]), 3);
	assert_int_equal(td.vblanks, 3);
	assert_int_equal(td.deliveries, 5);
	assert_int_equal(td.missed, 2);
	assert_int_equal(td.lost, 3);
	assert_int_equal(tc.w.lost, 3); /* lost before the writer, not dropped by it */
	assert_int_equal(tc.w.dropped + tc.w.over_limit, 0);
	/* tracks: display, CRTC 0, process 9, its files 0xa and 0xb, the kernel's; 8 instants */
	assert_int_equal(tc.w.packets, 6 + 8);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	free(buf);
}

/* 2000 marks into a small limit: within it, each one written or counted lost. */
static void marks_into_limit(void **state)
{
	static struct trace_counters tc;
	static struct trace_display td;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, PERFETTO_LIMIT_MIN + 4096), 0);
	trace_display_init(&td, &tc, 0);
	for (uint32_t i = 0; i < 1000; i++) {
		struct display_mark m[] = { vblank(1, i, 1000 * i), delivery(5, 0xc, i, i % 3) };

		trace_display_add(&td, m, 2, 0);
	}
	assert_true(td.vblanks > 10 && td.lost > 0);
	assert_int_equal(td.vblanks + td.deliveries + td.lost, 2000);
	assert_int_equal(perfetto_unwritten(&tc.w), td.lost);
	assert_int_equal(tc.w.lost, 0);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	assert_true(len <= PERFETTO_LIMIT_MIN + 4096);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(marks_counted),
		cmocka_unit_test(marks_into_limit),
	};

	return cmocka_run_group_tests_name("trace_display", tests, NULL, NULL);
}
