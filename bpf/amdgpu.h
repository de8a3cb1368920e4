/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain data shared by amdgpu.bpf.c and collectors/amdgpu/amdgpu.c. */
#ifndef GPUTOP_AMDGPU_H
#define GPUTOP_AMDGPU_H

#include <linux/types.h>
#include "core/hist_layout.h"

#define AMD_RING_NAME 16 /* struct amdgpu_ring's name[16] */
#define AMD_MAX_RINGS 128
#define AMD_MAX_PROCS 4096
#define AMD_MAX_SUBMITTERS 8192 /* (process, ring) pairs */
#define AMD_MAX_PENDING 65536 /* submitted jobs not yet run */
#define AMD_MAX_IV 1024 /* (client, source, pasid) of interrupt vectors */
#define AMD_MAX_PASIDS 4096
#define AMD_DOMAINS 10 /* TTM memory types: system, tt, vram, gds, gws, oa, preempt, doorbell, mmio_remap, other */

struct amd_ring_key {
	char name[AMD_RING_NAME];
};

struct amd_ring {
	__u64 submissions; /* amdgpu_cs_ioctl */
	__u64 ibs; /* indirect buffers in them */
	__u64 runs; /* amdgpu_sched_run_job */
	__u64 kernel_runs; /* of which without a submission seen: the kernel's own jobs (or before the start) */
	__u64 latency_ns; /* submission -> run, summed over the matched runs */
	__u64 flushes; /* amdgpu_vm_flush */
	__u64 latency_hist[HIST_SLOTS];
};

struct amd_submitter_key {
	__u32 tgid;
	__u32 ring; /* index into rings */
};

struct amd_submitter {
	__u64 submissions, ibs;
};

struct amd_proc {
	__u64 created[AMD_DOMAINS]; /* amdgpu_bo_create, by initial memory type */
	__u64 created_bytes[AMD_DOMAINS];
	__u64 maps, unmaps; /* amdgpu_vm_bo_map / _unmap */
	__u64 mapped_bytes;
};

/* A job submitted, waiting for its run: by its finished fence's context and seqno. */
struct amd_job_key {
	__u64 context, seqno;
};

struct amd_job {
	__u64 ns;
	__u32 ring;
	__u32 pad;
};

struct amd_move {
	__u64 count, bytes;
};

struct amd_iv_key {
	__u32 client_id, src_id, pasid, pad;
};

struct amd_iv {
	__u64 count;
	__u32 vmid, ring_id; /* of the last one */
};

enum amd_drop {
	AMD_DROP_RINGS_FULL,
	AMD_DROP_PROCS_FULL,
	AMD_DROP_PENDING_FULL, /* a submission not followed to its run */
	AMD_DROP_IV_FULL,
	AMD_DROP_MAX
};

#endif
