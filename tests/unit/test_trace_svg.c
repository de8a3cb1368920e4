// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The timeline drawn from a trace the writer made: boxes where and as wide as
 * their slices (1 px per microsecond here), nested slices a row lower, slices
 * within a pixel merged and counted, instants counted per pixel, a counter's
 * range, hostile names escaped, slices left open marked; and bytes that are
 * no trace, or a trace cut short, handled.
 */
#include "tests/unit/cmocka_all.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perfetto.h"
#include "output/trace_svg.h"

#define T0 1000000 /* the first event; the last at T0 + 930 us: a pixel a microsecond */
#define US(n) (T0 + (uint64_t)(n) * 1000)

struct mem {
	char *buf;
	size_t len;
};

static void ev(struct perfetto_writer *w, uint64_t ts, uint64_t track, enum perfetto_event_type type,
	       const char *name)
{
	const struct perfetto_event e = { .ts_ns = ts, .track_uuid = track, .type = type, .name = name };

	assert_int_equal(perfetto_event(w, &e), 0);
}

/* The trace the tests draw: a ring, a thread with nested slices, a CRTC's instants, a counter. */
static struct mem sample_trace(void)
{
	static const struct perfetto_track tracks[] = {
		{ .uuid = 1, .kind = PERFETTO_TRACK_PLAIN, .name = "card0 gfx" },
		{ .uuid = 2, .kind = PERFETTO_TRACK_PROCESS, .name = "<b>&", .pid = 42 },
		{ .uuid = 3, .parent_uuid = 2, .kind = PERFETTO_TRACK_THREAD, .name = "worker", .pid = 42, .tid = 43 },
		{ .uuid = 4, .kind = PERFETTO_TRACK_PLAIN, .name = "crtc 0" },
		{ .uuid = 5, .kind = PERFETTO_TRACK_COUNTER, .name = "busy %", .unit = PERFETTO_UNIT_NONE },
	};
	struct perfetto_writer w;
	struct mem m = { 0 };
	FILE *f = open_memstream(&m.buf, &m.len);

	assert_non_null(f);
	assert_int_equal(perfetto_writer_init(&w, f, 1 << 20), 0);
	for (size_t i = 0; i < sizeof(tracks) / sizeof(tracks[0]); i++)
		assert_int_equal(perfetto_track(&w, &tracks[i]), 0);
	ev(&w, US(0), 4, PERFETTO_INSTANT, "vblank"); /* the first event: the axis' 0 */
	ev(&w, US(100), 1, PERFETTO_SLICE_BEGIN, "job 7");
	ev(&w, US(300), 1, PERFETTO_SLICE_END, NULL);
	ev(&w, US(400), 3, PERFETTO_SLICE_BEGIN, "ioctl");
	ev(&w, US(450), 3, PERFETTO_SLICE_BEGIN, "fence wait <x>");
	ev(&w, US(500), 3, PERFETTO_SLICE_END, NULL);
	ev(&w, US(600), 3, PERFETTO_SLICE_END, NULL);
	ev(&w, US(700) + 100, 1, PERFETTO_SLICE_BEGIN, "tiny"); /* two in one pixel */
	ev(&w, US(700) + 200, 1, PERFETTO_SLICE_END, NULL);
	ev(&w, US(700) + 300, 1, PERFETTO_SLICE_BEGIN, "tiny");
	ev(&w, US(700) + 500, 1, PERFETTO_SLICE_END, NULL);
	for (int i = 0; i < 3; i++)
		ev(&w, US(800) + 10 * i, 4, PERFETTO_INSTANT, "vblank");
	assert_int_equal(perfetto_counter_double(&w, US(200), 5, 10.0), 0);
	assert_int_equal(perfetto_counter_double(&w, US(250), 5, 80.5), 0);
	ev(&w, US(900), 3, PERFETTO_SLICE_BEGIN, "never ends");
	ev(&w, US(930), 4, PERFETTO_INSTANT, "vblank"); /* the last event */
	assert_int_equal(perfetto_writer_finish(&w), 0);
	fclose(f);
	return m;
}

static char *draw(const void *trace, size_t len, int want)
{
	struct mem out = { 0 };
	FILE *f = open_memstream(&out.buf, &out.len);

	assert_non_null(f);
	assert_int_equal(trace_svg_write(trace, len, f, "test"), want);
	fclose(f);
	return out.buf;
}

/* The <rect> after the title that starts with title: its attribute attr (-1: none). */
static double attr_after(const char *svg, const char *title, const char *attr)
{
	char key[160];
	const char *at;

	snprintf(key, sizeof(key), "<title>%s", title);
	at = strstr(svg, key);
	snprintf(key, sizeof(key), " %s=\"", attr);
	if (!at || !(at = strstr(at, key)))
		return -1;
	return atof(at + strlen(key));
}

