// SPDX-License-Identifier: GPL-2.0
/*
 * Intel i915 and xe: what their tracepoints say, aggregated.
 * i915 (layouts the same 5.15 -> 7.3, reference/GPU_TRACEPOINTS.md 5):
 *  - i915_request_add / _retire per engine and process; i915_request_wait_begin
 *    -> _wait_end: the time clients block on the GPU, per process and engine;
 *  - i915_request_in -> _out (only with CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS):
 *    time on the hardware per engine, by the request's fence context and seqno;
 *  - GEM objects created, VMA binds and unbinds, faults by kind, pread/pwrite
 *    bytes per process; shrinker calls and their target, evictions per device.
 * xe (6.8+, reference 6):
 *  - jobs per exec queue (created, pushed, run, freed, timed out, errors) and
 *    the time from push to run, by the job's fence; the queue's engine class
 *    from the exec-queue events; jobs pushed per process;
 *  - buffer moves by placement (count, bytes); buffers created (6.17+) and
 *    VMA binds and unbinds per process.
 * Layout flavours are chosen by field existence (CO-RE against the module BTF):
 * xe 6.8 has no dev string and a u64 fence; 6.17 added gt_id; xe_bo_move's
 * placements became strings in 6.12. Handlers take the record, the task and
 * the time as arguments (tests/bpf/decode.c runs them on synthetic records).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "intel.h"
#include "common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 drops[INTEL_DROP_MAX];
__u32 next_engine;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, INTEL_MAX_DEVS);
	__type(key, __u32);
	__type(value, struct intel_dev);
} devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_ENGINES);
	__type(key, struct intel_engine_key);
	__type(value, __u32);
} engine_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, INTEL_MAX_ENGINES);
	__type(key, __u32);
	__type(value, struct intel_engine);
} engines SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_PROCS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct intel_proc);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_PENDING);
	__type(key, struct intel_rq_key);
	__type(value, __u64);
} in_flight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_PENDING);
	__type(key, __u64); /* pid_tgid */
	__type(value, struct intel_wait);
} waiting SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_QUEUES);
	__type(key, struct xe_queue_key);
	__type(value, struct xe_queue);
} queues SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_PENDING);
	__type(key, __u64); /* the job's fence */
	__type(value, __u64);
} pushed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INTEL_MAX_MOVES);
	__type(key, struct xe_move_key);
	__type(value, struct xe_move);
} moves SEC(".maps");

struct intel_zero {
	struct intel_proc proc;
	struct xe_queue queue;
	struct xe_move move;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct intel_zero);
} zero SEC(".maps");

/* ---- record layouts ---- */

struct trace_event_raw_i915_request {
	__u32 dev;
	__u64 ctx;
	__u16 class;
	__u16 instance;
	__u32 seqno;
} __core;
struct trace_event_raw_i915_request_wait_begin {
	__u32 dev;
	__u64 ctx;
	__u16 class;
	__u16 instance;
	__u32 seqno;
} __core;
struct trace_event_raw_i915_request_in {
	__u32 dev;
	__u64 ctx;
	__u16 class;
	__u16 instance;
	__u32 seqno;
} __core;
struct trace_event_raw_i915_request_out {
	__u32 dev;
	__u64 ctx;
	__u16 class;
	__u16 instance;
	__u32 seqno;
} __core;
struct trace_event_raw_i915_gem_object_create {
	__u64 size;
} __core;
struct trace_event_raw_i915_vma_bind {
	__u64 size;
} __core;
struct trace_event_raw_i915_vma_unbind {
	__u64 size;
} __core;
struct trace_event_raw_i915_gem_object_fault {
	__u8 gtt; /* bool in the kernel: read as a byte, so that no 0-or-1 is assumed */
	__u8 write;
} __core;
struct trace_event_raw_i915_gem_object_pread {
	__u64 len;
} __core;
struct trace_event_raw_i915_gem_object_pwrite {
	__u64 len;
} __core;
struct trace_event_raw_i915_gem_shrink {
	int dev;
	unsigned long target;
} __core;
struct trace_event_raw_i915_gem_evict {
	__u32 dev;
} __core;

enum xe_engine_class { XE_CLASS_RENDER___local = 0 };

