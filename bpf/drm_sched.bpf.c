// SPDX-License-Identifier: GPL-2.0
/*
 * DRM GPU scheduler: per-ring and per-process job accounting, aggregated in maps.
 *
 * Raw tracepoint programs (SEC "raw_tp", attached by name at run time): they read
 * the tracepoints' arguments, which are the same in both generations, so one
 * program serves both names; and the kernel does not build a trace record for
 * them (no string copies per event):
 *   queue  (job, entity)  <= 6.16 drm_sched_job           >= 6.17 drm_sched_job_queue
 *   run    (job, entity)  <= 6.16 drm_run_job             >= 6.17 drm_sched_job_run
 *   done   (s_fence)      <= 6.16 drm_sched_process_job   >= 6.17 drm_sched_job_done
 *   add_dep (job, fence)                                  >= 6.17 drm_sched_job_add_dep
 *   dep_wait (job, fence) <= 6.16 drm_sched_job_wait_dep  >= 6.17 drm_sched_job_unschedulable
 * Kernel structures are read with CO-RE against gpu_sched's module BTF.
 *
 * A job is followed from queue to done in the bounded LRU table `jobs`, keyed by
 * the address of its drm_sched_fence (one insert and one delete per job: map
 * updates are the dearest thing a program here does). When more jobs wait than
 * the table holds, records are evicted: the job keeps its counts (the ring is
 * found from the job or its fence, its start from its scheduled fence), a waiting
 * job loses its queue-wait sample, and each eviction is counted.
 *
 * A ring is a drm_gpu_scheduler: its names are read once, at its first event, and
 * later events find its index in ring_cache.
 *
 * Every event has three programs: the second and third are twins that handle the
 * events the kernel's per-program recursion guard made those before skip (see
 * drm_sched.h).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "drm_sched.h"
#include "common.bpf.h"

__u64 drops[SCHED_DROP_MAX];
#include "drm_sched_ring.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set before load: whether add_dep events exist (>= 6.17). */
const volatile bool track_deps = false;

__u64 tick_gen; /* bumped by user space after each read: scopes the max_* fields */
__u64 rescued[SCHED_EV_MAX][SCHED_COPIES]; /* events each twin handled (copy 0: none) */

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
	__type(key, job_key_t);
	__type(value, struct job_info);
} jobs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, SCHED_CLAIM_THREADS);
	__type(key, __u64); /* event kind << 32 | tid */
	__type(value, struct sched_claims);
} claims SEC(".maps");

static __always_inline void drop(enum sched_drop why)
{
	drop_count(drops, why, SCHED_DROP_MAX);
}

/*
 * Whether this copy of an event's program handles the event (ev, a, b).
 *
 * The kernel runs a program at most once at a time per CPU and skips it when
 * entered again there (an interrupt into it or, where tracepoints run
 * preemptible, another task while one is preempted in it). The primary (copy 0)
 * always handles the event and notes it in its thread's log of that event kind.
 * Its twins run after it, in order, in the same thread: a twin handles the event
 * only when it is not in the log (the primary, and any twin before, were
 * skipped), and notes it in turn. Only an interrupt between them, with an event of
 * the same kind, adds to the log: it holds more than nesting can add (done events
 * come in interrupts; queue and run never do). First, a twin looks at the event
 * the primary handled last on this CPU: when it is this one (keys are unique), the
 * thread's log need not be looked up. So an event is never handled twice; one whose
 * copies were all skipped, or whose thread log could not be had, is lost and
 * counted (misses - rescues). A key repeated in one thread within the log's
 * length makes a skipped event look handled: lost and counted, never twice.
 */
