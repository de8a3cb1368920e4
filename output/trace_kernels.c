// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CUDA kernels, copies and sets as slices on their streams' lanes (trace_kernels.h). */
#include <stdio.h>
#include <string.h>
#include "output/trace_kernels.h"

uint64_t trace_cuda_flow_id(uint32_t pid, uint32_t correlation)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ 0x63756461ULL; /* FNV-1a over "cuda", the pid and the id */

	h = (h ^ pid) * 0x100000001b3ULL;
	h = (h ^ correlation) * 0x100000001b3ULL;
	return h ? h : 1;
}

void trace_kernels_init(struct trace_kernels *tk, struct trace_counters *tc, int64_t wall_minus_mono_ns)
{
	memset(tk, 0, sizeof(*tk));
	tk->tc = tc;
	tk->wall_minus_mono_ns = wall_minus_mono_ns;
	laned_tracks_init(&tk->streams, TRACE_KERNELS_STREAMS);
}

void trace_kernels_free(struct trace_kernels *tk)
{
	laned_tracks_free(&tk->streams);
}

/* The track of the span's process's stream on its device, described the first time; NULL: none. */
static struct laned_track *stream_get(struct trace_kernels *tk, const struct kernel_span *k)
{
	char dev[24], key[64], name[64];

	snprintf(dev, sizeof(dev), "cuda%u", k->device);
	snprintf(key, sizeof(key), "cuda\x1f%u\x1f%u\x1f%u", k->device, k->pid, k->stream);
	snprintf(name, sizeof(name), "%.15s %u stream %u", *k->comm ? k->comm : "?", k->pid, k->stream);
	return laned_track_get(&tk->streams, tk->tc, dev, key, name);
}

static void kernel_write(struct trace_kernels *tk, const struct kernel_span *k)
{
	uint64_t off = (uint64_t)tk->wall_minus_mono_ns, start = k->start_ns + off, end = k->end_ns + off;
	struct laned_track *t = stream_get(tk, k);
	struct perfetto_arg args[5] = {
		{ .name = "pid", .type = PERFETTO_ARG_UINT, .u = k->pid },
		{ .name = "stream", .type = PERFETTO_ARG_UINT, .u = k->stream },
		{ .name = "correlation", .type = PERFETTO_ARG_UINT, .u = k->correlation },
	};
	uint64_t flow = trace_cuda_flow_id(k->pid, k->correlation);
	struct perfetto_event e = { .ts_ns = start,
				    .type = PERFETTO_SLICE_BEGIN,
				    .name = k->name,
				    .args = args,
				    .terminating_flow_ids = &flow,
				    .n_terminating_flow_ids = k->kind == KERNEL_SPAN_KERNEL && k->correlation };

	e.n_args = 3;
	if (k->queued_ns)
		args[e.n_args++] = (struct perfetto_arg){ .name = "queue_wait_ns",
							  .type = PERFETTO_ARG_UINT,
							  .u = k->start_ns - k->queued_ns };
	if (k->kind != KERNEL_SPAN_KERNEL)
		args[e.n_args++] = (struct perfetto_arg){ .name = "bytes", .type = PERFETTO_ARG_UINT, .u = k->bytes };
	e.track_uuid = t ? laned_track_lane(tk->tc, t, start, end) : 0;
	if (!e.track_uuid) {
		perfetto_count_dropped(&tk->tc->w, 1);
		tk->lost++;
		return;
	}
	if (perfetto_event(&tk->tc->w, &e)) {
		tk->lost++; /* counted by the writer */
		return;
	}
	e = (struct perfetto_event){ .ts_ns = end, .track_uuid = e.track_uuid, .type = PERFETTO_SLICE_END };
	perfetto_event_closing(&tk->tc->w, &e);
	tk->slices++;
	if (k->clock_err_ns > tk->clock_err_max_ns)
		tk->clock_err_max_ns = k->clock_err_ns;
}

void trace_kernels_add(struct trace_kernels *tk, const struct kernel_span *ks, size_t n, uint64_t lost)
{
	if (lost) {
		perfetto_count_lost(&tk->tc->w, lost);
		tk->lost += lost;
	}
	for (size_t i = 0; i < n; i++)
		kernel_write(tk, &ks[i]);
}
