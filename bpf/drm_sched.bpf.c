// SPDX-License-Identifier: GPL-2.0
/*
 * DRM GPU scheduler: per-ring and per-process job accounting, aggregated in maps.
 *
 * Both tracepoint generations are here; user space turns off (autoload=false)
 * the programs whose tracepoints this kernel lacks:
 *   <= 6.16: drm_sched_job, drm_run_job, drm_sched_process_job, drm_sched_job_wait_dep
 *   >= 6.17: drm_sched_job_queue, _run, _done, _add_dep, _unschedulable
 * A job is followed from queue to done in the bounded LRU table `jobs`.
 *
 * The done events fire in hard-IRQ context (the GPU's fence interrupt). A `tp/`
 * program there is skipped whenever it interrupts another of our programs on that
 * CPU (one per-CPU guard for all of them), which loses completions under load;
 * `raw_tp/` programs are guarded per program, so the done handlers are raw_tp and
 * read the tracepoint's argument (struct drm_sched_fence *) with CO-RE.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "sched_decode.h"
#include "common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Kernel objects read to name the device of a <= 6.16 job (entity->rq->sched->dev). */
struct kobject {
	const char *name;
} __core;
struct device {
	struct kobject kobj;
} __core;
struct drm_gpu_scheduler {
	struct device *dev;
} __core;
struct drm_sched_rq {
	struct drm_gpu_scheduler *sched;
} __core;
struct drm_sched_entity {
	struct drm_sched_rq *rq;
} __core;
struct dma_fence {
	__u64 context;
	__u64 seqno;
} __core;
struct drm_sched_fence {
	struct dma_fence finished;
} __core;
struct task_struct {
	struct task_struct *group_leader;
	char comm[TASK_COMM_LEN];
} __core;

__u64 tick_gen; /* bumped by user space after each read: scopes the max_* fields */
__u64 drops[SCHED_DROP_MAX];
__u32 next_ring; /* next free index into rings */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_RINGS);
	__type(key, struct ring_key);
	__type(value, __u32);
} ring_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHED_MAX_RINGS);
	__type(key, __u32);
	__type(value, struct ring_stats);
} rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_PROCS);
	__type(key, struct proc_key);
	__type(value, struct proc_stats);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, SCHED_MAX_JOBS);
	__type(key, struct job_key);
	__type(value, struct job_info);
} jobs SEC(".maps");

/* <= 6.16 wait_dep records name the ring but not its device: remember it per name. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_RINGS);
	__type(key, char[RING_NAME_LEN]);
	__type(value, char[DEV_NAME_LEN]);
} ring_dev SEC(".maps");

static __always_inline void drop(enum sched_drop why)
{
	drop_count(drops, why, SCHED_DROP_MAX);
}

static __always_inline void dev_from_entity(__u64 entity, char *dev)
{
	const struct drm_sched_entity *ent = (const void *)(unsigned long)entity;
	const char *name;

	if (!bpf_core_type_exists(struct drm_sched_entity) ||
	    !bpf_core_field_exists(struct drm_gpu_scheduler, dev) || !entity)
		return;
	name = BPF_CORE_READ(ent, rq, sched, dev, kobj.name);
	if (name)
		bpf_probe_read_kernel_str(dev, DEV_NAME_LEN, name);
}

/* The index of a ring, assigned at its first sight; RING_NONE when the table is full. */
static __always_inline __u32 ring_intern(const struct ring_key *ring)
{
	bool fresh = !bpf_map_lookup_elem(&ring_ids, ring);
	__u32 id = intern(&ring_ids, ring, &next_ring, SCHED_MAX_RINGS);

	if (id >= SCHED_MAX_RINGS) {
		drop(SCHED_DROP_RING_FULL);
		return RING_NONE;
	}
	if (fresh && ring->dev[0])
		bpf_map_update_elem(&ring_dev, ring->name, ring->dev, BPF_ANY);
	return id;
}

static __always_inline struct ring_stats *ring_at(__u32 id)
{
	return id == RING_NONE ? NULL : bpf_map_lookup_elem(&rings, &id);
}

static __always_inline struct proc_stats *proc_get(__u32 tgid, __u32 ring, bool create)
{
	struct proc_key key = { .tgid = tgid, .ring = ring };
	struct proc_stats *ps = bpf_map_lookup_elem(&procs, &key);
	struct proc_stats init = {};
	struct task_struct *task;

	if (ps || !create)
		return ps;
	task = (struct task_struct *)bpf_get_current_task();
	BPF_CORE_READ_STR_INTO(&init.comm, task, group_leader, comm);
	bpf_map_update_elem(&procs, &key, &init, BPF_NOEXIST);
	ps = bpf_map_lookup_elem(&procs, &key);
	if (!ps)
		drop(SCHED_DROP_PROC_FULL);
	return ps;
}

