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
/*
 * The quantiles brought within what the exact mean and standard deviation allow
 * (Cantelli's inequality: the q-quantile lies in [mean - sd * sqrt((1 - q) / q),
 * mean + sd * sqrt(q / (1 - q))]), sd widened by slack_ns for its rounding:
 * equal values give their value, not a bucket's interpolation.
 */
void latency_clamp_sd(struct latency_summary *s, double sd_ns, double slack_ns);

#endif