static void boxes_where_their_slices_are(void **state)
{
	struct mem m = sample_trace();
	char *svg = draw(m.buf, m.len, 0);
	double job_y = attr_after(svg, "job 7", "y");

	(void)state;
	assert_true(attr_after(svg, "job 7: 200.0us", "x") > 349.99 && attr_after(svg, "job 7", "x") < 350.01);
	assert_true(attr_after(svg, "job 7", "width") > 199.99 && attr_after(svg, "job 7", "width") < 200.01);
	assert_true(attr_after(svg, "ioctl: 200.0us", "x") > 649.99 && attr_after(svg, "ioctl", "x") < 650.01);
	/* nested: a row (14 px) below its parent */
	assert_true(attr_after(svg, "fence wait &lt;x&gt;: 50.0us", "y") - attr_after(svg, "ioctl", "y") > 13.99);
	assert_true(attr_after(svg, "fence wait &lt;x&gt;", "width") > 49.99);
	assert_non_null(strstr(svg, "<title>tiny: 2 slices, 300ns in all</title>"));
	assert_true(attr_after(svg, "tiny", "y") == job_y); /* on the ring's row */
	assert_non_null(strstr(svg, "<title>vblank x3</title>"));
	assert_non_null(strstr(svg, "<title>vblank x1</title>"));
	assert_non_null(strstr(svg, ">10 to 80.5</text>"));
	assert_non_null(strstr(svg, "&lt;b&gt;&amp; pid 42"));
	assert_non_null(strstr(svg, "worker tid 43"));
	assert_null(strstr(svg, "<b>"));
	assert_non_null(strstr(svg, "<title>never ends: 30.0us (not ended when the trace did)"));
	assert_non_null(strstr(svg, ">1 slice not ended when the trace did"));
	assert_non_null(strstr(svg, "test: 6 slices, 5 instants, 2 counter samples over 930.0us"));
	free(svg);
	free(m.buf);
}

/* A window of 100 to 300 us: the job fills it, what lies outside is left out. */
static void window_cuts_at_its_edges(void **state)
{
	struct mem m = sample_trace(), out = { 0 };
	FILE *f = open_memstream(&out.buf, &out.len);

	(void)state;
	assert_int_equal(trace_svg_write_window(m.buf, m.len, f, "win", 100000, 300000), 0);
	fclose(f);
	assert_true(attr_after(out.buf, "job 7", "x") > 249.99 && attr_after(out.buf, "job 7", "x") < 250.01);
	assert_true(attr_after(out.buf, "job 7", "width") > 929.99);
	assert_null(strstr(out.buf, "<title>ioctl"));
	assert_null(strstr(out.buf, "<title>vblank"));
	assert_null(strstr(out.buf, ">crtc 0</text>")); /* no row for a track with nothing in the window */
	assert_non_null(strstr(out.buf, "win: 1 slice, 0 instants, 2 counter samples over 200.0us, from 100.0us after the first"));
	free(out.buf);
	out.buf = NULL;
	f = open_memstream(&out.buf, &out.len); /* after the counter's last sample: its value held */
	assert_int_equal(trace_svg_write_window(m.buf, m.len, f, "win", 260000, 300000), 0);
	fclose(f);
	assert_non_null(strstr(out.buf, ">80.5 to 80.5</text>"));
	assert_non_null(strstr(out.buf, "win: 1 slice, 0 instants, 0 counter samples"));
	free(out.buf);
	free(m.buf);
}

static void not_a_trace_refused(void **state)
{
	static const char junk[] = "{\"this\": \"is JSON\"}";
	char *svg;

	(void)state;
	svg = draw(junk, sizeof(junk) - 1, -EINVAL);
	free(svg);
	svg = draw("", 0, -EINVAL);
	free(svg);
}

/* Every prefix of a trace: drawn or refused, never a crash; a cut packet said. */
static void cut_traces_drawn(void **state)
{
	struct mem m = sample_trace();
	char *svg = draw(m.buf, m.len - 3, 0);

	(void)state;
	assert_non_null(strstr(svg, "ends in the middle of a packet"));
	free(svg);
	for (size_t n = 0; n < m.len; n++) {
		struct mem out = { 0 };
		FILE *f = open_memstream(&out.buf, &out.len);
		int err = trace_svg_write(m.buf, n, f, "cut");

		fclose(f);
		assert_true(err == 0 || err == -EINVAL);
		free(out.buf);
	}
	free(m.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boxes_where_their_slices_are),
		cmocka_unit_test(window_cuts_at_its_edges),
		cmocka_unit_test(not_a_trace_refused),
		cmocka_unit_test(cut_traces_drawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