/* Reset the interval maxima when user space has moved to a new interval. */
static __always_inline void ring_interval(struct ring_stats *rs)
{
	__u64 gen = tick_gen;

	if (rs->gen != gen) {
		rs->gen = gen;
		rs->max_queue_depth = 0;
		rs->max_in_flight = 0;
		rs->max_wait_ns = 0;
		rs->max_exec_ns = 0;
	}
}

static __always_inline void note_queue_depth(struct ring_stats *rs)
{
	__s64 depth = (__s64)(rs->queued - rs->started);

	ring_interval(rs);
	if (depth > (__s64)rs->max_queue_depth)
		rs->max_queue_depth = (__u32)depth;
}

static __always_inline void on_queue(struct sched_job_ev *ev)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct job_info info = {};
	struct job_info *pending;
	struct ring_stats *rs;
	struct proc_stats *ps;
	__u32 ring;

	if (!ev->ring.dev[0])
		dev_from_entity(ev->entity, ev->ring.dev);
	ring = ring_intern(&ev->ring);
	rs = ring_at(ring);
	if (!rs)
		return;
	__sync_fetch_and_add(&rs->queued, 1);
	note_queue_depth(rs);

	pending = bpf_map_lookup_elem(&jobs, &ev->key);
	if (pending && pending->pending_deps)
		__sync_fetch_and_add(&rs->deps, pending->pending_deps);
	info.ring = ring;
	info.queue_ns = now;
	info.tgid = tgid;
	if (bpf_map_update_elem(&jobs, &ev->key, &info, BPF_ANY))
		drop(SCHED_DROP_JOB_FULL);

	ps = proc_get(tgid, ring, true);
	if (ps)
		__sync_fetch_and_add(&ps->queued, 1);
}

static __always_inline void on_run(struct sched_job_ev *ev)
{
	__u64 now = bpf_ktime_get_ns();
	struct job_info *info = bpf_map_lookup_elem(&jobs, &ev->key);
	struct ring_stats *rs;
	__u64 in_flight;

	if (info && info->queue_ns) {
		__u64 wait = now - info->queue_ns;
		struct proc_stats *ps;

		rs = ring_at(info->ring);
		if (!rs)
			return;
		hist_count(rs->hist_wait, wait);
		__sync_fetch_and_add(&rs->wait_ns, wait);
		ring_interval(rs);
		if (wait > rs->max_wait_ns)
			rs->max_wait_ns = wait;
		ps = proc_get(info->tgid, info->ring, false);
		if (ps)
			__sync_fetch_and_add(&ps->wait_ns, wait);
		info->run_ns = now;
	} else {
		struct job_info fresh = {};
		__u64 started;

		if (!ev->ring.dev[0])
			dev_from_entity(ev->entity, ev->ring.dev);
		fresh.ring = ring_intern(&ev->ring);
		rs = ring_at(fresh.ring);
		if (!rs)
			return;
		/*
		 * No record: the job was queued before we attached, or its record was
		 * evicted (more jobs waiting than the table holds). A job whose queue we
		 * counted is among queued - started until it starts, so queued > started
		 * then: it must not be counted again. Read started first (an atomic,
		 * a full barrier) and queued after: queued only grows, so the test never
		 * sees queued <= started for such a job. Otherwise the job entered before
		 * us: it is counted as queued now.
		 */
		started = __sync_fetch_and_add(&rs->started, 0);
		if (rs->queued > started) {
			drop(SCHED_DROP_JOB_EVICTED);
		} else {
			drop(SCHED_DROP_RUN_UNMATCHED);
			__sync_fetch_and_add(&rs->queued, 1);
		}
		fresh.run_ns = now;
		if (bpf_map_update_elem(&jobs, &ev->key, &fresh, BPF_ANY))
			drop(SCHED_DROP_JOB_FULL);
	}
	__sync_fetch_and_add(&rs->started, 1);
	in_flight = rs->started - rs->completed;
	if (in_flight == 1)
		rs->busy_since_ns = now;
	ring_interval(rs);
	if ((__s64)in_flight > (__s64)rs->max_in_flight)
		rs->max_in_flight = (__u32)in_flight;
}

static __always_inline void on_done(struct job_key *key)
{
	__u64 now = bpf_ktime_get_ns();
	struct job_info *info = bpf_map_lookup_elem(&jobs, key);
	struct ring_stats *rs;
	struct proc_stats *ps;
	__u64 exec, since;

	if (!info || !info->run_ns) {
		drop(SCHED_DROP_DONE_UNMATCHED);
		if (info)
			bpf_map_delete_elem(&jobs, key);
		return;
	}
	exec = now - info->run_ns;
	rs = ring_at(info->ring);
	if (rs) {
		hist_count(rs->hist_exec, exec);
		__sync_fetch_and_add(&rs->exec_ns, exec);
		__sync_fetch_and_add(&rs->completed, 1);
		ring_interval(rs);
		if (exec > rs->max_exec_ns)
			rs->max_exec_ns = exec;
		since = rs->busy_since_ns;
		if (rs->started == rs->completed && since) {
			rs->busy_since_ns = 0;
			__sync_fetch_and_add(&rs->busy_ns, now - since);
		}
	}
	if (info->queue_ns) {
		ps = proc_get(info->tgid, info->ring, false);
		if (ps) {
			__sync_fetch_and_add(&ps->completed, 1);
			__sync_fetch_and_add(&ps->exec_ns, exec);
		}
	}
	bpf_map_delete_elem(&jobs, key);
}

