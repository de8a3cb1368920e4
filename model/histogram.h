/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Latency histograms in user space: the BPF slot layout (core/hist_layout.h) with u64 counts. */
#ifndef GPUTOP_HISTOGRAM_H
#define GPUTOP_HISTOGRAM_H

#include <stdint.h>
#include "core/hist_layout.h"

struct histogram {
	uint64_t slots[HIST_SLOTS];
};

/* Quantiles and extremes of one histogram; nanoseconds, 0 when count is 0. */
struct latency_summary {
	uint64_t count;
	double mean_ns;
	double p50_ns;
	double p90_ns;
	double p99_ns;
	double max_ns; /* exact where the source measured it, else the top bucket's bound */
};

uint64_t histogram_slot_low(unsigned int slot);
uint64_t histogram_slot_high(unsigned int slot); /* exclusive */
uint64_t histogram_count(const struct histogram *h);
/* q in [0, 1]; interpolates linearly inside the bucket that holds the q-th value. */
double histogram_quantile(const struct histogram *h, double q);
void histogram_add(struct histogram *h, uint64_t value_ns);
/* out = now - before, slot by slot (cumulative counters to an interval). */
void histogram_delta(struct histogram *out, const struct histogram *now,
		     const struct histogram *before);
void histogram_summarize(const struct histogram *h, double sum_ns, double max_ns,
			 struct latency_summary *out);

#endif
