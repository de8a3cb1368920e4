// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Writes a small Perfetto trace of known content for tests/perfetto/run.sh,
 * which decodes it with protoc against trace.proto: two processes (one with
 * names that are not UTF-8), a ring whose jobs overlap (on lanes), a flow
 * between two jobs, instants, counter tracks and interned names.
 *   example FILE          the trace
 *   example FILE storm    a storm into the smallest limit: drops and their note
 *   example FILE jobs     GPU jobs through output/trace_jobs.h (for jobs.sh): on ring gfx,
 *                         3 jobs of "app 7", 2 overlapping, and job "dep 8" that one of them
 *                         waited for (a flow); on ring comp, 1 job of a process unknown;
 *                         app's jobs carry one stack (main;submit;ioctl;drm_ioctl_[k];
 *                         amdgpu_cs_ioctl_[k], the last one's stack id another with the
 *                         same frames), dep's a stack that cannot be read (lost)
 *   example FILE display  vblanks and deliveries through output/trace_display.h (for
 *                         display.sh): 6 vblanks on CRTC 0, 2 on CRTC 1; "flipper" (pid 9)
 *                         4 deliveries on CRTC 0, one late after 2 missed frames; 1
 *                         delivery to no known process (a modeset's) on CRTC 1
 *   example FILE calls    ioctls and fence waits through output/trace_calls.h (for calls.sh):
 *                         process "app" (pid 7), thread 8 "app:gl": 3 AMDGPU_CS on card0 (one
 *                         returning -22) and 1 GET_CAP, 2 fence waits on amdgpu fences; thread
 *                         9 "worker": 1 fence wait on a mockdrm fence, 2 CUDA launches of
 *                         "kernel_a()" (with the stack main;train;cuLaunchKernel), 1 of a
 *                         kernel not named, 1 graph launch; thread 8 1 CUDA synchronisation
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perfetto.h"
#include "output/trace_calls.h"
#include "output/trace_display.h"
#include "output/trace_jobs.h"

enum {
	GPU_PROC = 10,
	RING = 11,
	APP = 100,
	APP_THREAD = 101,
	ODD = 200,
	ODD_THREAD = 201,
	CRTC = 300,
	VRAM = 400,
	BUSY = 401,
};

static int failures;

static void ok(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "example: %s: %s\n", what, strerror(-err));
		failures++;
	}
}

static void tracks(struct perfetto_writer *w)
{
	char long_name[400];
	const struct perfetto_track t[] = {
		{ .uuid = GPU_PROC, .kind = PERFETTO_TRACK_PROCESS, .pid = 0,
		  .name = "GPU 0000:03:00.0" },
		{ .uuid = RING, .parent_uuid = GPU_PROC, .name = "gfx_0.0.0" },
		{ .uuid = APP, .kind = PERFETTO_TRACK_PROCESS, .pid = 4242, .name = "glxgears" },
		{ .uuid = APP_THREAD, .parent_uuid = APP, .kind = PERFETTO_TRACK_THREAD,
		  .pid = 4242, .tid = 4243, .name = "glxgears:cs0" },
		{ .uuid = ODD, .kind = PERFETTO_TRACK_PROCESS, .pid = 77,
		  .name = "bad\xff\xfename" },
		{ .uuid = ODD_THREAD, .parent_uuid = ODD, .kind = PERFETTO_TRACK_THREAD, .pid = 77,
		  .tid = 78, .name = long_name },
		{ .uuid = CRTC, .parent_uuid = GPU_PROC, .name = "crtc-0 \xed\xa0\x80" },
		{ .uuid = VRAM, .parent_uuid = GPU_PROC, .kind = PERFETTO_TRACK_COUNTER,
		  .name = "VRAM", .unit = PERFETTO_UNIT_BYTES },
		{ .uuid = BUSY, .parent_uuid = GPU_PROC, .kind = PERFETTO_TRACK_COUNTER,
		  .name = "gfx busy %" },
	};

	/* 399 bytes: "w", an invalid 2-byte sequence, then 'x's; cut to 255 */
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	memcpy(long_name, "w\xc3\x28", 3);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ok(perfetto_track(w, &t[i]), "track");
}