static __always_inline void count_dep_wait_at(__u32 ring)
{
	struct ring_stats *rs = ring_at(ring);

	if (rs)
		__sync_fetch_and_add(&rs->dep_waits, 1);
}

static __always_inline void count_dep_wait(struct ring_key *ring)
{
	char *dev;

	if (!ring->dev[0]) {
		dev = bpf_map_lookup_elem(&ring_dev, ring->name);
		if (dev)
			bpf_probe_read_kernel_str(ring->dev, DEV_NAME_LEN, dev);
	}
	count_dep_wait_at(ring_intern(ring));
}

/* ---- >= 6.17 ---- */

SEC("tp/gpu_scheduler/drm_sched_job_queue")
int sched_job_queue(void *ctx)
{
	struct sched_job_ev ev = {};

	sched_decode_job_v617(ctx, &ev);
	on_queue(&ev);
	return 0;
}

SEC("tp/gpu_scheduler/drm_sched_job_run")
int sched_job_run(void *ctx)
{
	struct sched_job_ev ev = {};

	sched_decode_job_v617(ctx, &ev);
	on_run(&ev);
	return 0;
}

SEC("raw_tp/drm_sched_job_done")
int BPF_PROG(sched_job_done, struct drm_sched_fence *fence)
{
	struct job_key key = {
		.a = BPF_CORE_READ(fence, finished.context),
		.b = BPF_CORE_READ(fence, finished.seqno),
	};

	on_done(&key);
	return 0;
}

SEC("tp/gpu_scheduler/drm_sched_job_add_dep")
int sched_job_add_dep(void *ctx)
{
	struct job_info fresh = {};
	struct job_info *info;
	struct ring_stats *rs;
	struct job_key key;

	sched_decode_dep_v617(ctx, &key);
	info = bpf_map_lookup_elem(&jobs, &key);
	if (!info) {
		/* add_dep precedes the queue event: park the count on the job. */
		fresh.ring = RING_NONE;
		fresh.pending_deps = 1;
		bpf_map_update_elem(&jobs, &key, &fresh, BPF_NOEXIST);
		return 0;
	}
	if (!info->queue_ns && !info->run_ns) {
		__sync_fetch_and_add(&info->pending_deps, 1);
		return 0;
	}
	rs = ring_at(info->ring);
	if (rs)
		__sync_fetch_and_add(&rs->deps, 1);
	return 0;
}

SEC("tp/gpu_scheduler/drm_sched_job_unschedulable")
int sched_job_unschedulable(void *ctx)
{
	struct job_info *info;
	struct job_key key;

	sched_decode_dep_v617(ctx, &key);
	info = bpf_map_lookup_elem(&jobs, &key);
	if (info && info->ring != RING_NONE)
		count_dep_wait_at(info->ring);
	return 0;
}

/* ---- <= 6.16 (and 5.15, whose ring name is a pointer) ---- */

static __always_inline void decode_job_old(void *ctx, struct sched_job_ev *ev)
{
	if (bpf_core_field_exists(struct trace_event_raw_drm_sched_job___v61, __data_loc_name))
		sched_decode_job_v61(ctx, ev);
	else
		sched_decode_job_v515(ctx, ev);
}

SEC("tp/gpu_scheduler/drm_sched_job")
int sched_job_queue_old(void *ctx)
{
	struct sched_job_ev ev = {};

	decode_job_old(ctx, &ev);
	on_queue(&ev);
	return 0;
}

SEC("tp/gpu_scheduler/drm_run_job")
int sched_job_run_old(void *ctx)
{
	struct sched_job_ev ev = {};

	decode_job_old(ctx, &ev);
	on_run(&ev);
	return 0;
}

/* The queue and run records carry &s_fence->finished: the same address identifies the job. */
SEC("raw_tp/drm_sched_process_job")
int BPF_PROG(sched_job_done_old, struct drm_sched_fence *fence)
{
	struct job_key key = {
		.a = (__u64)(unsigned long)__builtin_preserve_access_index(&fence->finished),
	};

	on_done(&key);
	return 0;
}

SEC("tp/gpu_scheduler/drm_sched_job_wait_dep")
int sched_job_wait_dep_old(void *ctx)
{
	struct ring_key ring = {};

	if (bpf_core_field_exists(struct trace_event_raw_drm_sched_job_wait_dep, __data_loc_name))
		sched_decode_wait_dep_v61(ctx, &ring);
	else
		sched_decode_wait_dep_v515(ctx, &ring);
	count_dep_wait(&ring);
	return 0;
}