/* 6.12+ (6.17 added gt_id) */
struct trace_event_raw_xe_sched_job {
	__u32 __data_loc_dev;
	__u8 gt_id;
	__u16 guc_id;
	int error;
	void *fence;
} __core;
/* 6.8: no dev string, the fence as a u64 */
struct trace_event_raw_xe_sched_job___v68 {
	__u16 guc_id;
	int error;
	__u64 fence;
} __core;
struct trace_event_raw_xe_exec_queue {
	enum xe_engine_class class;
	__u8 gt_id;
	__u16 guc_id;
} __core;
/* 6.12+: placement names */
struct trace_event_raw_xe_bo_move {
	unsigned long size;
	__u32 __data_loc_new_placement_name;
	__u32 __data_loc_old_placement_name;
} __core;
/* 6.8: placement numbers */
struct trace_event_raw_xe_bo_move___v68 {
	unsigned long size;
	__u32 new_placement;
	__u32 old_placement;
} __core;
struct trace_event_raw_xe_bo {
	unsigned long size;
} __core;
struct trace_event_raw_xe_vma {
	__u64 start;
	__u64 end; /* inclusive */
} __core;

/* ---- helpers ---- */

static __always_inline struct intel_zero *zero_value(void)
{
	__u32 z = 0;

	return bpf_map_lookup_elem(&zero, &z);
}

static __always_inline struct intel_proc *proc_of(__u64 id)
{
	struct intel_zero *z = zero_value();
	__u32 tgid = id >> 32;
	struct intel_proc *p = z ? lookup_or_init(&procs, &tgid, &z->proc) : NULL;

	if (!p)
		drop_count(drops, INTEL_DROP_PROCS_FULL, INTEL_DROP_MAX);
	return p;
}

/* The engine of an i915 request record (all request records start alike). */
static __always_inline struct intel_engine *engine_of(void *rec, __u32 *idx)
{
	struct trace_event_raw_i915_request *e = rec;
	struct intel_engine_key k = { .dev = BPF_CORE_READ(e, dev),
				      .class = BPF_CORE_READ(e, class),
				      .instance = BPF_CORE_READ(e, instance) };
	__u32 i = intern(&engine_ids, &k, &next_engine, INTEL_MAX_ENGINES);

	*idx = i;
	if (i >= INTEL_MAX_ENGINES) {
		drop_count(drops, INTEL_DROP_ENGINES_FULL, INTEL_DROP_MAX);
		return NULL;
	}
	return bpf_map_lookup_elem(&engines, &i);
}

static __always_inline struct intel_dev *dev_at(__u32 dev)
{
	return bpf_map_lookup_elem(&devs, &dev); /* NULL at INTEL_MAX_DEVS and above */
}

/* ---- i915 ---- */

static __always_inline int on_request_add(void *rec, __u64 id)
{
	struct intel_proc *p = proc_of(id);
	struct intel_engine *e;
	__u32 idx;

	e = engine_of(rec, &idx);
	if (e)
		__sync_fetch_and_add(&e->added, 1);
	if (p)
		__sync_fetch_and_add(&p->requests, 1);
	return 0;
}

static __always_inline int on_request_retire(void *rec)
{
	__u32 idx;
	struct intel_engine *e = engine_of(rec, &idx);

	if (e)
		__sync_fetch_and_add(&e->retired, 1);
	return 0;
}

static __always_inline int on_wait_begin(void *rec, __u64 id, __u64 now)
{
	struct intel_wait w = { .ns = now };

	engine_of(rec, &w.engine);
	if (bpf_map_update_elem(&waiting, &id, &w, BPF_ANY))
		drop_count(drops, INTEL_DROP_PENDING_FULL, INTEL_DROP_MAX);
	return 0;
}

static __always_inline int on_wait_end(__u64 id, __u64 now)
{
	struct intel_wait *w = bpf_map_lookup_elem(&waiting, &id);
	struct intel_engine *e;
	struct intel_proc *p;
	__u64 ns;
	__u32 idx;

	if (!w)
		return 0;
	ns = now > w->ns ? now - w->ns : 0;
	idx = w->engine;
	bpf_map_delete_elem(&waiting, &id);
	e = idx < INTEL_MAX_ENGINES ? bpf_map_lookup_elem(&engines, &idx) : NULL;
	if (e) {
		__sync_fetch_and_add(&e->waits, 1);
		__sync_fetch_and_add(&e->wait_ns, ns);
	}
	p = proc_of(id);
	if (p) {
		__sync_fetch_and_add(&p->waits, 1);
		__sync_fetch_and_add(&p->wait_ns, ns);
		hist_count(p->wait_hist, ns);
	}
	return 0;
}

