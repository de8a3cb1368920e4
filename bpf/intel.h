/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain data shared by intel.bpf.c and collectors/intel/intel.c: i915 and xe. */
#ifndef GPUTOP_INTEL_H
#define GPUTOP_INTEL_H

#include <linux/types.h>
#include "core/hist_layout.h"

#define INTEL_MAX_ENGINES 64
#define INTEL_MAX_PROCS 4096
#define INTEL_MAX_PENDING 65536 /* requests in flight (low-level events), xe jobs pushed not yet run */
#define INTEL_MAX_QUEUES 1024 /* xe exec queues */
#define INTEL_MAX_DEVS 16
#define INTEL_MAX_MOVES 64
#define XE_PLACEMENT_NAME 12

/* An i915 engine: DRM minor of the device, uabi engine class and instance. */
struct intel_engine_key {
	__u32 dev;
	__u16 class, instance;
};

struct intel_engine {
	__u64 added, retired; /* i915_request_add / _retire */
	__u64 waits, wait_ns; /* clients' waits on its requests */
	__u64 in, out; /* low-level: submitted to and out of the hardware */
	__u64 exec_ns; /* in -> out, summed */
	__u64 exec_hist[HIST_SLOTS];
};

struct intel_proc {
	__u64 objects, object_bytes; /* i915_gem_object_create, xe_bo_create */
	__u64 binds, unbinds, bind_bytes; /* i915_vma_bind / _unbind, xe_vma_bind / _unbind */
	__u64 faults[4]; /* i915_gem_object_fault: [gtt << 1 | write] */
	__u64 preads, pread_bytes, pwrites, pwrite_bytes;
	__u64 requests; /* i915 requests added by it */
	__u64 xe_jobs; /* xe jobs it pushed */
	__u64 waits, wait_ns; /* i915_request_wait_begin -> _end */
	__u64 wait_hist[HIST_SLOTS];
};

/* i915 memory pressure, per device. */
struct intel_dev {
	__u64 shrinks, shrink_pages; /* i915_gem_shrink: calls and their target, in pages */
	__u64 evictions; /* i915_gem_evict */
};

/* A request in flight (low-level in -> out), by its fence context and seqno. */
struct intel_rq_key {
	__u64 ctx;
	__u32 seqno, pad;
};

struct intel_wait {
	__u64 ns;
	__u32 engine, pad; /* index into engines */
};

struct xe_queue_key {
	__u16 guc_id;
	__u8 gt_id;
	__u8 pad;
};

struct xe_queue {
	__u32 class1; /* enum xe_engine_class + 1; 0 until an exec-queue event named it */
	__u32 pad;
	__u64 created, pushed, ran, freed, timedout, errors;
	__u64 latency_ns; /* pushed -> run (handed to the GuC) */
	__u64 latency_hist[HIST_SLOTS];
};

struct xe_move_key {
	char from[XE_PLACEMENT_NAME], to[XE_PLACEMENT_NAME];
};

struct xe_move {
	__u64 count, bytes;
};

enum intel_drop {
	INTEL_DROP_ENGINES_FULL,
	INTEL_DROP_PROCS_FULL,
	INTEL_DROP_PENDING_FULL,
	INTEL_DROP_QUEUES_FULL,
	INTEL_DROP_MOVES_FULL,
	INTEL_DROP_MAX
};

#endif