/* Jobs A, B and C on one ring: B overlaps A (lane 1), C reuses lane 0 and ends A's flow. */
static void jobs(struct perfetto_writer *w)
{
	struct perfetto_lanes ring;
	uint64_t flow = 7;
	struct perfetto_arg a_args[] = {
		{ .name = "seqno", .type = PERFETTO_ARG_UINT, .u = 12 },
		{ .name = "client", .type = PERFETTO_ARG_STRING, .s = "glxgears" },
		{ .name = "delta_ns", .type = PERFETTO_ARG_INT, .i = -5 },
	};
	struct perfetto_arg b_args[] = { { .name = "seqno", .type = PERFETTO_ARG_UINT, .u = 13 } };
	struct perfetto_event a = { .ts_ns = 1000, .name = "job", .args = a_args, .n_args = 3,
				    .flow_ids = &flow, .n_flow_ids = 1 };
	struct perfetto_event b = { .ts_ns = 1500, .name = "job", .args = b_args, .n_args = 1 };
	struct perfetto_event c = { .ts_ns = 2500, .name = "job",
				    .terminating_flow_ids = &flow, .n_terminating_flow_ids = 1 };
	struct perfetto_event end = { 0 };
	int la, lb, lc;

	perfetto_lanes_init(&ring, RING);
	la = perfetto_lane_begin(w, &ring, &a);
	lb = perfetto_lane_begin(w, &ring, &b);
	end.ts_ns = 2000;
	ok(perfetto_lane_end(w, &ring, la, &end), "end A");
	lc = perfetto_lane_begin(w, &ring, &c);
	end.ts_ns = 3000;
	ok(perfetto_lane_end(w, &ring, lb, &end), "end B");
	end.ts_ns = 3500;
	ok(perfetto_lane_end(w, &ring, lc, &end), "end C");
	if (la != 0 || lb != 1 || lc != 0) {
		fprintf(stderr, "example: lanes %d %d %d, not 0 1 0\n", la, lb, lc);
		failures++;
	}
}

static void instants_and_counters(struct perfetto_writer *w)
{
	struct perfetto_event ioctl = { .track_uuid = APP_THREAD, .type = PERFETTO_INSTANT,
					.name = "ioctl" };
	struct perfetto_event vblank = { .track_uuid = CRTC, .type = PERFETTO_INSTANT,
					 .name = "vblank" };

	for (int i = 0; i < 2; i++) {
		ioctl.ts_ns = 1100 + 100 * (uint64_t)i;
		ok(perfetto_event(w, &ioctl), "ioctl");
		vblank.ts_ns = 1000 + 16667 * (uint64_t)i;
		ok(perfetto_event(w, &vblank), "vblank");
	}
	ok(perfetto_counter(w, 1000, VRAM, 1048576), "counter");
	ok(perfetto_counter(w, 2000, VRAM, 4294967296LL), "counter");
	ok(perfetto_counter_double(w, 2000, BUSY, 12.5), "counter");
}

/* 10000 instants into PERFETTO_LIMIT_MIN bytes, and 3 lost before the writer. */
static void storm(struct perfetto_writer *w)
{
	struct perfetto_event e = {
		.track_uuid = CRTC, .type = PERFETTO_INSTANT, .name = "vblank"
	};
	int written = 0;

	perfetto_count_lost(w, 3);
	for (int i = 0; i < 10000; i++) {
		e.ts_ns = 1000 + (uint64_t)i;
		written += perfetto_event(w, &e) == 0;
	}
	printf("storm: %d written, %llu over the limit, %llu lost\n", written, (unsigned long long)w->over_limit,
	       (unsigned long long)w->lost);
}

static struct job_span span(const char *ring, const char *comm, uint32_t pid, uint64_t q,
			    uint64_t r, uint64_t d)
{
	struct job_span s = { .pid = pid, .seq = q, .queue_ns = q, .run_ns = r, .done_ns = d };

	snprintf(s.dev, sizeof(s.dev), "gpu0");
	snprintf(s.ring, sizeof(s.ring), "%s", ring);
	snprintf(s.comm, sizeof(s.comm), "%s", comm);
	return s;
}