static __always_inline int on_request_in(void *rec, __u64 now)
{
	struct trace_event_raw_i915_request_in *r = rec;
	struct intel_rq_key k = { .ctx = BPF_CORE_READ(r, ctx), .seqno = BPF_CORE_READ(r, seqno) };
	struct intel_engine *e;
	__u32 idx;

	e = engine_of(rec, &idx);
	if (e)
		__sync_fetch_and_add(&e->in, 1);
	if (bpf_map_update_elem(&in_flight, &k, &now, BPF_ANY))
		drop_count(drops, INTEL_DROP_PENDING_FULL, INTEL_DROP_MAX);
	return 0;
}

static __always_inline int on_request_out(void *rec, __u64 now)
{
	struct trace_event_raw_i915_request_out *r = rec;
	struct intel_rq_key k = { .ctx = BPF_CORE_READ(r, ctx), .seqno = BPF_CORE_READ(r, seqno) };
	__u64 *start = bpf_map_lookup_elem(&in_flight, &k), ns;
	struct intel_engine *e;
	__u32 idx;

	e = engine_of(rec, &idx);
	if (!e)
		return 0;
	__sync_fetch_and_add(&e->out, 1);
	if (!start)
		return 0;
	ns = now > *start ? now - *start : 0;
	bpf_map_delete_elem(&in_flight, &k);
	__sync_fetch_and_add(&e->exec_ns, ns);
	hist_count(e->exec_hist, ns);
	return 0;
}

static __always_inline int on_object_create(__u64 size, __u64 id)
{
	struct intel_proc *p = proc_of(id);

	if (p) {
		__sync_fetch_and_add(&p->objects, 1);
		__sync_fetch_and_add(&p->object_bytes, size);
	}
	return 0;
}

static __always_inline int on_bind(__u64 size, __u64 id, bool bind)
{
	struct intel_proc *p = proc_of(id);

	if (!p)
		return 0;
	if (bind) {
		__sync_fetch_and_add(&p->binds, 1);
		__sync_fetch_and_add(&p->bind_bytes, size);
	} else {
		__sync_fetch_and_add(&p->unbinds, 1);
	}
	return 0;
}

static __always_inline int on_fault(void *rec, __u64 id)
{
	struct trace_event_raw_i915_gem_object_fault *f = rec;
	__u32 kind = (BPF_CORE_READ(f, gtt) ? 2 : 0) | (BPF_CORE_READ(f, write) ? 1 : 0);
	struct intel_proc *p = proc_of(id);

	asm volatile("" : "+r"(kind)); /* keep the bound check for the verifier */
	if (p && kind < 4)
		__sync_fetch_and_add(&p->faults[kind], 1);
	return 0;
}

static __always_inline int on_rw(__u64 len, __u64 id, bool write)
{
	struct intel_proc *p = proc_of(id);

	if (!p)
		return 0;
	if (write) {
		__sync_fetch_and_add(&p->pwrites, 1);
		__sync_fetch_and_add(&p->pwrite_bytes, len);
	} else {
		__sync_fetch_and_add(&p->preads, 1);
		__sync_fetch_and_add(&p->pread_bytes, len);
	}
	return 0;
}

static __always_inline int on_shrink(void *rec)
{
	struct trace_event_raw_i915_gem_shrink *s = rec;
	struct intel_dev *d = dev_at((__u32)BPF_CORE_READ(s, dev));

	if (d) {
		__sync_fetch_and_add(&d->shrinks, 1);
		__sync_fetch_and_add(&d->shrink_pages, BPF_CORE_READ(s, target));
	}
	return 0;
}

static __always_inline int on_evict(void *rec)
{
	struct intel_dev *d = dev_at(BPF_CORE_READ((struct trace_event_raw_i915_gem_evict *)rec, dev));

	if (d)
		__sync_fetch_and_add(&d->evictions, 1);
	return 0;
}

/* ---- xe ---- */

static __always_inline struct xe_queue *queue_of(__u16 guc_id, __u8 gt_id)
{
	struct xe_queue_key k = { .guc_id = guc_id, .gt_id = gt_id };
	struct intel_zero *z = zero_value();
	struct xe_queue *q;

	if (!z)
		return NULL;
	q = bpf_map_lookup_elem(&queues, &k);
	if (q)
		return q;
	q = lookup_or_init(&queues, &k, &z->queue);
	if (!q)
		drop_count(drops, INTEL_DROP_QUEUES_FULL, INTEL_DROP_MAX);
	return q;
}

enum xe_job_event { XE_JOB_CREATE, XE_JOB_EXEC, XE_JOB_RUN, XE_JOB_FREE, XE_JOB_TIMEDOUT, XE_JOB_ERROR };

