/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which CUDA device a libcuda call goes to: each thread's stack of current
 * contexts (cuCtxSetCurrent, cuCtxPushCurrent, cuCtxPopCurrent, cuCtxCreate,
 * cuCtxDestroy), each context's device ordinal (cuDevicePrimaryCtxRetain,
 * cuCtxCreate, cuCtxGetDevice), and the counters per process and device.
 * A call whose context, or whose context's device, was not seen counts under
 * NV_DEV_UNKNOWN. Included by nvidia.bpf.c after its drops[] and nvidia.h.
 */
#ifndef GPUTOP_CUDA_CTX_BPF_H
#define GPUTOP_CUDA_CTX_BPF_H

/* Threads' current contexts; threads that exited are removed by user space (map_sweep_gone_threads). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_THREADS);
	__type(key, __u64);
	__type(value, struct nv_thread);
} threads SEC(".maps");

/* (process, context) -> device ordinal; a process's entries removed when it exits. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_CTXS);
	__type(key, struct nv_ctx_key);
	__type(value, __u32);
} ctx_devs SEC(".maps");

/* (process, device) -> its PCI bus id, as the process asked for it. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_PROC_GPUS);
	__type(key, struct nv_gpu_key);
	__type(value, struct nv_bus_id);
} bus_ids SEC(".maps");

/* Counters per (process, device). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_PROC_GPUS);
	__type(key, struct nv_gpu_key);
	__type(value, struct nv_proc_gpu);
} proc_gpus SEC(".maps");

/* The device of the calling thread's current context, or NV_DEV_UNKNOWN. */
static __always_inline __u32 current_dev(__u64 id)
{
	struct nv_thread *t = bpf_map_lookup_elem(&threads, &id);
	struct nv_ctx_key k = { .tgid = id >> 32 };
	__u32 *dev, top;

	if (!t || !t->depth || t->depth > NV_CTX_STACK)
		return NV_DEV_UNKNOWN;
	top = (t->depth - 1) & (NV_CTX_STACK - 1);
	k.ctx = t->ctx[top];
	if (!k.ctx)
		return NV_DEV_UNKNOWN;
	dev = bpf_map_lookup_elem(&ctx_devs, &k);
	return dev ? *dev : NV_DEV_UNKNOWN;
}

/* The counters of (tgid, dev); NULL (counted) when the table is full. */
static __always_inline struct nv_proc_gpu *gpu_of(__u32 tgid, __u32 dev)
{
	struct nv_gpu_key k = { .tgid = tgid, .dev = dev };
	struct nv_proc_gpu zero = {}, *g = lookup_or_init(&proc_gpus, &k, &zero);

	if (!g)
		drop_count(drops, NV_DROP_PROC_GPUS_FULL, NV_DROP_MAX);
	return g;
}

/* The counters of the device the calling thread's call goes to. */
static __always_inline struct nv_proc_gpu *gpu_of_call(__u64 id)
{
	return gpu_of(id >> 32, current_dev(id));
}

static __always_inline struct nv_thread *thread_of(__u64 id)
{
	struct nv_thread zero = {}, *t = lookup_or_init(&threads, &id, &zero);

	if (!t)
		drop_count(drops, NV_DROP_THREADS_FULL, NV_DROP_MAX);
	return t;
}

static __always_inline void ctx_device(__u32 tgid, __u64 ctx, __u32 dev)
{
	struct nv_ctx_key k = { .ctx = ctx, .tgid = tgid };

	if (ctx && bpf_map_update_elem(&ctx_devs, &k, &dev, BPF_ANY))
		drop_count(drops, NV_DROP_CTXS_FULL, NV_DROP_MAX);
}

