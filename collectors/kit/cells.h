/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Cells a collector derives from cumulative counters read one interval apart
 * (core/counter.h: a counter that went backwards restarted): rates, shares of
 * the interval, latency quantiles of what a histogram gained.
 */
#ifndef GPUTOP_KIT_CELLS_H
#define GPUTOP_KIT_CELLS_H

#include <stdint.h>
#include <linux/types.h>
#include "model/histogram.h"
#include "model/table.h"

/* Per second of the interval. */
void cell_set_rate(struct cell *row, unsigned int col, uint64_t now, uint64_t before,
		   double interval_s);
/* A counter of nanoseconds as a share of the interval, in percent. */
void cell_set_pct(struct cell *row, unsigned int col, uint64_t now_ns, uint64_t before_ns,
		  double interval_s);
/*
 * Columns p50 and p99 of row from what a cumulative histogram (HIST_SLOTS
 * slots) and its sum of nanoseconds gained since the last read; left unknown
 * when it gained nothing. max_ns: an exact maximum no value of the interval
 * passes (the longest since the start), 0 when none is measured: the
 * quantiles never pass it. out (may be NULL): the interval's summary.
 */
void cells_set_quantiles(struct cell *row, unsigned int p50, unsigned int p99,
			 const __u64 *now_hist, const __u64 *before_hist, uint64_t now_sum_ns,
			 uint64_t before_sum_ns, double max_ns, struct latency_summary *out);

#endif
