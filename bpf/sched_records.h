/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * gpu_scheduler tracepoint records, in the flavours each kernel generation has
 * (see shared reference GPU_TRACEPOINTS.md §3). The build host's vmlinux BTF has
 * none of them: they live in gpu_sched's module BTF, and libbpf relocates these
 * preserve_access_index declarations against it at load time. Compiled on the
 * host (unit tests), the same declarations give the kernel's natural layout.
 *
 * Flavour suffixes (___v61, ___v515) are dropped by libbpf when matching names.
 */
#ifndef GPUTOP_SCHED_RECORDS_H
#define GPUTOP_SCHED_RECORDS_H

#include <linux/types.h>

#ifdef __bpf__
#define __core __attribute__((preserve_access_index))
#else
#define __core
#endif

struct trace_entry {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
} __core;

/* >= 6.17: class drm_sched_job (events drm_sched_job_queue, drm_sched_job_run). */
struct trace_event_raw_drm_sched_job {
	struct trace_entry ent;
	__u32 __data_loc_name;
	__u32 job_count;
	int hw_job_count;
	__u32 __data_loc_dev;
	__u64 fence_context;
	__u64 fence_seqno;
	__u64 client_id;
} __core;

/* 6.1 .. 6.16: class drm_sched_job (events drm_sched_job, drm_run_job). */
struct trace_event_raw_drm_sched_job___v61 {
	struct trace_entry ent;
	void *entity;
	void *fence;
	__u32 __data_loc_name;
	__u64 id;
	__u32 job_count;
	int hw_job_count;
} __core;

/* 5.15: same fields, but the ring name is a kernel pointer, not a __data_loc string. */
struct trace_event_raw_drm_sched_job___v515 {
	struct trace_entry ent;
	void *entity;
	void *fence;
	const char *name;
	__u64 id;
	__u32 job_count;
	int hw_job_count;
} __core;

/* >= 6.17: drm_sched_job_done (read as raw_tp arguments in BPF; kept for the layout tests). */
struct trace_event_raw_drm_sched_job_done {
	struct trace_entry ent;
	__u64 fence_context;
	__u64 fence_seqno;
} __core;

/* <= 6.16: drm_sched_process_job; fence is &s_fence->finished, as in the queue record. */
struct trace_event_raw_drm_sched_process_job {
	struct trace_entry ent;
	void *fence;
} __core;

/* 6.1 .. 6.16: drm_sched_job_wait_dep. */
struct trace_event_raw_drm_sched_job_wait_dep {
	struct trace_entry ent;
	__u32 __data_loc_name;
	__u64 id;
	void *fence;
	__u64 ctx;
	unsigned int seqno;
} __core;

/* 5.15: drm_sched_job_wait_dep with a pointer name. */
struct trace_event_raw_drm_sched_job_wait_dep___v515 {
	struct trace_entry ent;
	const char *name;
	__u64 id;
	void *fence;
	__u64 ctx;
	unsigned int seqno;
} __core;

/* >= 6.17: drm_sched_job_add_dep and drm_sched_job_unschedulable share this layout. */
struct trace_event_raw_drm_sched_job_add_dep {
	struct trace_entry ent;
	__u64 fence_context; /* the job's finished fence */
	__u64 fence_seqno;
	__u64 ctx; /* the dependency */
	__u64 seqno;
} __core;

struct trace_event_raw_drm_sched_job_unschedulable {
	struct trace_entry ent;
	__u64 fence_context;
	__u64 fence_seqno;
	__u64 ctx;
	__u64 seqno;
} __core;

#endif