/* A collector's stacks, leaf first: pid 7's, whatever its ids; none for another process. */
static size_t app_frames(const struct span_stacks *ss, const struct stack_ref *s,
			 struct span_frame *out, size_t max)
{
	static const char *const names[] = { "amdgpu_cs_ioctl", "drm_ioctl", "ioctl", "submit",
					      "main" };
	size_t n = sizeof(names) / sizeof(names[0]);

	(void)ss;
	if (s->pid != 7 || max < n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", names[i]);
		out[i].kernel = i < 2;
	}
	return n;
}

/* GPU jobs as gputop-bpf writes them (the example FILE jobs). */
static int gpu_jobs(FILE *f)
{
	static struct trace_counters tc;
	static struct trace_jobs tj;
	struct job_span s[] = {
		span("gfx", "dep", 8, 1000, 1000, 1500),
		span("gfx", "app", 7, 1100, 1500, 2000),
		span("gfx", "app", 7, 1200, 2000, 2500),
		span("gfx", "app", 7, 2600, 2700, 2800),
		span("comp", "", 0, 0, 1000, 1200),
	};

	static const struct span_stacks stacks = { .frames = app_frames };

	s[0].flow_id = 99;
	s[2].dep_flow_id = 99;
	for (size_t i = 0; i < 4; i++) {
		s[i].stacks = &stacks;
		s[i].ustack_id = i == 3 ? 2 : 1;
		s[i].kstack_id = 5;
	}
	if (trace_counters_init(&tc, f, 1 << 20))
		return 1;
	trace_jobs_init(&tj, &tc, 0);
	trace_jobs_add(&tj, s, 5, 0);
	trace_jobs_free(&tj);
	return trace_counters_finish(&tc) || tj.slices != 5;
}

static struct display_mark vblank(int crtc, uint32_t seq, uint64_t ns)
{
	return (struct display_mark){ .kind = DISPLAY_MARK_VBLANK, .crtc = crtc, .seq = seq,
				      .ts_ns = ns };
}

static struct display_mark delivery(uint32_t pid, int crtc, uint32_t seq, uint64_t ns,
				    uint32_t missed)
{
	struct display_mark m = { .kind = DISPLAY_MARK_DELIVERY, .crtc = crtc, .seq = seq,
				  .ts_ns = ns, .pid = pid, .file = 0xffff8880 + pid,
				  .missed = missed };

	if (pid)
		snprintf(m.comm, sizeof(m.comm), "flipper");
	return m;
}

/* vblanks and deliveries as gputop-bpf writes them (the example FILE display). */
static int display(FILE *f)
{
	static struct trace_counters tc;
	static struct trace_display td;
	struct display_mark m[] = {
		vblank(0, 10, 1000),	     delivery(9, 0, 10, 1100, 0),  vblank(1, 5, 1500),
		delivery(0, 1, 5, 1600, 0),  vblank(0, 11, 2000),	   delivery(9, 0, 11, 2100, 0),
		vblank(0, 12, 3000),	     vblank(0, 13, 4000),	   vblank(0, 14, 5000),
		delivery(9, 0, 14, 5100, 2), vblank(1, 6, 5500),	   vblank(0, 15, 6000),
		delivery(9, 0, 15, 6100, 0),
	};
	size_t n = sizeof(m) / sizeof(m[0]);

	if (trace_counters_init(&tc, f, 1 << 20))
		return 1;
	trace_display_init(&td, &tc, 0);
	trace_display_add(&td, m, n, 0);
	return trace_counters_finish(&tc) || td.vblanks != 8 || td.deliveries != 5 ||
	       td.missed != 2 || td.lost;
}

static struct call_span call(uint32_t tid, const char *name, uint64_t start, int64_t ret)
{
	struct call_span c = { .kind = CALL_SPAN_IOCTL, .pid = 7, .tid = tid, .start_ns = start,
			       .end_ns = start + 50, .ret = ret };

	snprintf(c.comm, sizeof(c.comm), "app");
	snprintf(c.thread, sizeof(c.thread), "%s", tid == 8 ? "app:gl" : "worker");
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.dev, sizeof(c.dev), "card0");
	return c;
}

static struct call_span fence_wait(uint32_t tid, const char *driver, uint64_t start)
{
	struct call_span c = call(tid, driver, start, 0);

	c.kind = CALL_SPAN_FENCE_WAIT;
	c.dev[0] = 0;
	return c;
}

