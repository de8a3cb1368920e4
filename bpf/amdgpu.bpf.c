// SPDX-License-Identifier: GPL-2.0
/*
 * amdgpu: what the driver's own tracepoints say, aggregated.
 *  - amdgpu_cs_ioctl -> amdgpu_sched_run_job: submissions and indirect buffers
 *    per ring and per (process, ring); the time from submission to run per
 *    ring, matched by the job's finished fence (context, seqno);
 *  - amdgpu_bo_create: buffer objects created per process by memory type;
 *  - amdgpu_bo_move: migrations between memory types (count, bytes);
 *  - amdgpu_iv: interrupt vectors per (client, source, PASID); PASIDs are
 *    tied to the process that opened the device (amdgpu_pasid_allocated);
 *  - amdgpu_vm_flush per ring; amdgpu_vm_bo_map / _unmap per process.
 * Record layouts (reference/GPU_TRACEPOINTS.md 4): cs_ioctl and sched_run_job
 * lost sched_job_id and widened context and seqno to u64 in 6.17; the flavour is
 * chosen by whether sched_job_id exists (CO-RE against amdgpu's module BTF).
 * Handlers take the record, the task and the time as arguments so that the
 * decoding tests run them on synthetic records (tests/bpf/decode.c).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "amdgpu.h"
#include "common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 drops[AMD_DROP_MAX];
__u32 next_ring;
struct amd_move moves[AMD_DOMAINS][AMD_DOMAINS]; /* [from][to] */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AMD_MAX_RINGS);
	__type(key, struct amd_ring_key);
	__type(value, __u32);
} ring_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, AMD_MAX_RINGS);
	__type(key, __u32);
	__type(value, struct amd_ring);
} rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AMD_MAX_SUBMITTERS);
	__type(key, struct amd_submitter_key);
	__type(value, struct amd_submitter);
} submitters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AMD_MAX_PROCS);
	__type(key, __u32);
	__type(value, struct amd_proc);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AMD_MAX_PENDING);
	__type(key, struct amd_job_key);
	__type(value, struct amd_job);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AMD_MAX_IV);
	__type(key, struct amd_iv_key);
	__type(value, struct amd_iv);
} ivs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AMD_MAX_PASIDS);
	__type(key, __u32);
	__type(value, __u32); /* tgid that opened the device */
} pasids SEC(".maps");

/* Zeroed values to create entries from (never written). */
struct amd_zero {
	struct amd_submitter submitter;
	struct amd_proc proc;
	struct amd_iv iv;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct amd_zero);
} zero SEC(".maps");

struct trace_entry {
	unsigned short type;
} __core;

/* <= 6.16 */
struct trace_event_raw_amdgpu_cs_ioctl {
	__u64 sched_job_id;
	unsigned int context;
	unsigned int seqno;
	__u32 __data_loc_ring;
	__u32 num_ibs;
} __core;
struct trace_event_raw_amdgpu_sched_run_job {
	__u64 sched_job_id;
	unsigned int context;
	unsigned int seqno;
	__u32 __data_loc_ring;
	__u32 num_ibs;
} __core;
/* >= 6.17 */
struct trace_event_raw_amdgpu_cs_ioctl___v617 {
	__u64 context;
	__u64 seqno;
	__u32 __data_loc_ring;
	__u32 num_ibs;
} __core;
struct trace_event_raw_amdgpu_sched_run_job___v617 {
	__u64 context;
	__u64 seqno;
	__u32 __data_loc_ring;
} __core;

struct trace_event_raw_amdgpu_bo_create {
	__u32 pages;
	__u32 type;
} __core;
struct trace_event_raw_amdgpu_bo_move {
	__u64 bo_size;
	__u32 new_placement;
	__u32 old_placement;
} __core;
struct trace_event_raw_amdgpu_iv {
	unsigned int client_id;
	unsigned int src_id;
	unsigned int ring_id;
	unsigned int vmid;
	unsigned int pasid;
} __core;
struct trace_event_raw_amdgpu_vm_flush {
	__u32 __data_loc_ring;
} __core;
struct trace_event_raw_amdgpu_vm_bo_map {
	long start;
	long last;
} __core;
struct trace_event_raw_amdgpu_vm_bo_unmap {
	long start;
	long last;
} __core;
struct trace_event_raw_amdgpu_pasid {
	__u32 pasid;
} __core;

#define AMD_GPU_PAGE 4096 /* AMDGPU_GPU_PAGE_SIZE: the unit of a mapping's start and last */

static __always_inline void *zero_value(void)
{
	__u32 z = 0;

	return bpf_map_lookup_elem(&zero, &z);
}

/* The index of the ring whose name the record's __data_loc at loc holds; AMD_MAX_RINGS when full. */
static __always_inline __u32 ring_index(void *rec, __u32 loc)
{
	struct amd_ring_key key = {};

	bpf_probe_read_kernel_str(key.name, sizeof(key.name), rec + (loc & 0xffff));
	return intern(&ring_ids, &key, &next_ring, AMD_MAX_RINGS);
}

