// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "bpf/cupti.h"
#include "collectors/gpu_time/gpu_time_tables.h"
#include "collectors/gpu_time/gt_capture.h"

/* CUpti_ActivityMemcpyKind, as nvidia.gpu_time's rows and the trace's slices name a copy. */
static const char *const copy_kinds[] = { "",	  "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };

/* A capture record (cupti_capture_rec) as a kernel span on CLOCK_MONOTONIC. */
static bool span_of(void *ctx, const void *rec, size_t size, void *item)
{
	const struct cupti_capture_rec *c = rec;
	struct gt_capture *gc = ctx;
	struct kernel_span *s = item;
	uint64_t mid, half;

	if (size < sizeof(*c) || !c->cupti_ns || c->mono_after < c->mono_before || c->r.end < c->r.start ||
	    !c->r.start) {
		__atomic_fetch_add(&gc->unplaced, 1, __ATOMIC_RELAXED); /* read at the ticks */
		return false;
	}
	half = (c->mono_after - c->mono_before + 1) / 2;
	mid = c->mono_before + (c->mono_after - c->mono_before) / 2;
	*s = (struct kernel_span){ .start_ns = c->r.start - c->cupti_ns + mid,
				   .end_ns = c->r.end - c->cupti_ns + mid,
				   .queued_ns = c->r.queued && c->r.queued <= c->r.start ?
							c->r.queued - c->cupti_ns + mid :
							0,
				   .bytes = c->r.bytes,
				   .pid = c->tgid,
				   .device = c->r.device_id,
				   .stream = c->r.stream_id,
				   .correlation = c->r.correlation_id,
				   .clock_err_ns = (uint32_t)(half < UINT32_MAX ? half : UINT32_MAX) };
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)sizeof(c->comm), c->comm);
	if (c->r.kind == GPUTOP_CUPTI_KERNEL) {
		s->kind = KERNEL_SPAN_KERNEL;
		gpu_time_kernel_name(gc->names_fd, &gc->names,
				     &(struct cupti_kernel_key){
					     .tgid = c->tgid, .kind = GPUTOP_CUPTI_KERNEL, .name_id = c->r.name_id },
				     s->name, sizeof(s->name));
	} else if (c->r.kind == GPUTOP_CUPTI_MEMCPY) {
		s->kind = KERNEL_SPAN_COPY;
		snprintf(s->name, sizeof(s->name), "memcpy%s%s", c->r.grid[0] ? " " : "",
			 c->r.grid[0] < sizeof(copy_kinds) / sizeof(copy_kinds[0]) ? copy_kinds[c->r.grid[0]] : "?");
	} else {
		s->kind = KERNEL_SPAN_SET;
		snprintf(s->name, sizeof(s->name), "memset");
	}
	return true;
}

/* The spans, and as lost those the ring buffer had no room for and those that could not be placed. */
static void hand(void *ctx, const void *items, size_t n, uint64_t lost)
{
	struct gt_capture *gc = ctx;
	uint64_t unplaced = __atomic_load_n(&gc->unplaced, __ATOMIC_RELAXED);

	lost += unplaced - gc->unplaced_handed;
	gc->unplaced_handed = unplaced;
	gc->sink->kernels(gc->sink->arg, items, n, lost);
}

static const struct capture_rb_ops ops = {
	.item_size = sizeof(struct kernel_span),
	.convert = span_of,
	.hand = hand,
};

void gt_capture_open(struct gt_capture *gc, const struct job_sink *sink, int map_fd, __u32 *on, const __u64 *lost,
		     int names_fd)
{
	memset(gc, 0, sizeof(*gc));
	gc->names_fd = names_fd;
	gc->sink = sink && sink->kernels ? sink : NULL; /* before its reader starts: hand uses it */
	if (gc->sink && name_cache_init(&gc->names, GT_CAPTURE_NAMES, CALL_SPAN_NAME_LEN))
		gc->sink = NULL; /* out of memory: the trace gets no kernels */
	if (gc->sink && capture_rb_init(&gc->rb, map_fd, on, lost, sink->active, &ops, gc))
		gc->sink = NULL;
}

void gt_capture_drain(struct gt_capture *gc)
{
	if (gc->sink)
		capture_rb_drain(&gc->rb);
}

void gt_capture_close(struct gt_capture *gc)
{
	capture_rb_free(&gc->rb);
	name_cache_free(&gc->names);
	gc->sink = NULL;
}
