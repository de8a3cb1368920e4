/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain data shared by drm_sched.bpf.c and collectors/drm_sched/drm_sched.c. */
#ifndef GPUTOP_DRM_SCHED_H
#define GPUTOP_DRM_SCHED_H

#include <linux/types.h>
#include "core/hist_layout.h"

#define RING_NAME_LEN 32
#define DEV_NAME_LEN 32
#define TASK_COMM_LEN 16

#define SCHED_MAX_RINGS 256
#define SCHED_MAX_PROCS 4096 /* (process, ring) pairs; user space prunes exited processes */
#define SCHED_MAX_JOBS 16384 /* jobs queued or running; an LRU, so lost events cannot grow it */
#define SCHED_RING_CACHE 1024 /* (scheduler address, name) -> ring; an LRU */

/* A ring is a drm_gpu_scheduler instance: its device and its name. */
struct ring_key {
	char dev[DEV_NAME_LEN]; /* dev_name() of the scheduler's device, "" when unknown */
	char name[RING_NAME_LEN]; /* sched->name, e.g. "gfx_0.0.0" */
};

/*
 * Rings are interned: ring_ids maps a ring_key to an index into the rings array,
 * assigned at a ring's first event; later events find the index in ring_cache
 * (keyed by the scheduler's address and name prefix), without reading the names.
 * Cumulative per ring since attach; user space takes deltas per interval.
 */
struct ring_stats {
	__u64 queued; /* jobs pushed to an entity (or first seen at run) */
	__u64 started; /* jobs handed to the hardware (run_job) */
	__u64 completed; /* finished fences signalled, matched to a started job */
	__u64 dep_waits; /* times a job of this ring waited on an unsignalled dependency */
	__u64 deps; /* dependencies declared at push (>= 6.17 only) */
	__u64 wait_ns; /* sum of queue-wait latencies (queued -> run) */
	__u64 exec_ns; /* sum of execution latencies (run -> done) */
	__u64 busy_ns; /* time with at least one job on the hardware, closed spans */
	__u64 busy_since_ns; /* start of the open busy span, 0 when idle */
	__u64 gen; /* interval generation the max_* fields belong to */
	__u32 max_queue_depth; /* max (queued - started) seen in interval gen */
	__u32 max_in_flight; /* max (started - completed) seen in interval gen */
	__u64 max_wait_ns; /* longest queue wait completed in interval gen */
	__u64 max_exec_ns; /* longest execution completed in interval gen */
	__u64 hist_wait[HIST_SLOTS]; /* queue-wait latency histogram, ns */
	__u64 hist_exec[HIST_SLOTS]; /* execution latency histogram, ns */
};

/* Reset the interval maxima when user space has moved to interval gen (both designs). */
static inline __attribute__((always_inline)) void ring_stats_interval(struct ring_stats *rs,
								      __u64 gen)
{
	if (rs->gen != gen) {
		rs->gen = gen;
		rs->max_queue_depth = 0;
		rs->max_in_flight = 0;
		rs->max_wait_ns = 0;
		rs->max_exec_ns = 0;
	}
}

/* A submitting process on one ring (ring: index into the rings array, see ring_ids). */
struct proc_key {
	__u32 tgid;
	__u32 ring;
};

struct proc_stats {
	char comm[TASK_COMM_LEN]; /* group leader's comm at first submission */
	__u64 queued;
	__u64 completed;
	__u64 wait_ns;
	/*
	 * Time with at least one of its jobs on the hardware of this ring: its
	 * share of the ring's busy time, never above it (a sum of its jobs'
	 * execution times would count jobs that overlap in flight twice). busy_ns: closed spans; the open one from
	 * busy_since_ns while in_flight (its jobs run and not done) is not 0.
	 */
	__u64 busy_ns;
	__u64 busy_since_ns;
	__u64 in_flight;
};

/*
 * Job identity: the address of the job's struct drm_sched_fence (job->s_fence, the
 * done event's argument). Unique among jobs in flight: the fence is freed only
 * after its job is done.
 */
typedef __u64 job_key_t;

/* Ring cache key: a scheduler's address and the start of its name (addresses are reused). */
struct ring_cache_key {
	__u64 sched;
	char name[16];
};

/*
 * Scheduler events, each handled by a program and its twins (attached after it, so
 * they run after it). The kernel skips a program entered again on a CPU where it
 * is already running (an interrupt; or, where tracepoints run preemptible as on
 * 7.3, another task) and counts a recursion miss; a twin then handles
 * that event and counts a rescue. An event is lost only when every copy was
 * skipped: the primary's misses minus the twins' rescues.
 */
#define SCHED_COPIES 3 /* the primary and two twins */
enum sched_ev {
	SCHED_EV_QUEUE,
	SCHED_EV_RUN,
	SCHED_EV_DONE,
	SCHED_EV_ADD_DEP, /* >= 6.17 */
	SCHED_EV_DEP_WAIT, /* <= 6.16 wait_dep, >= 6.17 unschedulable */
	SCHED_EV_MAX,
};

/*
 * Per thread (its tid; an idle CPU's interrupts by CPU) and event kind: the events
 * the programs handled last in it, newest at head - 1. A primary and its twins run
 * one after the other in the same thread, whichever CPU it is on (from 7.x a task
 * may migrate between them); only interrupts nested in between add entries.
 */
#define SCHED_CLAIM_SLOTS 8
#define SCHED_CLAIM_THREADS 16384 /* (thread, kind) logs, an LRU: threads that exit age out */

struct sched_claim {
	__u64 a, b;
};

struct sched_claims {
	struct sched_claim slot[SCHED_CLAIM_SLOTS];
	__u32 head;
	__u32 pad;
};

#define RING_NONE 0xffffffffU

struct job_info {
	__u64 queue_ns; /* 0 when the job was first seen at run */
	__u64 run_ns; /* 0 until run */
	__u32 ring; /* index into rings, RING_NONE before the queue event */
	__u32 tgid; /* submitter, 0 when unknown */
	__u32 pending_deps; /* add_dep events seen before the queue event */
	__u32 proc_running; /* 1: its run counted in its process's in_flight (done takes it back) */
};

enum sched_drop {
	SCHED_DROP_RING_FULL, /* ring table full: event not counted */
	SCHED_DROP_PROC_FULL, /* process table full: process not attributed */
	SCHED_DROP_JOB_FULL, /* in-flight table insert failed */
	SCHED_DROP_RUN_UNMATCHED, /* run without a queue record, queued before attach: counted queued at run */
	SCHED_DROP_DONE_UNMATCHED, /* done of a job started before attach: not counted, as its run */
	SCHED_DROP_JOB_EVICTED, /* its queue record evicted before it ran: counted once, no wait latency */
	SCHED_DROP_RUN_RECORD_EVICTED, /* record evicted while it ran: counted, timed by its fence */
	SCHED_DROP_MAX,
};

#endif
