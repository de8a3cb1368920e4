/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Plain data shared by cupti.bpf.c and its user-space reader: GPU time per process, device and
 * kernel from the CUPTI companion library's probe functions (core/cupti_abi.h, docs/gpu-time.md).
 */
#ifndef GPUTOP_BPF_CUPTI_H
#define GPUTOP_BPF_CUPTI_H

#include <linux/types.h>
#include "core/cupti_abi.h"
#include "core/hist_layout.h"

#define CUPTI_KERNELS_MAX 16384 /* (process, device, kind, name) rows */
#define CUPTI_NAMES_MAX 8192 /* (process, name id) names */
#define CUPTI_PROCS_MAX 1024
#define CUPTI_BUSY_MAX 4096 /* (process, device) */
#define CUPTI_HISTS_MAX 4096 /* rows with histograms (allocated as used: 4.75 KiB each) */
#define CUPTI_CAPTURE_RB_BYTES (4U << 20) /* --trace: about 29,100 records of 136 + 8 bytes */

struct cupti_kernel_key {
	__u32 tgid;
	__u32 device;
	__u32 kind; /* enum gputop_cupti_kind */
	__u32 name_id; /* the process's name id (kernels), 0 for copies and sets */
};

struct cupti_kernel_val {
	__u64 count;
	__u64 total_ns; /* sum of end - start */
	__u64 max_ns;
	__u64 bytes; /* copies and sets */
	__u64 queued_count; /* records with a queued time */
	__u64 queue_total_ns; /* sum of start - queued */
	__u64 queue_max_ns;
};

/* A row's distributions: of its GPU times (end - start) and of its queue times (start - queued). */
struct cupti_hist_val {
	__u64 gpu[HIST_SLOTS];
	__u64 queue[HIST_SLOTS];
};

/* Per process and CUDA device: its activities' GPU time, and how long the GPU was busy with it. */
struct cupti_busy_key {
	__u32 tgid;
	__u32 device;
};

struct cupti_busy_val {
	__u64 kernel_ns; /* its kernels' end - start, summed */
	__u64 copy_ns; /* its copies' and sets' */
	/*
	 * The union of all its activities' intervals: busy_ns those closed, plus [open_start, open_end),
	 * the one still open. Records come in CUPTI's order: of one that began before the open interval
	 * (disordered), the part before it is added to busy_ns whole, though it may overlap closed ones.
	 */
	__u64 busy_ns;
	__u64 open_start, open_end;
	__u64 disordered;
};

/* The union's length so far: those closed and the open one. */
static inline __u64 cupti_busy_union_ns(const struct cupti_busy_val *v)
{
	return v->busy_ns + (v->open_end - v->open_start);
}

struct cupti_name_key {
	__u32 tgid;
	__u32 id;
};

struct cupti_name_val {
	__u32 len; /* bytes of name, <= GPUTOP_CUPTI_NAME_MAX */
	__u32 cut; /* the library cut a longer name */
	char name[GPUTOP_CUPTI_NAME_MAX];
};

struct cupti_proc_val {
	__u64 batches;
	__u64 records; /* read here */
	__u64 missed; /* records the library sent that no call here read (its 'sent' jumped) */
	__u64 next_sent; /* the 'sent' the next call should carry */
	__u64 cupti_dropped; /* the library's counts, as last seen */
	__u64 library_dropped;
	__u32 state; /* gputop_cupti_status's last, enum gputop_cupti_state */
	__u32 abi;
	char comm[16]; /* its name (its group leader's comm) at its first batch */
};

/*
 * --trace: one activity record of process tgid (named comm), with its batch's clock pair (cupti_ns read between
 * mono_before and mono_after, CLOCK_MONOTONIC), which places its times on the monitor's clock.
 */
struct cupti_capture_rec {
	struct gputop_cupti_record r;
	__u64 cupti_ns, mono_before, mono_after;
	__u32 tgid;
	__u32 pad;
	char comm[16]; /* the process's name */
};

enum cupti_drop {
	CUPTI_DROP_KERNELS_FULL, /* a record whose row did not fit */
	CUPTI_DROP_NAMES_FULL,
	CUPTI_DROP_PROCS_FULL,
	CUPTI_DROP_READ, /* a batch or record not readable */
	CUPTI_DROP_BUSY_FULL, /* a record whose process and device had no busy entry */
	CUPTI_DROP_HISTS_FULL, /* a record whose row had no histograms: in the row's counts, not its quantiles */
	CUPTI_DROP_CAPTURE_FULL, /* --trace: a record the capture's ring buffer had no room for */
	CUPTI_DROP_MAX,
};

#endif