static __always_inline bool claim(__u32 ev, __u64 a, __u64 b, __u32 copy)
{
	struct sched_claim *last = bpf_map_lookup_elem(&last_claim, &ev);
	struct sched_claims *log, fresh = {};
	struct sched_claim *c;
	__u64 who;
	__u32 tid, slot;

	/* The usual case: the primary just handled this very event on this CPU. */
	if (copy && last && last->a == a && last->b == b)
		return false;
	tid = (__u32)bpf_get_current_pid_tgid();
	who = (__u64)ev << 32 | (tid ? tid : 0x80000000U | bpf_get_smp_processor_id());
	log = bpf_map_lookup_elem(&claims, &who);

	if (!log) { /* this thread's first event, or the primary was skipped in it so far */
		bpf_map_update_elem(&claims, &who, &fresh, BPF_NOEXIST);
		log = bpf_map_lookup_elem(&claims, &who);
	}
	if (!log)
		return !copy; /* the primary handles it unnoted; a twin cannot tell */
	if (copy) {
		for (int i = 0; i < SCHED_CLAIM_SLOTS; i++)
			if (log->slot[i].a == a && log->slot[i].b == b)
				return false;
		if (ev < SCHED_EV_MAX && copy < SCHED_COPIES)
			__sync_fetch_and_add(&rescued[ev][copy], 1);
	}
	/* atomic: an interrupt on this CPU may take a slot in between */
	slot = __sync_fetch_and_add(&log->head, 1) % SCHED_CLAIM_SLOTS;
	c = &log->slot[slot];
	c->a = a;
	c->b = b;
	if (!copy && last) {
		last->a = a;
		last->b = b;
	}
	if (!copy && (ev == SCHED_EV_QUEUE || ev == SCHED_EV_RUN)) /* never in an interrupt */
		spin_for_test();
	return true;
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

static __always_inline void on_queue(const struct drm_sched_job *job, job_key_t key)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct job_info info = {};
	struct job_info *parked;
	struct ring_stats *rs;
	struct proc_stats *ps;
	__s64 depth;
	__u32 ring;

	ring = ring_of(job);
	rs = ring_at(ring);
	if (!rs)
		return;
	__sync_fetch_and_add(&rs->queued, 1);
	depth = (__s64)(rs->queued - rs->started);
	ring_stats_interval(rs, tick_gen);
	if (depth > (__s64)rs->max_queue_depth)
		rs->max_queue_depth = (__u32)depth;

	if (track_deps) {
		parked = bpf_map_lookup_elem(&jobs, &key);
		if (parked && parked->pending_deps && !parked->queue_ns && !parked->run_ns)
			__sync_fetch_and_add(&rs->deps, parked->pending_deps);
	}
	info.ring = ring;
	info.queue_ns = now;
	info.tgid = tgid;
	if (bpf_map_update_elem(&jobs, &key, &info, BPF_ANY))
		drop(SCHED_DROP_JOB_FULL);

	ps = proc_get(tgid, ring, true);
	if (ps)
		__sync_fetch_and_add(&ps->queued, 1);
}

/* One more of its jobs on the hardware: the first opens its busy span. */
static __always_inline void proc_busy_start(struct proc_stats *ps, __u64 now)
{
	if (__sync_fetch_and_add(&ps->in_flight, 1) == 0)
		ps->busy_since_ns = now;
}

/* One of its jobs done: the last closes its busy span. */
static __always_inline void proc_busy_end(struct proc_stats *ps, __u64 now)
{
	__u64 since = ps->busy_since_ns;

	if (__sync_fetch_and_add(&ps->in_flight, -1) == 1 && since && now > since) {
		ps->busy_since_ns = 0;
		__sync_fetch_and_add(&ps->busy_ns, now - since);
	}
}

static __always_inline void on_run(const struct drm_sched_job *job, job_key_t key)
{
	__u64 now = bpf_ktime_get_ns();
	struct job_info *info = bpf_map_lookup_elem(&jobs, &key);
	struct ring_stats *rs;
	__u64 in_flight;

	if (info && info->queue_ns && !info->run_ns) {
		__u64 wait = now - info->queue_ns;
		struct proc_stats *ps;

		info->run_ns = now;
		rs = ring_at(info->ring);
		if (!rs)
			return;
		hist_count(rs->hist_wait, wait);
		__sync_fetch_and_add(&rs->wait_ns, wait);
		ring_stats_interval(rs, tick_gen);
		if (wait > rs->max_wait_ns)
			rs->max_wait_ns = wait;
		ps = proc_get(info->tgid, info->ring, false);
		if (ps) {
			__sync_fetch_and_add(&ps->wait_ns, wait);
			proc_busy_start(ps, now);
			info->proc_running = 1;
		}
	} else {
		struct job_info fresh = { .run_ns = now };
		__u64 started;

		fresh.ring = ring_of(job);
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
		if (bpf_map_update_elem(&jobs, &key, &fresh, BPF_ANY))
			drop(SCHED_DROP_JOB_FULL);
	}
	__sync_fetch_and_add(&rs->started, 1);
	in_flight = rs->started - rs->completed;
	if (in_flight == 1)
		rs->busy_since_ns = now;
	ring_stats_interval(rs, tick_gen);
	if ((__s64)in_flight > (__s64)rs->max_in_flight)
		rs->max_in_flight = (__u32)in_flight;
}

