/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Cumulative counters read twice, one interval apart: what they gained. A
 * counter that went backwards was made again (a map entry recreated, a module
 * reloaded, a program restarted) and counts from zero: it gained its value now,
 * never a wrapped 2^64 - n. The one rule for every rate, share and latency
 * sum a collector derives, and for histograms slot by slot.
 */
#ifndef GPUTOP_COUNTER_H
#define GPUTOP_COUNTER_H

#include <stdint.h>

static inline uint64_t counter_delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

/* Per second of an interval of interval_s seconds (> 0). */
static inline double counter_rate(uint64_t now, uint64_t before, double interval_s)
{
	return (double)counter_delta(now, before) / interval_s;
}

/* A counter of nanoseconds as a share of the interval, in percent. */
static inline double counter_pct(uint64_t now_ns, uint64_t before_ns, double interval_s)
{
	return (double)counter_delta(now_ns, before_ns) / (interval_s * 1e9) * 100.0;
}

#endif
