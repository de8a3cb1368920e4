/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What both designs of the scheduler collector's BPF side share (drm_sched.bpf.c
 * follows jobs in maps, drm_sched_stream.bpf.c streams their events): the kernel
 * structures they read (CO-RE, against gpu_sched's module BTF), a job's key, and
 * how a scheduler becomes a ring index. The includer declares
 * __u64 drops[SCHED_DROP_MAX] (a full ring table is counted there).
 */
#ifndef GPUTOP_DRM_SCHED_RING_BPF_H
#define GPUTOP_DRM_SCHED_RING_BPF_H

#include "drm_sched.h"
#include "common.bpf.h"

struct kobject {
	const char *name;
} __core;
struct device {
	struct kobject kobj;
} __core;
struct drm_gpu_scheduler {
	const char *name;
	struct device *dev;
} __core;
struct dma_fence {
	__s64 timestamp; /* ktime_get() when signalled; valid with DMA_FENCE_FLAG_TIMESTAMP_BIT */
	unsigned long flags;
	__u64 seqno;
} __core;
struct drm_sched_fence {
	struct dma_fence scheduled; /* signalled when the job is handed to the hardware */
	struct dma_fence finished;
	struct drm_gpu_scheduler *sched;
} __core;

/* Its bit number moved (6.17 added a bit before it): read from the kernel's BTF. */
enum dma_fence_flag_bits {
	DMA_FENCE_FLAG_TIMESTAMP_BIT = 1,
};
struct drm_sched_job {
	struct drm_gpu_scheduler *sched;
	struct drm_sched_fence *s_fence;
} __core;
struct task_struct {
	struct task_struct *group_leader;
	char comm[TASK_COMM_LEN];
} __core;

__u32 next_ring; /* next free index into rings */
__u64 attach_ns; /* set by user space just before the programs attach (CLOCK_MONOTONIC) */
#ifdef GPUTOP_TEST_HOOKS
const volatile __u64 test_spin_ns = 0; /* test builds: GPUTOP_TEST_SPIN_NS, the primaries spin */
#endif

/* Per CPU and kind: the event its primary handled last (a twin's fast path). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SCHED_EV_MAX);
	__type(key, __u32);
	__type(value, struct sched_claim);
} last_claim SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_RINGS);
	__type(key, struct ring_key);
	__type(value, __u32);
} ring_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, SCHED_RING_CACHE);
	__type(key, struct ring_cache_key);
	__type(value, __u32);
} ring_cache SEC(".maps");

static __always_inline job_key_t job_key(const struct drm_sched_job *job)
{
	return (job_key_t)(unsigned long)BPF_CORE_READ(job, s_fence);
}

/* The index of a ring, assigned at its first sight; RING_NONE when the table is full. */
static __always_inline __u32 ring_intern(const struct drm_gpu_scheduler *sched, const char *name)
{
	struct ring_key key = {};
	const char *dev_name;
	__u32 id;

	bpf_probe_read_kernel_str(key.name, sizeof(key.name), name);
	if (bpf_core_field_exists(struct drm_gpu_scheduler, dev)) {
		dev_name = BPF_CORE_READ(sched, dev, kobj.name);
		if (dev_name)
			bpf_probe_read_kernel_str(key.dev, sizeof(key.dev), dev_name);
	}
	id = intern(&ring_ids, &key, &next_ring, SCHED_MAX_RINGS);
	if (id >= SCHED_MAX_RINGS) {
		drop_count(drops, SCHED_DROP_RING_FULL, SCHED_DROP_MAX);
		return RING_NONE;
	}
	return id;
}

/* A scheduler's ring: two reads and a 24-byte hash lookup once the ring is known. */
static __always_inline __u32 ring_of_sched(const struct drm_gpu_scheduler *sched)
{
	struct ring_cache_key ck = { .sched = (__u64)(unsigned long)sched };
	const char *name;
	__u32 *cached, id;

	if (!sched)
		return RING_NONE;
	name = BPF_CORE_READ(sched, name);
	if (!name)
		return RING_NONE;
	bpf_probe_read_kernel_str(ck.name, sizeof(ck.name), name);
	cached = bpf_map_lookup_elem(&ring_cache, &ck);
	if (cached)
		return *cached;
	id = ring_intern(sched, name);
	if (id != RING_NONE)
		bpf_map_update_elem(&ring_cache, &ck, &id, BPF_ANY);
	return id;
}

static __always_inline __u32 ring_of(const struct drm_sched_job *job)
{
	return ring_of_sched(BPF_CORE_READ(job, sched));
}

/*
 * The start of a job whose record is gone (evicted while more jobs waited than the
 * table holds): its scheduled fence's timestamp, 0 when it started before we
 * attached (not counted at run, so not at done either). A fence not yet stamped
 * is being handed to the hardware right now: started while we watch, untimed (1).
 */
static __always_inline __u64 unrecorded_start(const struct drm_sched_fence *fence)
{
	unsigned long flags = BPF_CORE_READ(fence, scheduled.flags);
	unsigned int bit = bpf_core_enum_value(enum dma_fence_flag_bits, DMA_FENCE_FLAG_TIMESTAMP_BIT);
	__s64 ts;

	if (bit >= 64 || !(flags & (1UL << bit)))
		return 1;
	ts = BPF_CORE_READ(fence, scheduled.timestamp);
	return ts > 0 && (__u64)ts >= attach_ns ? (__u64)ts : 0;
}

/*
 * Test builds only (make TEST_HOOKS=1): hold the queue and run primaries (task
 * context), so that other tasks nest into them. Other builds have no such code.
 */
static __always_inline void spin_for_test(void)
{
#ifdef GPUTOP_TEST_HOOKS
	__u64 end;

	if (!test_spin_ns)
		return;
	end = bpf_ktime_get_ns() + test_spin_ns;
	for (int i = 0; i < 4096; i++)
		if (bpf_ktime_get_ns() >= end)
			break;
#endif
}

/* An event's three programs: the primary (copy 0), then its twins (same names in both designs). */
#define THREE_COPIES(name, handler, ...)                                         \
	SEC("raw_tp") int BPF_PROG(name, __VA_ARGS__) { return handler(0); }     \
	SEC("raw_tp") int BPF_PROG(name##2, __VA_ARGS__) { return handler(1); }  \
	SEC("raw_tp") int BPF_PROG(name##3, __VA_ARGS__) { return handler(2); }

#endif