/* A job done: counted on its ring if its run was, and timed. */
static __always_inline void on_done(const struct drm_sched_fence *fence, job_key_t key)
{
	__u64 now = bpf_ktime_get_ns(), start;
	struct job_info *info = bpf_map_lookup_elem(&jobs, &key);
	struct proc_stats *ps = NULL;
	struct ring_stats *rs;
	__u64 exec = 0, since;

	if (info && info->run_ns) {
		exec = now - info->run_ns;
		rs = ring_at(info->ring);
		if (info->queue_ns)
			ps = proc_get(info->tgid, info->ring, false);
		if (ps && info->proc_running)
			proc_busy_end(ps, now);
	} else if (info && info->queue_ns) {
		/* Its run event was skipped by every copy (counted lost): recovered here. */
		rs = ring_at(info->ring);
		if (!rs)
			goto out;
		start = unrecorded_start(fence);
		if (start > 1 && start >= info->queue_ns && now > start) {
			hist_count(rs->hist_wait, start - info->queue_ns);
			__sync_fetch_and_add(&rs->wait_ns, start - info->queue_ns);
			exec = now - start;
		}
		__sync_fetch_and_add(&rs->started, 1);
		ps = proc_get(info->tgid, info->ring, false);
	} else {
		start = unrecorded_start(fence);
		if (!start) { /* started before we attached */
			drop(SCHED_DROP_DONE_UNMATCHED);
			if (info)
				bpf_map_delete_elem(&jobs, &key);
			return;
		}
		drop(SCHED_DROP_RUN_RECORD_EVICTED);
		exec = start > 1 && now > start ? now - start : 0;
		rs = ring_at(ring_of_sched(BPF_CORE_READ(fence, sched)));
	}
out:
	if (info)
		bpf_map_delete_elem(&jobs, &key);
	if (!rs)
		return;
	__sync_fetch_and_add(&rs->completed, 1);
	if (exec) {
		hist_count(rs->hist_exec, exec);
		__sync_fetch_and_add(&rs->exec_ns, exec);
		ring_stats_interval(rs, tick_gen);
		if (exec > rs->max_exec_ns)
			rs->max_exec_ns = exec;
	}
	since = rs->busy_since_ns;
	if (rs->started == rs->completed && since) {
		rs->busy_since_ns = 0;
		__sync_fetch_and_add(&rs->busy_ns, now - since);
	}
	if (ps)
		__sync_fetch_and_add(&ps->completed, 1);
}

/* >= 6.17: add_dep precedes the queue event; the count is parked on the job until then. */
static __always_inline void on_add_dep(job_key_t key)
{
	struct job_info fresh = { .ring = RING_NONE, .pending_deps = 1 };
	struct job_info *info = bpf_map_lookup_elem(&jobs, &key);
	struct ring_stats *rs;

	if (!info) {
		if (!bpf_map_update_elem(&jobs, &key, &fresh, BPF_NOEXIST))
			return;
		info = bpf_map_lookup_elem(&jobs, &key); /* another CPU parked one first */
		if (!info)
			return;
	}
	if (!info->queue_ns && !info->run_ns) {
		__sync_fetch_and_add(&info->pending_deps, 1);
		return;
	}
	rs = ring_at(info->ring);
	if (rs)
		__sync_fetch_and_add(&rs->deps, 1);
}

static __always_inline void on_dep_wait(const struct drm_sched_job *job)
{
	struct ring_stats *rs = ring_at(ring_of(job));

	if (rs)
		__sync_fetch_and_add(&rs->dep_waits, 1);
}

/* ---- the programs: each event's primary, then its twins ---- */

/*
 * The claim key of a job's event: its fence's address, which a new job in the same
 * thread may soon reuse, and its finished fence's sequence number (set when the
 * job is armed, before it is queued), which it does not.
 */
static __always_inline int queue_event(const struct drm_sched_job *job, __u32 copy)
{
	job_key_t key = job_key(job);

	if (claim(SCHED_EV_QUEUE, key, BPF_CORE_READ(job, s_fence, finished.seqno), copy))
		on_queue(job, key);
	return 0;
}

static __always_inline int run_event(const struct drm_sched_job *job, __u32 copy)
{
	job_key_t key = job_key(job);

	if (claim(SCHED_EV_RUN, key, BPF_CORE_READ(job, s_fence, finished.seqno), copy))
		on_run(job, key);
	return 0;
}

static __always_inline int done_event(const struct drm_sched_fence *fence, __u32 copy)
{
	job_key_t key = (job_key_t)(unsigned long)fence;

	if (claim(SCHED_EV_DONE, key, BPF_CORE_READ(fence, finished.seqno), copy))
		on_done(fence, key);
	return 0;
}

static __always_inline int add_dep_event(const struct drm_sched_job *job, const void *fence,
					 __u32 copy)
{
	job_key_t key = job_key(job);

	if (claim(SCHED_EV_ADD_DEP, key, (__u64)(unsigned long)fence, copy))
		on_add_dep(key);
	return 0;
}

static __always_inline int dep_wait_event(const struct drm_sched_job *job, const void *fence,
					  __u32 copy)
{
	if (claim(SCHED_EV_DEP_WAIT, job_key(job), (__u64)(unsigned long)fence, copy))
		on_dep_wait(job);
	return 0;
}

#define QUEUE(copy) queue_event(job, copy)
#define RUN(copy) run_event(job, copy)
#define DONE(copy) done_event(fence, copy)
#define ADD_DEP(copy) add_dep_event(job, fence, copy)
#define DEP_WAIT(copy) dep_wait_event(job, fence, copy)

THREE_COPIES(sched_queue, QUEUE, struct drm_sched_job *job)
THREE_COPIES(sched_run, RUN, struct drm_sched_job *job)
THREE_COPIES(sched_done, DONE, struct drm_sched_fence *fence)
THREE_COPIES(sched_add_dep, ADD_DEP, struct drm_sched_job *job, void *fence)
THREE_COPIES(sched_dep_wait, DEP_WAIT, struct drm_sched_job *job, void *fence)
