/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Log2-linear latency histogram, shared by BPF programs and user space.
 *
 * Each power of two is split into HIST_SUB linear sub-buckets, so a bucket is at
 * most 1/HIST_SUB of its lower bound wide (12.5 %): fine enough for p50/p99 of
 * job latencies, small enough (HIST_SLOTS u64 per histogram) to live in a map.
 * Values are nanoseconds; anything >= 2^HIST_MAX_LOG2 lands in the last slot.
 */
#ifndef GPUTOP_HIST_H
#define GPUTOP_HIST_H

#define HIST_SUB_BITS 3
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_MAX_LOG2 40 /* 2^40 ns = 18 minutes */
#define HIST_SLOTS ((HIST_MAX_LOG2 - HIST_SUB_BITS + 1) * HIST_SUB)

/* floor(log2(v)) for v > 0, without clz (the BPF target has none). */
static inline __attribute__((always_inline)) unsigned int hist_log2(unsigned long long v)
{
	unsigned int r = 0, shift;

	shift = (v > 0xFFFFFFFFULL) << 5; v >>= shift; r |= shift;
	shift = (v > 0xFFFF) << 4; v >>= shift; r |= shift;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static inline __attribute__((always_inline)) unsigned int hist_slot(unsigned long long v)
{
	unsigned int msb;

	if (v < HIST_SUB)
		return (unsigned int)v;
	msb = hist_log2(v);
	if (msb >= HIST_MAX_LOG2)
		return HIST_SLOTS - 1;
	return (msb - HIST_SUB_BITS + 1) * HIST_SUB +
	       (unsigned int)((v >> (msb - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

#endif
