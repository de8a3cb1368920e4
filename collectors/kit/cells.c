// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "collectors/kit/cells.h"
#include "core/counter.h"

void cell_set_rate(struct cell *row, unsigned int col, uint64_t now, uint64_t before,
		   double interval_s)
{
	cell_set_f64(row, col, counter_rate(now, before, interval_s));
}

void cell_set_pct(struct cell *row, unsigned int col, uint64_t now_ns, uint64_t before_ns,
		  double interval_s)
{
	cell_set_f64(row, col, counter_pct(now_ns, before_ns, interval_s));
}

void cells_set_quantiles(struct cell *row, unsigned int p50, unsigned int p99,
			 const __u64 *now_hist, const __u64 *before_hist, uint64_t now_sum_ns,
			 uint64_t before_sum_ns, double max_ns, struct latency_summary *out)
{
	struct histogram a, b, d;
	struct latency_summary local;

	if (!out)
		out = &local;
	memcpy(a.slots, now_hist, sizeof(a.slots));
	memcpy(b.slots, before_hist, sizeof(b.slots));
	histogram_delta(&d, &a, &b);
	histogram_summarize(&d, (double)counter_delta(now_sum_ns, before_sum_ns), max_ns, out);
	if (!out->count)
		return;
	cell_set_f64(row, p50, out->p50_ns);
	cell_set_f64(row, p99, out->p99_ns);
}