/* ctx on top of the thread's stack: pushed (push true) or in place of the top. */
static __always_inline void ctx_current(__u64 id, __u64 ctx, bool push)
{
	struct nv_thread *t = thread_of(id);

	if (!t)
		return;
	if (push || !t->depth) {
		if (t->depth >= 255) /* far past anything kept: counted, not followed */
			return;
		t->depth++;
	}
	if (t->depth > NV_CTX_STACK) {
		drop_count(drops, NV_DROP_CTX_STACK_DEEP, NV_DROP_MAX);
		return;
	}
	t->ctx[(t->depth - 1) & (NV_CTX_STACK - 1)] = ctx;
}

static __always_inline void ctx_pop(__u64 id)
{
	struct nv_thread *t = bpf_map_lookup_elem(&threads, &id);

	if (t && t->depth) /* below what was seen: the current context stays unknown */
		t->depth--;
}

/* A context's end: forgotten, and popped where it is the thread's current. */
static __always_inline void ctx_destroyed(__u64 id, __u64 ctx)
{
	struct nv_ctx_key k = { .ctx = ctx, .tgid = id >> 32 };
	struct nv_thread *t = bpf_map_lookup_elem(&threads, &id);

	bpf_map_delete_elem(&ctx_devs, &k);
	if (t && t->depth && t->depth <= NV_CTX_STACK && t->ctx[(t->depth - 1) & (NV_CTX_STACK - 1)] == ctx)
		t->depth--;
}

/* The out argument's value at the return (a context, a device): false, counted, when unreadable. */
static __always_inline bool read_out(__u64 out, void *v, __u32 size)
{
	if (bpf_probe_read_user(v, size, (void *)out)) {
		drop_count(drops, NV_DROP_RETURN_UNREAD, NV_DROP_MAX);
		return false;
	}
	return true;
}

static __always_inline void bus_id_read(const struct nv_pending *c, __u32 tgid)
{
	struct nv_gpu_key k = { .tgid = tgid, .dev = (__u32)c->size };
	struct nv_bus_id b = {};

	if (bpf_probe_read_user_str(b.id, sizeof(b.id), (void *)c->out) <= 0) {
		drop_count(drops, NV_DROP_RETURN_UNREAD, NV_DROP_MAX);
		return;
	}
	if (bpf_map_update_elem(&bus_ids, &k, &b, BPF_ANY))
		drop_count(drops, NV_DROP_BUS_IDS_FULL, NV_DROP_MAX);
}

/* A context call's successful return (NV_CTX_SET .. NV_BUS_ID_OF). */
static __always_inline void ctx_done(const struct nv_pending *c, __u64 id)
{
	__u64 ctx = 0;
	__u32 dev = 0;

	switch (c->call) {
	case NV_CTX_SET:
		if (c->out)
			ctx_current(id, c->out, false);
		else
			ctx_pop(id);
		break;
	case NV_CTX_PUSH:
		ctx_current(id, c->out, true);
		break;
	case NV_CTX_POP:
		ctx_pop(id);
		break;
	case NV_CTX_DESTROY:
		ctx_destroyed(id, c->out);
		break;
	case NV_CTX_RETAIN:
	case NV_CTX_CREATE:
	case NV_CTX_CREATE_V3:
	case NV_CTX_CREATE_V4:
		if (!read_out(c->out, &ctx, sizeof(ctx)))
			break;
		ctx_device(id >> 32, ctx, (__u32)c->size);
		if (c->call != NV_CTX_RETAIN) /* a created context is pushed on the thread's stack */
			ctx_current(id, ctx, true);
		break;
	case NV_CTX_GET_DEVICE: {
		struct nv_thread *t = bpf_map_lookup_elem(&threads, &id);

		if (!t || !t->depth || t->depth > NV_CTX_STACK || !read_out(c->out, &dev, sizeof(dev)))
			break;
		ctx_device(id >> 32, t->ctx[(t->depth - 1) & (NV_CTX_STACK - 1)], dev);
		break;
	}
	case NV_BUS_ID_OF:
		bus_id_read(c, id >> 32);
		break;
	}
}

#endif