static __always_inline int on_xe_job(void *rec, __u64 id, __u64 now, enum xe_job_event ev)
{
	struct xe_queue *q;
	__u64 fence, *start;
	__u16 guc_id;
	__u8 gt_id = 0;

	if (bpf_core_field_exists(((struct trace_event_raw_xe_sched_job *)0)->__data_loc_dev)) {
		struct trace_event_raw_xe_sched_job *j = rec;

		guc_id = BPF_CORE_READ(j, guc_id);
		fence = (__u64)BPF_CORE_READ(j, fence);
		if (bpf_core_field_exists(j->gt_id))
			gt_id = BPF_CORE_READ(j, gt_id);
	} else {
		struct trace_event_raw_xe_sched_job___v68 *j = rec;

		guc_id = BPF_CORE_READ(j, guc_id);
		fence = BPF_CORE_READ(j, fence);
	}
	q = queue_of(guc_id, gt_id);
	if (!q)
		return 0;
	switch (ev) {
	case XE_JOB_CREATE:
		__sync_fetch_and_add(&q->created, 1);
		break;
	case XE_JOB_EXEC: {
		struct intel_proc *p = proc_of(id);

		__sync_fetch_and_add(&q->pushed, 1);
		if (p)
			__sync_fetch_and_add(&p->xe_jobs, 1);
		if (fence && bpf_map_update_elem(&pushed, &fence, &now, BPF_ANY))
			drop_count(drops, INTEL_DROP_PENDING_FULL, INTEL_DROP_MAX);
		break;
	}
	case XE_JOB_RUN:
		__sync_fetch_and_add(&q->ran, 1);
		start = fence ? bpf_map_lookup_elem(&pushed, &fence) : NULL;
		if (start) {
			__u64 ns = now > *start ? now - *start : 0;

			bpf_map_delete_elem(&pushed, &fence);
			__sync_fetch_and_add(&q->latency_ns, ns);
			hist_count(q->latency_hist, ns);
		}
		break;
	case XE_JOB_FREE:
		__sync_fetch_and_add(&q->freed, 1);
		if (fence)
			bpf_map_delete_elem(&pushed, &fence); /* freed without a run */
		break;
	case XE_JOB_TIMEDOUT:
		__sync_fetch_and_add(&q->timedout, 1);
		break;
	case XE_JOB_ERROR:
		__sync_fetch_and_add(&q->errors, 1);
		break;
	}
	return 0;
}

static __always_inline int on_xe_queue(void *rec)
{
	struct trace_event_raw_xe_exec_queue *e = rec;
	struct xe_queue *q = queue_of(BPF_CORE_READ(e, guc_id), BPF_CORE_READ(e, gt_id));

	if (q)
		q->class1 = (__u32)BPF_CORE_READ(e, class) + 1;
	return 0;
}

static __always_inline int on_xe_bo_move(void *rec)
{
	struct intel_zero *z = zero_value();
	struct xe_move_key k = {};
	struct xe_move *m;
	__u64 size;

	if (bpf_core_field_exists(((struct trace_event_raw_xe_bo_move *)0)->__data_loc_new_placement_name)) {
		struct trace_event_raw_xe_bo_move *e = rec;
		__u32 to = BPF_CORE_READ(e, __data_loc_new_placement_name);
		__u32 from = BPF_CORE_READ(e, __data_loc_old_placement_name);

		bpf_probe_read_kernel_str(k.to, sizeof(k.to), rec + (to & 0xffff));
		bpf_probe_read_kernel_str(k.from, sizeof(k.from), rec + (from & 0xffff));
		size = BPF_CORE_READ(e, size);
	} else { /* 6.8: the memory type's number, as "#N" */
		struct trace_event_raw_xe_bo_move___v68 *e = rec;
		__u32 to = BPF_CORE_READ(e, new_placement), from = BPF_CORE_READ(e, old_placement);

		k.to[0] = k.from[0] = '#';
		k.to[1] = '0' + (to < 10 ? to : 9);
		k.from[1] = '0' + (from < 10 ? from : 9);
		size = BPF_CORE_READ(e, size);
	}
	m = z ? lookup_or_init(&moves, &k, &z->move) : NULL;
	if (!m) {
		drop_count(drops, INTEL_DROP_MOVES_FULL, INTEL_DROP_MAX);
		return 0;
	}
	__sync_fetch_and_add(&m->count, 1);
	__sync_fetch_and_add(&m->bytes, size);
	return 0;
}

static __always_inline __u64 vma_bytes(void *rec)
{
	struct trace_event_raw_xe_vma *v = rec;
	__u64 start = BPF_CORE_READ(v, start), end = BPF_CORE_READ(v, end);

	return end >= start ? end - start + 1 : 0;
}

