/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the CUPTI companion library (libgputop-cupti.so) hands the monitor: the arguments of its
 * probe functions, which a BPF uprobe reads (docs/gpu-time.md). Fixed sizes, no pointers but the
 * probe functions' own arguments; little-endian, as the process that calls them. A new field goes
 * at the end of a struct and raises GPUTOP_CUPTI_ABI.
 */
#ifndef GPUTOP_CORE_CUPTI_ABI_H
#define GPUTOP_CORE_CUPTI_ABI_H

#ifdef __bpf__ /* the monitor's BPF program reads these too (bpf/cupti.bpf.c) */
#include <linux/types.h>
typedef __u64 uint64_t;
typedef __u32 uint32_t;
#else
#include <stdint.h>
#endif

#define GPUTOP_CUPTI_ABI 1
/* Records per call of gputop_cupti_records: the monitor's BPF loop reads at most this many. */
#define GPUTOP_CUPTI_CHUNK 16
/* A kernel's name is sent once per monitor, at most this many bytes of it (the rest cut, flagged). */
#define GPUTOP_CUPTI_NAME_MAX 512
/* Distinct names the library keeps ids for; a name past them is sent with id 0, each time. */
#define GPUTOP_CUPTI_NAMES 4096

/* The semaphore and the probe functions, by symbol (the monitor finds them in .dynsym). */
#define GPUTOP_CUPTI_SEMAPHORE "gputop_cupti_semaphore"
#define GPUTOP_CUPTI_RECORDS_FN "gputop_cupti_records"
#define GPUTOP_CUPTI_NAME_FN "gputop_cupti_name"
#define GPUTOP_CUPTI_STATUS_FN "gputop_cupti_status"
/*
 * Launches' correlation ids, for the join of each kernel's GPU time to the CPU stack that launched
 * it: gputop_cupti_launch(correlation_id) is called in the launching thread, inside the driver's
 * launch call, while a uprobe attached with the launch semaphore's offset raises it (its own
 * semaphore: the CUPTI callback it takes costs each launch, so only while stacks are taken).
 */
#define GPUTOP_CUPTI_LAUNCH_SEMAPHORE "gputop_cupti_launch_semaphore"
#define GPUTOP_CUPTI_LAUNCH_FN "gputop_cupti_launch"

enum gputop_cupti_kind {
	GPUTOP_CUPTI_KERNEL = 1,
	GPUTOP_CUPTI_MEMCPY = 2,
	GPUTOP_CUPTI_MEMSET = 3,
};

/* One activity: times in CUPTI's clock (ns); queued and submitted 0 where CUPTI did not give them. */
struct gputop_cupti_record {
	uint64_t start;
	uint64_t end;
	uint64_t queued;
	uint64_t submitted;
	uint64_t bytes; /* memcpy and memset: bytes; kernel: 0 */
	uint32_t kind; /* enum gputop_cupti_kind */
	uint32_t correlation_id;
	uint32_t device_id;
	uint32_t context_id;
	uint32_t stream_id;
	uint32_t name_id; /* kernel: its name's id (gputop_cupti_name), 0: unknown; others 0 */
	uint32_t grid[3]; /* kernel: grid and block sizes; memcpy: grid[0] the copy kind */
	uint32_t block[3];
};

/* Sent with every chunk of records: counts since the library was loaded, and a clock pair. */
struct gputop_cupti_batch {
	uint32_t abi; /* GPUTOP_CUPTI_ABI */
	uint32_t count; /* records in this chunk, <= GPUTOP_CUPTI_CHUNK */
	uint64_t sent; /* records handed to the probe before this chunk */
	uint64_t cupti_dropped; /* records CUPTI said it dropped (cuptiActivityGetNumDroppedRecords) */
	uint64_t library_dropped; /* records the library did not pass on: unreadable, or unfinished (no end) */
	/* CUPTI's clock against CLOCK_MONOTONIC: cupti_ns read between mono_before and mono_after. */
	uint64_t cupti_ns;
	uint64_t mono_before;
	uint64_t mono_after;
};

/* gputop_cupti_status's state: what the library does now. */
enum gputop_cupti_state {
	GPUTOP_CUPTI_ON = 1, /* activity records enabled */
	GPUTOP_CUPTI_OFF = 2, /* flushed and disabled: no monitor */
	GPUTOP_CUPTI_MISSING = 3, /* no libcupti found, or one without the functions needed */
	GPUTOP_CUPTI_BUSY = 4, /* another profiler holds CUPTI (cuptiSubscribe refused) */
	GPUTOP_CUPTI_FAILED = 5, /* a CUPTI call failed: detail says which */
};

#endif
