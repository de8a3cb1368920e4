// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/counter.h"
#include <math.h>
#include "model/histogram.h"

uint64_t histogram_slot_low(unsigned int slot)
{
	unsigned int msb, sub;

	if (slot < HIST_SUB)
		return slot;
	msb = slot / HIST_SUB + HIST_SUB_BITS - 1;
	sub = slot % HIST_SUB;
	return (1ULL << msb) + ((uint64_t)sub << (msb - HIST_SUB_BITS));
}

uint64_t histogram_slot_high(unsigned int slot)
{
	if (slot + 1 >= HIST_SLOTS)
		return 1ULL << HIST_MAX_LOG2;
	return histogram_slot_low(slot + 1);
}

uint64_t histogram_count(const struct histogram *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < HIST_SLOTS; i++)
		n += h->slots[i];
	return n;
}

double histogram_quantile(const struct histogram *h, double q)
{
	uint64_t total = histogram_count(h), seen = 0;
	double rank;

	if (!total)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	rank = q * (double)total;
	if (rank < 1)
		rank = 1;
	for (unsigned int i = 0; i < HIST_SLOTS; i++) {
		uint64_t n = h->slots[i];
		double lo, hi;

		if (!n)
			continue;
		if ((double)(seen + n) >= rank) {
			lo = (double)histogram_slot_low(i);
			hi = (double)histogram_slot_high(i);
			return lo + (hi - lo) * ((rank - (double)seen) / (double)n);
		}
		seen += n;
	}
	return (double)histogram_slot_high(HIST_SLOTS - 1);
}

void histogram_add(struct histogram *h, uint64_t value_ns)
{
	h->slots[hist_slot(value_ns)]++;
}

void histogram_delta(struct histogram *out, const struct histogram *now,
		     const struct histogram *before)
{
	for (unsigned int i = 0; i < HIST_SLOTS; i++)
		out->slots[i] = counter_delta(now->slots[i], before->slots[i]);
}

/*
 * Every value is at most max, so at most the share (max - mean) / (max - v) of
 * them lies below v (Markov's inequality on max - value): the q-quantile is at
 * least max - (max - mean) / q. Equal values give equal quantiles.
 */
static double floor_by_max(double q, double mean, double max)
{
	return max - (max - mean) / q;
}

void histogram_summarize(const struct histogram *h, double sum_ns, double max_ns,
			 struct latency_summary *out)
{
	double cap;

	out->count = histogram_count(h);
	if (!out->count) {
		*out = (struct latency_summary){ 0 };
		return;
	}
	out->mean_ns = sum_ns / (double)out->count;
	out->p50_ns = histogram_quantile(h, 0.50);
	out->p90_ns = histogram_quantile(h, 0.90);
	out->p99_ns = histogram_quantile(h, 0.99);
	if (max_ns <= 0) {
		for (unsigned int i = HIST_SLOTS; i-- > 0;)
			if (h->slots[i]) {
				max_ns = (double)histogram_slot_high(i);
				break;
			}
	}
	out->max_ns = max_ns;
	/*
	 * Interpolation never reports a quantile above the measured maximum, nor
	 * above the sum of the values (no value exceeds it); one value is its sum.
	 */
	cap = sum_ns > 0 && sum_ns < max_ns ? sum_ns : max_ns;
	if (out->count == 1 && sum_ns > 0)
		out->p50_ns = out->p90_ns = out->p99_ns = sum_ns;
	if (sum_ns > 0) {
		out->p50_ns = fmax(out->p50_ns, floor_by_max(0.50, out->mean_ns, max_ns));
		out->p90_ns = fmax(out->p90_ns, floor_by_max(0.90, out->mean_ns, max_ns));
		out->p99_ns = fmax(out->p99_ns, floor_by_max(0.99, out->mean_ns, max_ns));
	}
	out->p50_ns = fmin(out->p50_ns, cap);
	out->p90_ns = fmin(out->p90_ns, cap);
	out->p99_ns = fmin(out->p99_ns, cap);
}

static double clamp_quantile(double v, double q, double mean, double sd)
{
	double lo = mean - sd * sqrt((1 - q) / q), hi = mean + sd * sqrt(q / (1 - q));

	return v < lo ? lo : v > hi ? hi : v;
}

void latency_clamp_sd(struct latency_summary *s, double sd_ns, double slack_ns)
{
	double sd = sd_ns + slack_ns;

	if (!s->count || !(sd >= 0))
		return;
	s->p50_ns = clamp_quantile(s->p50_ns, 0.50, s->mean_ns, sd);
	s->p90_ns = clamp_quantile(s->p90_ns, 0.90, s->mean_ns, sd);
	s->p99_ns = clamp_quantile(s->p99_ns, 0.99, s->mean_ns, sd);
}
