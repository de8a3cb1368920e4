// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU ioctls and fence waits as slices on their threads' tracks (trace_calls.h). */
#include <stdio.h>
#include <string.h>
#include "output/trace_calls.h"
#include "output/trace_kernels.h"

void trace_calls_init(struct trace_calls *tcl, struct trace_counters *tc,
		      int64_t wall_minus_mono_ns)
{
	memset(tcl, 0, sizeof(*tcl));
	tcl->tc = tc;
	tcl->wall_minus_mono_ns = wall_minus_mono_ns;
}

/*
 * The call's track: its thread's, or a child of it for fence waits ("fence
 * waits") and CUDA synchronisations ("CUDA syncs"); 0: none.
 */
static uint64_t call_track(struct trace_calls *tcl, const struct call_span *s)
{
	uint64_t thread = trace_thread_track(tcl->tc, s->pid, s->tid, s->comm, s->thread);
	bool wait = s->kind == CALL_SPAN_FENCE_WAIT;
	char key[48];

	if (!thread || (!wait && s->kind != CALL_SPAN_CUDA_SYNC))
		return thread;
	snprintf(key, sizeof(key), "%s\x1f%u\x1f%u", wait ? "fwait" : "cusync", s->pid, s->tid);
	if (!trace_track_ready(tcl->tc, key, thread, wait ? "fence waits" : "CUDA syncs",
			       PERFETTO_TRACK_PLAIN, PERFETTO_UNIT_NONE))
		return 0;
	return trace_key_uuid(key);
}

/*
 * A CUDA launch's instant, named by its kernel ("graph launch" for a graph's); where its
 * correlation id is known, annotated with it, the flow to its kernel's slice starting there.
 */
static int launch_write(struct trace_calls *tcl, const struct call_span *s, uint64_t track)
{
	uint64_t flow = trace_cuda_flow_id(s->pid, s->correlation);
	struct perfetto_arg arg = { .name = "correlation", .type = PERFETTO_ARG_UINT, .u = s->correlation };
	struct perfetto_event e = {
		.ts_ns = s->start_ns + (uint64_t)tcl->wall_minus_mono_ns,
		.track_uuid = track,
		.type = PERFETTO_INSTANT,
		.name = s->kind == CALL_SPAN_CUDA_GRAPH_LAUNCH ? "graph launch" :
			*s->name			       ? s->name :
								 "launch",
		.flow_ids = &flow,
		.n_flow_ids = s->correlation != 0,
		.args = &arg,
		.n_args = s->correlation != 0,
	};

	e.callstack_iid =
		trace_stacks_iid(&tcl->tc->stacks, &tcl->tc->w, s->stacks, &s->stack, e.ts_ns);
	return perfetto_event(&tcl->tc->w, &e);
}

/* One call's slice, begun and ended (a launch's instant): 0, or the writer's error (counted by it). */
static int call_write(struct trace_calls *tcl, const struct call_span *s, uint64_t track)
{
	bool ioctl = s->kind == CALL_SPAN_IOCTL, sync = s->kind == CALL_SPAN_CUDA_SYNC;
	uint64_t off = (uint64_t)tcl->wall_minus_mono_ns;
	struct perfetto_arg args[] = {
		{ .name = ioctl ? "dev" : "driver", .type = PERFETTO_ARG_STRING,
		  .s = ioctl ? s->dev : s->name },
		{ .name = "ret", .type = PERFETTO_ARG_INT, .i = s->ret },
	};
	struct perfetto_event e = {
		.ts_ns = s->start_ns + off,
		.track_uuid = track,
		.type = PERFETTO_SLICE_BEGIN,
		.name = ioctl ? s->name : sync ? "synchronize" : "fence wait",
		.args = args,
		.n_args = ioctl ? 2 : sync ? 0 : 1,
	};
	int err;

	if (s->kind == CALL_SPAN_CUDA_LAUNCH || s->kind == CALL_SPAN_CUDA_GRAPH_LAUNCH)
		return launch_write(tcl, s, track);
	err = perfetto_event(&tcl->tc->w, &e);
	if (err)
		return err;
	e = (struct perfetto_event){ .ts_ns = (s->end_ns > s->start_ns ? s->end_ns : s->start_ns) + off,
				     .track_uuid = track,
				     .type = PERFETTO_SLICE_END };
	perfetto_event_closing(&tcl->tc->w, &e);
	return 0;
}

void trace_calls_add(struct trace_calls *tcl, const struct call_span *calls, size_t n,
		     uint64_t lost)
{
	if (lost) {
		perfetto_count_lost(&tcl->tc->w, lost);
		tcl->lost += lost;
	}
	for (size_t i = 0; i < n; i++) {
		const struct call_span *s = &calls[i];
		uint64_t track = call_track(tcl, s);

		if (!track) {
			perfetto_count_dropped(&tcl->tc->w, 1);
			tcl->lost++;
		} else if (call_write(tcl, s, track)) {
			tcl->lost++; /* counted by the writer */
		} else if (s->kind == CALL_SPAN_IOCTL) {
			tcl->ioctls++;
		} else if (s->kind == CALL_SPAN_FENCE_WAIT) {
			tcl->waits++;
		} else if (s->kind == CALL_SPAN_CUDA_SYNC) {
			tcl->syncs++;
		} else {
			tcl->launches++;
		}
	}
}
