// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bpf/cupti.h"
#include "collectors/gpu_time/gpu_time_tables.h"
#include "collectors/gpu_time/gt_capture.h"
#include "symbols/demangle.h"

/* CUpti_ActivityMemcpyKind, as nvidia.gpu_time's rows and the trace's slices name a copy. */
static const char *const copy_kinds[] = { "",	  "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					  "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };

/*
 * The kernel's name in its process (gpu_time_name's), demangled (as the launches' are), from the
 * cache when it has it there.
 */
static void kernel_name(struct gt_capture *gc, uint32_t tgid, uint32_t id, char *out, size_t size)
{
	char raw[GPUTOP_CUPTI_NAME_MAX + 16];
	struct gt_capture_name *slot = &gc->names[(id * 2654435761u ^ tgid) % GT_CAPTURE_NAMES];
	struct cupti_kernel_key k = { .tgid = tgid, .kind = GPUTOP_CUPTI_KERNEL, .name_id = id };
	struct cupti_name_key nk = { .tgid = tgid, .id = id };
	struct cupti_name_val v;
	bool known;

	if (slot->name[0] && slot->tgid == tgid && slot->id == id) {
		snprintf(out, size, "%s", slot->name);
		return;
	}
	known = id && !bpf_map_lookup_elem(gc->names_fd, &nk, &v);
	gpu_time_name(&k, known ? &v : NULL, raw, sizeof(raw));
	demangle(raw, out, size); /* as it is where it is no C++ name */
	if (!known)
		return; /* not named yet: asked again next time */
	slot->tgid = tgid;
	slot->id = id;
	snprintf(slot->name, sizeof(slot->name), "%s", out);
}

/* A capture record (cupti_capture_rec) as a kernel span on CLOCK_MONOTONIC. */
static bool span_of(void *ctx, const void *rec, size_t size, void *item)
{
	const struct cupti_capture_rec *c = rec;
	struct gt_capture *gc = ctx;
	struct kernel_span *s = item;
	uint64_t mid;

	if (size < sizeof(*c) || !c->cupti_ns || c->mono_after < c->mono_before || c->r.end < c->r.start ||
	    !c->r.start) {
		__atomic_fetch_add(&gc->unplaced, 1, __ATOMIC_RELAXED); /* read at the ticks */
		return false;
	}
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
				   .clock_err_ns = (uint32_t)((c->mono_after - c->mono_before + 1) / 2) };
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)sizeof(c->comm), c->comm);
	if (c->r.kind == GPUTOP_CUPTI_KERNEL) {
		s->kind = KERNEL_SPAN_KERNEL;
		kernel_name(gc, c->tgid, c->r.name_id, s->name, sizeof(s->name));
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

static void hand(void *ctx, const void *items, size_t n, uint64_t lost)
{
	struct gt_capture *gc = ctx;

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
	if (gc->sink && capture_rb_init(&gc->rb, map_fd, on, lost, sink->active, &ops, gc))
		gc->sink = NULL; /* out of memory: the trace gets no kernels */
}

void gt_capture_drain(struct gt_capture *gc)
{
	if (gc->sink)
		capture_rb_drain(&gc->rb);
}

void gt_capture_close(struct gt_capture *gc)
{
	capture_rb_free(&gc->rb);
	gc->sink = NULL;
}
