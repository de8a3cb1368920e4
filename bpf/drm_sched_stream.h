/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Plain data shared by drm_sched_stream.bpf.c and collectors/drm_sched/sched_stream.c:
 * the streamed design of the scheduler collector, where each event is one record
 * in a BPF ring buffer and user space follows the jobs (sched_match.c).
 */
#ifndef GPUTOP_DRM_SCHED_STREAM_H
#define GPUTOP_DRM_SCHED_STREAM_H

#include <linux/types.h>
#include "bpf/drm_sched.h"
#include "bpf/user_stack.h"

/* 32 MiB: at 64 + 8 bytes a record, about 466,000 events between two drains (fewer with --stacks). */
#define SCHED_STREAM_RB_BYTES (32U << 20)
/* Data waiting past this wakes the consumer at once (else it drains every period). */
#define SCHED_STREAM_WAKE_BYTES (SCHED_STREAM_RB_BYTES / 4)

/* One scheduler event, as the copy of its program that handled it wrote it. */
struct sched_rec {
	__u64 ts_ns; /* bpf_ktime_get_ns() at the event (CLOCK_MONOTONIC) */
	__u64 key; /* the job's drm_sched_fence address (job_key_t) */
	/*
	 * queue, run, done: the finished fence's seqno (with key: unique per job);
	 * add_dep, dep_wait: the dependency's fence address.
	 */
	__u64 aux;
	/*
	 * done: when the scheduled fence says the job started (see the map design's
	 * unrecorded_start: 0 before attach, 1 not stamped); add_dep, dep_wait: the
	 * dependency's job key if aux is a scheduler job's finished fence (aux less
	 * offsetof(struct drm_sched_fence, finished)); 0 otherwise.
	 */
	__u64 start_ns;
	__u32 ring; /* index into ring_ids' rings, RING_NONE when unknown or full */
	__u32 tgid; /* queue: the submitting process */
	__u16 cpu;
	__u8 kind; /* enum sched_ev */
	__u8 copy; /* 0: the primary; 1, 2: a twin (its record may repeat the primary's) */
	char comm[TASK_COMM_LEN]; /* queue: the submitter's group leader's comm */
};

/* --stacks: distinct stacks (user and kernel) kept, frames a stack keeps (PERF_MAX_STACK_DEPTH). */
#define SCHED_MAX_STACKS 16384
#define SCHED_STACK_DEPTH 127

/*
 * --stacks: where a queue event's job was submitted from. The user stack
 * (frame pointers) and kernel stack by id in the stacks map, -1 when not taken
 * (the table full, or no frames); caller: the return address into the function
 * that called the syscall wrapper (libc's ioctl keeps no frame pointer, so a
 * frame-pointer walk from it leaves its caller out), found on the user stack as
 * a call into the wrapper; 0 when none was found.
 */
struct sched_stack {
	__u64 caller;
	__s32 ustack_id, kstack_id;
};

/* A queue event's record with its stacks: written only while --stacks takes them. */
struct sched_rec_stacked {
	struct sched_rec rec;
	struct sched_stack stack;
};

/*
 * --stacks, the DWARF half: a queue event's user registers and stack copied
 * (user_stack.h) for code without frame pointers, under the stacks its job is
 * summed by (struct sched_stack, the process and ring), through the ring
 * buffer samples. Taken at each key's first job and otherwise as user_stack.h's
 * sampling rule allows.
 */
struct sched_sample_key {
	__u64 caller;
	__u32 tgid, ring;
	__s32 ustack_id, kstack_id;
};

struct sched_stack_sample {
	struct sched_sample_key key;
	char comm[TASK_COMM_LEN]; /* the submitter's group leader's */
	struct user_stack stack; /* last: only its used bytes are sent */
};

#endif