/* A CUDA launch of thread 9 (at start). */
static struct call_span cuda(enum call_span_kind kind, const char *name, uint64_t start)
{
	struct call_span c = call(9, name, start, 0);

	c.kind = kind;
	c.end_ns = start;
	c.dev[0] = 0;
	return c;
}

/* A launch's stack, leaf first: kernel handle 0x42's of pid 7; none for another. */
static size_t launch_frames(const struct span_stacks *ss, const struct stack_ref *r,
			    struct span_frame *out, size_t max)
{
	static const char *const names[] = { "cuLaunchKernel", "train", "main" };

	(void)ss;
	if (r->pid != 7 || r->aux != 0x42 || max < 3)
		return 0;
	for (size_t i = 0; i < 3; i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", names[i]);
		out[i].kernel = false;
	}
	return 3;
}

/* ioctls, fence waits and CUDA calls as gputop-bpf writes them (the example FILE calls). */
static int calls(FILE *f)
{
	static struct trace_counters tc;
	static struct trace_calls tcl;
	struct call_span c[] = {
		call(8, "AMDGPU_CS", 1000, 0),	     fence_wait(8, "amdgpu", 1100),
		call(8, "AMDGPU_CS", 1200, -22),     fence_wait(9, "mockdrm", 1250),
		call(8, "GET_CAP", 1300, 0),	     call(8, "AMDGPU_CS", 1400, 0),
		fence_wait(8, "amdgpu", 1500),	     cuda(CALL_SPAN_CUDA_LAUNCH, "kernel_a()", 1600),
		cuda(CALL_SPAN_CUDA_LAUNCH, "", 1610), cuda(CALL_SPAN_CUDA_LAUNCH, "kernel_a()", 1620),
		cuda(CALL_SPAN_CUDA_GRAPH_LAUNCH, "", 1630), call(8, "synchronize", 1640, 0),
	};

	if (trace_counters_init(&tc, f, 1 << 20))
		return 1;
	trace_calls_init(&tcl, &tc, 0);
	static const struct span_stacks stacks = { .frames = launch_frames };

	c[sizeof(c) / sizeof(c[0]) - 1].kind = CALL_SPAN_CUDA_SYNC;
	for (size_t i = 7; i <= 9; i += 2) { /* the kernel_a() launches */
		c[i].stack =
			(struct stack_ref){ .pid = 7, .ustack_id = 3, .kstack_id = -1, .aux = 0x42 };
		c[i].stacks = &stacks;
	}
	trace_calls_add(&tcl, c, sizeof(c) / sizeof(c[0]), 0);
	return trace_counters_finish(&tc) || tcl.ioctls != 4 || tcl.waits != 3 ||
	       tcl.launches != 4 || tcl.syncs != 1 || tcl.lost;
}

int main(int argc, char **argv)
{
	bool is_storm = argc == 3 && !strcmp(argv[2], "storm");
	bool is_jobs = argc == 3 && !strcmp(argv[2], "jobs");
	bool is_display = argc == 3 && !strcmp(argv[2], "display");
	bool is_calls = argc == 3 && !strcmp(argv[2], "calls");
	struct perfetto_writer w;
	FILE *f;

	if (argc < 2 || (argc == 3 && !is_storm && !is_jobs && !is_display && !is_calls) ||
	    argc > 3) {
		fprintf(stderr, "usage: example FILE [storm|jobs|display|calls]\n");
		return 2;
	}
	if (is_jobs || is_display || is_calls) {
		f = fopen(argv[1], "wb");
		return !f || (is_jobs ? gpu_jobs(f) : is_display ? display(f) : calls(f)) || fclose(f);
	}
	f = fopen(argv[1], "wb");
	if (!f || perfetto_writer_init(&w, f, is_storm ? PERFETTO_LIMIT_MIN : 1 << 20)) {
		perror(argv[1]);
		return 1;
	}
	if (is_storm) {
		const struct perfetto_track crtc = { .uuid = CRTC, .name = "crtc-0" };

		ok(perfetto_track(&w, &crtc), "track");
		storm(&w);
	} else {
		tracks(&w);
		jobs(&w);
		instants_and_counters(&w);
	}
	ok(perfetto_writer_finish(&w), "finish");
	if (fclose(f))
		failures++;
	return failures ? 1 : 0;
}