static __always_inline struct amd_ring *ring_at(__u32 idx)
{
	if (idx >= AMD_MAX_RINGS) {
		drop_count(drops, AMD_DROP_RINGS_FULL, AMD_DROP_MAX);
		return NULL;
	}
	return bpf_map_lookup_elem(&rings, &idx);
}

static __always_inline struct amd_proc *proc_of(__u32 tgid)
{
	struct amd_zero *z = zero_value();
	struct amd_proc *p = z ? lookup_or_init(&procs, &tgid, &z->proc) : NULL;

	if (!p)
		drop_count(drops, AMD_DROP_PROCS_FULL, AMD_DROP_MAX);
	return p;
}

static __always_inline int on_cs_ioctl(void *rec, __u64 id, __u64 now)
{
	struct amd_submitter_key sk = { .tgid = id >> 32 };
	struct amd_job job = { .ns = now };
	struct amd_job_key jk = {};
	struct amd_submitter *s;
	struct amd_zero *z;
	struct amd_ring *r;
	__u32 loc, ibs;

	if (bpf_core_field_exists(((struct trace_event_raw_amdgpu_cs_ioctl *)0)->sched_job_id)) {
		struct trace_event_raw_amdgpu_cs_ioctl *e = rec;

		jk.context = BPF_CORE_READ(e, context);
		jk.seqno = BPF_CORE_READ(e, seqno);
		loc = BPF_CORE_READ(e, __data_loc_ring);
		ibs = BPF_CORE_READ(e, num_ibs);
	} else {
		struct trace_event_raw_amdgpu_cs_ioctl___v617 *e = rec;

		jk.context = BPF_CORE_READ(e, context);
		jk.seqno = BPF_CORE_READ(e, seqno);
		loc = BPF_CORE_READ(e, __data_loc_ring);
		ibs = BPF_CORE_READ(e, num_ibs);
	}
	job.ring = sk.ring = ring_index(rec, loc);
	r = ring_at(job.ring);
	if (!r)
		return 0;
	__sync_fetch_and_add(&r->submissions, 1);
	__sync_fetch_and_add(&r->ibs, ibs);
	z = zero_value();
	s = z ? lookup_or_init(&submitters, &sk, &z->submitter) : NULL;
	if (s) {
		__sync_fetch_and_add(&s->submissions, 1);
		__sync_fetch_and_add(&s->ibs, ibs);
	} else {
		drop_count(drops, AMD_DROP_PROCS_FULL, AMD_DROP_MAX);
	}
	if (bpf_map_update_elem(&pending, &jk, &job, BPF_ANY))
		drop_count(drops, AMD_DROP_PENDING_FULL, AMD_DROP_MAX);
	return 0;
}

static __always_inline int on_run_job(void *rec, __u64 now)
{
	struct amd_job_key jk = {};
	struct amd_job *job;
	struct amd_ring *r;
	__u32 loc;

	if (bpf_core_field_exists(((struct trace_event_raw_amdgpu_sched_run_job *)0)->sched_job_id)) {
		struct trace_event_raw_amdgpu_sched_run_job *e = rec;

		jk.context = BPF_CORE_READ(e, context);
		jk.seqno = BPF_CORE_READ(e, seqno);
		loc = BPF_CORE_READ(e, __data_loc_ring);
	} else {
		struct trace_event_raw_amdgpu_sched_run_job___v617 *e = rec;

		jk.context = BPF_CORE_READ(e, context);
		jk.seqno = BPF_CORE_READ(e, seqno);
		loc = BPF_CORE_READ(e, __data_loc_ring);
	}
	job = bpf_map_lookup_elem(&pending, &jk);
	r = ring_at(job ? job->ring : ring_index(rec, loc));
	if (r) {
		__sync_fetch_and_add(&r->runs, 1);
		if (job) {
			__u64 ns = now > job->ns ? now - job->ns : 0;

			__sync_fetch_and_add(&r->latency_ns, ns);
			hist_count(r->latency_hist, ns);
		} else {
			__sync_fetch_and_add(&r->kernel_runs, 1);
		}
	}
	if (job)
		bpf_map_delete_elem(&pending, &jk);
	return 0;
}

static __always_inline int on_bo_create(void *rec, __u64 id)
{
	struct trace_event_raw_amdgpu_bo_create *e = rec;
	__u32 type = BPF_CORE_READ(e, type), d = type < AMD_DOMAINS ? type : AMD_DOMAINS - 1;
	__u64 bytes = (__u64)BPF_CORE_READ(e, pages) * 4096;
	struct amd_proc *p = proc_of(id >> 32);

	if (!p || d >= AMD_DOMAINS)
		return 0;
	__sync_fetch_and_add(&p->created[d], 1);
	__sync_fetch_and_add(&p->created_bytes[d], bytes);
	return 0;
}