/* ---- programs ---- */

#define NOW bpf_ktime_get_ns()
#define ID bpf_get_current_pid_tgid()

SEC("tp/i915/i915_request_add")
int i915_request_add(void *ctx) { return on_request_add(ctx, ID); }
SEC("tp/i915/i915_request_retire")
int i915_request_retire(void *ctx) { return on_request_retire(ctx); }
SEC("tp/i915/i915_request_wait_begin")
int i915_request_wait_begin(void *ctx) { return on_wait_begin(ctx, ID, NOW); }
SEC("tp/i915/i915_request_wait_end")
int i915_request_wait_end(void *ctx) { return on_wait_end(ID, NOW); }
SEC("tp/i915/i915_request_in")
int i915_request_in(void *ctx) { return on_request_in(ctx, NOW); }
SEC("tp/i915/i915_request_out")
int i915_request_out(void *ctx) { return on_request_out(ctx, NOW); }
SEC("tp/i915/i915_gem_object_create")
int i915_gem_object_create(void *ctx)
{
	return on_object_create(BPF_CORE_READ((struct trace_event_raw_i915_gem_object_create *)ctx, size), ID);
}
SEC("tp/i915/i915_vma_bind")
int i915_vma_bind(void *ctx)
{
	return on_bind(BPF_CORE_READ((struct trace_event_raw_i915_vma_bind *)ctx, size), ID, true);
}
SEC("tp/i915/i915_vma_unbind")
int i915_vma_unbind(void *ctx)
{
	return on_bind(BPF_CORE_READ((struct trace_event_raw_i915_vma_unbind *)ctx, size), ID, false);
}
SEC("tp/i915/i915_gem_object_fault")
int i915_gem_object_fault(void *ctx) { return on_fault(ctx, ID); }
SEC("tp/i915/i915_gem_object_pread")
int i915_gem_object_pread(void *ctx)
{
	return on_rw(BPF_CORE_READ((struct trace_event_raw_i915_gem_object_pread *)ctx, len), ID, false);
}
SEC("tp/i915/i915_gem_object_pwrite")
int i915_gem_object_pwrite(void *ctx)
{
	return on_rw(BPF_CORE_READ((struct trace_event_raw_i915_gem_object_pwrite *)ctx, len), ID, true);
}
SEC("tp/i915/i915_gem_shrink")
int i915_gem_shrink(void *ctx) { return on_shrink(ctx); }
SEC("tp/i915/i915_gem_evict")
int i915_gem_evict(void *ctx) { return on_evict(ctx); }

SEC("tp/xe/xe_sched_job_create")
int xe_sched_job_create(void *ctx) { return on_xe_job(ctx, ID, NOW, XE_JOB_CREATE); }
SEC("tp/xe/xe_sched_job_exec")
int xe_sched_job_exec(void *ctx) { return on_xe_job(ctx, ID, NOW, XE_JOB_EXEC); }
SEC("tp/xe/xe_sched_job_run")
int xe_sched_job_run(void *ctx) { return on_xe_job(ctx, ID, NOW, XE_JOB_RUN); }
SEC("tp/xe/xe_sched_job_free")
int xe_sched_job_free(void *ctx) { return on_xe_job(ctx, ID, NOW, XE_JOB_FREE); }
SEC("tp/xe/xe_sched_job_timedout")
int xe_sched_job_timedout(void *ctx) { return on_xe_job(ctx, ID, NOW, XE_JOB_TIMEDOUT); }
SEC("tp/xe/xe_sched_job_set_error")
int xe_sched_job_set_error(void *ctx) { return on_xe_job(ctx, ID, NOW, XE_JOB_ERROR); }
SEC("tp/xe/xe_exec_queue_create")
int xe_exec_queue_create(void *ctx) { return on_xe_queue(ctx); }
SEC("tp/xe/xe_exec_queue_register")
int xe_exec_queue_register(void *ctx) { return on_xe_queue(ctx); }
SEC("tp/xe/xe_bo_move")
int xe_bo_move(void *ctx) { return on_xe_bo_move(ctx); }
SEC("tp/xe/xe_bo_create")
int xe_bo_create(void *ctx)
{
	return on_object_create(BPF_CORE_READ((struct trace_event_raw_xe_bo *)ctx, size), ID);
}
SEC("tp/xe/xe_vma_bind")
int xe_vma_bind(void *ctx) { return on_bind(vma_bytes(ctx), ID, true); }
SEC("tp/xe/xe_vma_unbind")
int xe_vma_unbind(void *ctx) { return on_bind(vma_bytes(ctx), ID, false); }
