// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "bpf/nvidia.h"
#include "collectors/nvidia/nv_capture.h"
#include "collectors/nvidia/nv_kernels.h"

/* The kernel's name (nv_kernel_name's), from the cache when it has it there. */
static void kernel_name(struct nv_capture *nc, uint32_t tgid, uint64_t handle, char *out, size_t size)
{
	const char *kept = name_cache_get(&nc->names, tgid, handle);

	if (kept) {
		snprintf(out, size, "%s", kept);
		return;
	}
	if (nv_kernel_name(nc->names_fd, tgid, handle, out, size)) /* else not named yet: asked again next time */
		name_cache_put(&nc->names, tgid, handle, out);
}

/* A capture record (nv_rec) as a call of its thread. */
static bool call_of(void *ctx, const void *rec, size_t size, void *item)
{
	const struct nv_rec *r = rec;
	struct nv_capture *nc = ctx;
	struct call_span *s = item;

	if (size < sizeof(*r) || r->kind > NV_REC_SYNC)
		return false;
	*s = (struct call_span){ .start_ns = r->start_ns,
				 .end_ns = r->end_ns,
				 .pid = r->tgid,
				 .tid = r->tid,
				 .correlation = r->correlation };
	s->kind = r->kind == NV_REC_SYNC	   ? CALL_SPAN_CUDA_SYNC :
		  r->kind == NV_REC_GRAPH_LAUNCH ? CALL_SPAN_CUDA_GRAPH_LAUNCH :
						   CALL_SPAN_CUDA_LAUNCH;
	snprintf(s->thread, sizeof(s->thread), "%.*s", (int)sizeof(r->thread), r->thread);
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)sizeof(r->comm), r->comm);
	if (s->kind != CALL_SPAN_CUDA_LAUNCH)
		return true;
	kernel_name(nc, r->tgid, r->handle, s->name, sizeof(s->name));
	if (nc->stacks && (r->stack_id >= 0 || r->caller)) { /* taken with stacks on */
		s->stack = (struct stack_ref){ .pid = r->tgid, .ustack_id = r->stack_id,
					       .kstack_id = -1, .caller = r->caller, .aux = r->handle };
		s->stacks = nc->stacks;
	}
	return true;
}

static void hand(void *ctx, const void *items, size_t n, uint64_t lost)
{
	struct nv_capture *nc = ctx;

	(nc->sink->cuda ? nc->sink->cuda : nc->sink->calls)(nc->sink->arg, items, n, lost);
}

static const struct capture_rb_ops ops = {
	.item_size = sizeof(struct call_span),
	.convert = call_of,
	.hand = hand,
};

void nv_capture_open(struct nv_capture *nc, const struct job_sink *sink, int map_fd, __u32 *on, const __u64 *lost,
		     int names_fd, const struct span_stacks *stacks)
{
	memset(nc, 0, sizeof(*nc));
	nc->names_fd = names_fd;
	nc->stacks = stacks;
	nc->sink = sink && sink->calls ? sink : NULL; /* before its reader starts: hand uses it */
	if (nc->sink && name_cache_init(&nc->names, NV_CAPTURE_NAMES, CALL_SPAN_NAME_LEN))
		nc->sink = NULL; /* out of memory: the trace gets no CUDA calls */
	if (nc->sink && capture_rb_init(&nc->rb, map_fd, on, lost, sink->active, &ops, nc))
		nc->sink = NULL;
}

void nv_capture_drain(struct nv_capture *nc)
{
	if (nc->sink)
		capture_rb_drain(&nc->rb);
}

void nv_capture_close(struct nv_capture *nc)
{
	capture_rb_free(&nc->rb);
	name_cache_free(&nc->names);
	nc->sink = NULL;
}