static __always_inline int on_bo_move(void *rec)
{
	struct trace_event_raw_amdgpu_bo_move *e = rec;
	__u32 to = BPF_CORE_READ(e, new_placement), from = BPF_CORE_READ(e, old_placement);
	struct amd_move *m;

	to = to < AMD_DOMAINS ? to : AMD_DOMAINS - 1;
	from = from < AMD_DOMAINS ? from : AMD_DOMAINS - 1;
	if (to >= AMD_DOMAINS || from >= AMD_DOMAINS)
		return 0;
	m = &moves[from][to];
	__sync_fetch_and_add(&m->count, 1);
	__sync_fetch_and_add(&m->bytes, BPF_CORE_READ(e, bo_size));
	return 0;
}

static __always_inline int on_iv(void *rec)
{
	struct trace_event_raw_amdgpu_iv *e = rec;
	struct amd_iv_key k = { .client_id = BPF_CORE_READ(e, client_id),
				.src_id = BPF_CORE_READ(e, src_id),
				.pasid = BPF_CORE_READ(e, pasid) };
	struct amd_zero *z = zero_value();
	struct amd_iv *v = z ? lookup_or_init(&ivs, &k, &z->iv) : NULL;

	if (!v) {
		drop_count(drops, AMD_DROP_IV_FULL, AMD_DROP_MAX);
		return 0;
	}
	__sync_fetch_and_add(&v->count, 1);
	v->vmid = BPF_CORE_READ(e, vmid);
	v->ring_id = BPF_CORE_READ(e, ring_id);
	return 0;
}

static __always_inline int on_vm_flush(void *rec)
{
	struct trace_event_raw_amdgpu_vm_flush *e = rec;
	struct amd_ring *r = ring_at(ring_index(rec, BPF_CORE_READ(e, __data_loc_ring)));

	if (r)
		__sync_fetch_and_add(&r->flushes, 1);
	return 0;
}

static __always_inline int on_vm_map(void *rec, __u64 id, bool map)
{
	struct trace_event_raw_amdgpu_vm_bo_map *e = rec;
	struct amd_proc *p = proc_of(id >> 32);
	long start = BPF_CORE_READ(e, start), last = BPF_CORE_READ(e, last);

	if (!p)
		return 0;
	if (map) {
		__sync_fetch_and_add(&p->maps, 1);
		if (last >= start)
			__sync_fetch_and_add(&p->mapped_bytes, (__u64)(last - start + 1) * AMD_GPU_PAGE);
	} else {
		__sync_fetch_and_add(&p->unmaps, 1);
	}
	return 0;
}

static __always_inline int on_pasid(void *rec, __u64 id, bool allocated)
{
	__u32 pasid = BPF_CORE_READ((struct trace_event_raw_amdgpu_pasid *)rec, pasid);
	__u32 tgid = id >> 32;

	if (allocated)
		bpf_map_update_elem(&pasids, &pasid, &tgid, BPF_ANY);
	else
		bpf_map_delete_elem(&pasids, &pasid);
	return 0;
}

SEC("tp/amdgpu/amdgpu_cs_ioctl")
int cs_ioctl(void *ctx)
{
	return on_cs_ioctl(ctx, bpf_get_current_pid_tgid(), bpf_ktime_get_ns());
}

SEC("tp/amdgpu/amdgpu_sched_run_job")
int sched_run_job(void *ctx)
{
	return on_run_job(ctx, bpf_ktime_get_ns());
}

SEC("tp/amdgpu/amdgpu_bo_create")
int bo_create(void *ctx)
{
	return on_bo_create(ctx, bpf_get_current_pid_tgid());
}

SEC("tp/amdgpu/amdgpu_bo_move")
int bo_move(void *ctx)
{
	return on_bo_move(ctx);
}

SEC("tp/amdgpu/amdgpu_iv")
int iv(void *ctx)
{
	return on_iv(ctx);
}

SEC("tp/amdgpu/amdgpu_vm_flush")
int vm_flush(void *ctx)
{
	return on_vm_flush(ctx);
}

SEC("tp/amdgpu/amdgpu_vm_bo_map")
int vm_bo_map(void *ctx)
{
	return on_vm_map(ctx, bpf_get_current_pid_tgid(), true);
}

SEC("tp/amdgpu/amdgpu_vm_bo_unmap")
int vm_bo_unmap(void *ctx)
{
	return on_vm_map(ctx, bpf_get_current_pid_tgid(), false);
}

SEC("tp/amdgpu/amdgpu_pasid_allocated")
int pasid_allocated(void *ctx)
{
	return on_pasid(ctx, bpf_get_current_pid_tgid(), true);
}

SEC("tp/amdgpu/amdgpu_pasid_freed")
int pasid_freed(void *ctx)
{
	return on_pasid(ctx, bpf_get_current_pid_tgid(), false);
}
