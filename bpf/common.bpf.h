/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers every BPF program of gputop-bpf needs: counting a loss, counting a
 * histogram sample, finding-or-creating a map entry, interning a key into a
 * dense index. Kernel side only (include after bpf_helpers.h).
 */
#ifndef GPUTOP_COMMON_BPF_H
#define GPUTOP_COMMON_BPF_H

#include "core/hist_layout.h"

#ifndef __core
#define __core __attribute__((preserve_access_index))
#endif

/* drops[why] += 1 for a loss kind below max: every loss is counted, none is silent. */
static __always_inline void drop_count(__u64 *drops, unsigned int why, unsigned int max)
{
	if (why < max)
		__sync_fetch_and_add(&drops[why], 1);
}

/* One histogram sample; the bound check is for the verifier (older ones cannot follow %). */
static __always_inline void hist_count(__u64 *slots, __u64 value_ns)
{
	__u32 slot = hist_slot(value_ns);

	asm volatile("" : "+r"(slot)); /* keep the check below: the compiler knows the range */
	if (slot < HIST_SLOTS)
		__sync_fetch_and_add(&slots[slot], 1);
}

/*
 * The entry for key, created from init (a zeroed value, e.g. from a map that is
 * never written) when missing; NULL when the map is full.
 */
static __always_inline void *lookup_or_init(void *map, const void *key, const void *init)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	bpf_map_update_elem(map, key, init, BPF_NOEXIST); /* -EEXIST: another CPU won */
	return bpf_map_lookup_elem(map, key);
}

/*
 * A dense index for key in [0, max), assigned at its first sight from *next;
 * max when the table is full. ids maps key -> index.
 */
static __always_inline __u32 intern(void *ids, const void *key, __u32 *next, __u32 max)
{
	__u32 *id = bpf_map_lookup_elem(ids, key), fresh;

	if (id)
		return *id;
	fresh = __sync_fetch_and_add(next, 1);
	if (fresh >= max || bpf_map_update_elem(ids, key, &fresh, BPF_NOEXIST)) {
		id = bpf_map_lookup_elem(ids, key); /* lost a race: use the winner's */
		return id ? *id : max;
	}
	return fresh;
}

/*
 * A capture's record (--trace) of size bytes in rb, to fill and submit with
 * capture_submit (user space drains it on a thread of its own).
 * NULL when no capture runs: *on, the programs' flag that user space sets
 * while one does, is tested first, and is all a program pays without one.
 * NULL too when the ring buffer is full: counted in *lost.
 */
static __always_inline void *capture_reserve(void *rb, __u64 size, const __u32 *on, __u64 *lost)
{
	void *r;

	if (!*(const volatile __u32 *)on)
		return NULL;
	r = bpf_ringbuf_reserve(rb, size, 0);
	if (!r)
		__sync_fetch_and_add(lost, 1);
	return r;
}

/*
 * A capture's record r of rb submitted: without a wake-up while less than a
 * quarter of rb waits (the reader drains every CAPTURE_RB_READ_MS anyway), with
 * one beyond, so that a fast stream of events is drained before rb is full.
 */
static __always_inline void capture_submit(void *rb, void *r)
{
	__u64 avail = bpf_ringbuf_query(rb, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(r, avail * 4 >= bpf_ringbuf_query(rb, BPF_RB_RING_SIZE) ? BPF_RB_FORCE_WAKEUP :
										     BPF_RB_NO_WAKEUP);
}

#endif
