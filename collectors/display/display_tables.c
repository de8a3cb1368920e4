// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include "collectors/display/display_tables.h"
#include "collectors/kit/cells.h"
#include "core/counter.h"

static const struct col_desc crtc_cols[CRTC_COLS] = {
	[CRTC_ID] = { "crtc", "CRTC", "pipe index of the CRTC on its device", COL_U64, UNIT_NONE, 4,
		      COL_KEY | COL_ASCENDING },
	[CRTC_DEV] = { "dev", "DEVICE", "its device, where a client's DRM file names it", COL_STR, UNIT_NONE, 8, 0 },
	[CRTC_HZ] = { "refresh_hz", "HZ",
		      "measured refresh rate: one over the mean hardware time between consecutive vblanks "
		      "(an interval across a counter gap left out)",
		      COL_F64, UNIT_HZ, 7, COL_HISTORY },
	[CRTC_VBL_PER_S] = { "vblanks_per_s", "VBL/S",
			     "vblank interrupts handled in the interval, per second: whole vblanks, so a "
			     "60 Hz CRTC over 0.5 s reads 58 to 62 (HZ is the exact rate)",
			     COL_F64, UNIT_PER_S, 6, 0 },
	[CRTC_INT_MEAN] = { "interval_mean_ns", "INT avg", "vblank interval, mean (exact)", COL_F64, UNIT_NS, 8,
			    COL_DETAIL },
	[CRTC_INT_P50] = { "interval_p50_ns", "INT p50", "vblank interval, median", COL_F64, UNIT_NS, 8, 0 },
	[CRTC_INT_P99] = { "interval_p99_ns", "INT p99", "vblank interval, 99th percentile", COL_F64, UNIT_NS, 8, 0 },
	[CRTC_INT_MAX] = { "interval_max_ns", "INT max", "longest vblank interval since start", COL_F64, UNIT_NS, 8,
			   0 },
	[CRTC_JITTER] = { "jitter_ns", "JITTER", "standard deviation of the vblank interval", COL_F64, UNIT_NS, 8,
			  COL_HISTORY },
	[CRTC_GAPS] = { "gaps_total", "GAPS", "vblanks the counter skipped while the interrupt was on", COL_U64,
			UNIT_COUNT, 6, 0 },
	[CRTC_GAPS_PER_S] = { "gaps_per_s", "GAPS/S", "counter gaps per second", COL_F64, UNIT_PER_S, 6, COL_DETAIL },
	[CRTC_VBLANKS] = { "vblanks_total", "VBLANKS", "vblank events since start", COL_U64, UNIT_COUNT, 8,
			   COL_DETAIL },
	[CRTC_RESTARTS] = { "restarts_total", "RESTARTS", "times the vblank interrupt came back on", COL_U64,
			    UNIT_COUNT, 8, COL_DETAIL },
};

const struct table_desc display_crtcs = {
	.name = "display.crtcs",
	.title = "CRTCs",
	.empty = "No vblank yet: a CRTC shows up while something waits for its vblanks "
		 "(a compositor, a game, modetest -v).",
	.cols = crtc_cols,
	.ncols = CRTC_COLS,
	.sort_col = CRTC_ID,
};
TABLE_REGISTER(display_crtcs);

static const struct col_desc client_cols[CLIENT_COLS] = {
	[CLIENT_PID] = { "pid", "PID", "process that opened the DRM file (0: the kernel)", COL_U64,
			 UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[CLIENT_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[CLIENT_DEV] = { "dev", "DEVICE", "DRM node of the file (cardN, renderDN)", COL_STR,
			 UNIT_NONE, 8, COL_KEY | COL_ASCENDING },
	[CLIENT_CRTC] = { "crtc", "CRTC", "pipe index of the CRTC", COL_U64, UNIT_NONE, 4,
			  COL_KEY | COL_ASCENDING },
	[CLIENT_ID] = { "client", "CLIENT", "one open DRM file, numbered in order of appearance",
			COL_U64, UNIT_NONE, 6, COL_KEY | COL_DETAIL | COL_ASCENDING },
	[CLIENT_PER_S] = { "events_per_s", "EVENTS/S", "events delivered per second (flips, waits)",
			   COL_F64, UNIT_PER_S, 8, COL_HISTORY },
	[CLIENT_MISSED] = { "missed_total", "MISSED",
			    "frames later than the client's cadence of vblanks", COL_U64,
			    UNIT_COUNT, 6, 0 },
	[CLIENT_MISSED_PER_S] = { "missed_per_s", "MISS/S", "missed frames per second", COL_F64,
				  UNIT_PER_S, 6, COL_HISTORY | COL_DETAIL },
	[CLIENT_INT_P50] = { "interval_p50_ns", "INT p50", "between deliveries, median", COL_F64,
			     UNIT_NS, 8, 0 },
	[CLIENT_INT_P99] = { "interval_p99_ns", "INT p99", "between deliveries, 99th percentile",
			     COL_F64, UNIT_NS, 8, COL_DETAIL },
	[CLIENT_LAT_P50] = { "latency_p50_ns", "LAT p50", "vblank to delivery, median", COL_F64,
			     UNIT_NS, 8, 0 },
	[CLIENT_LAT_P99] = { "latency_p99_ns", "LAT p99", "vblank to delivery, 99th percentile",
			     COL_F64, UNIT_NS, 8, COL_DETAIL },
	[CLIENT_WAIT_P50] = { "queued_p50_ns", "QUEUE p50",
			      "queued to delivered (vblank waits), median", COL_F64, UNIT_NS, 9, 0 },
	[CLIENT_WAIT_P99] = { "queued_p99_ns", "QUEUE p99",
			      "queued to delivered, 99th percentile", COL_F64, UNIT_NS, 9,
			      COL_DETAIL },
	[CLIENT_DELIVERED] = { "delivered_total", "EVENTS", "events delivered since start", COL_U64,
			       UNIT_COUNT, 8, COL_DETAIL },
	[CLIENT_QUEUED] = { "queued_total", "QUEUED", "vblank-wait events queued since start",
			    COL_U64, UNIT_COUNT, 8, COL_DETAIL },
};

const struct table_desc display_clients = {
	.name = "display.clients",
	.title = "Display clients",
	.empty = "No client has had a vblank event delivered yet.",
	.cols = client_cols,
	.ncols = CLIENT_COLS,
	.sort_col = CLIENT_PER_S,
};
TABLE_REGISTER(display_clients);

void display_dev_name(int minor, char *buf, size_t size)
{
	if (minor < 0)
		snprintf(buf, size, "-");
	else if (minor < 64)
		snprintf(buf, size, "card%d", minor);
	else if (minor >= 128 && minor < 192)
		snprintf(buf, size, "renderD%d", minor);
	else
		snprintf(buf, size, "minor%d", minor);
}

void display_crtc_row(struct cell *row, unsigned int crtc, int minor, const struct crtc_stats *now,
		      const struct crtc_stats *before, double interval_s)
{
	double n = (double)counter_delta(now->intervals, before->intervals);
	double sum_ns = (double)counter_delta(now->interval_sum_ns, before->interval_sum_ns);
	struct latency_summary q;
	char dev[16];

	cell_set_u64(row, CRTC_ID, crtc);
	if (minor >= 0) {
		display_dev_name(minor, dev, sizeof(dev));
		cell_set_str(row, CRTC_DEV, dev);
	}
	/*
	 * Consecutive vblanks only: across a gap (vblank off, then on) the kernel
	 * estimates the counter's jump from the time, which would bend the rate.
	 */
	if (n > 0 && sum_ns > 0)
		cell_set_f64(row, CRTC_HZ, n / (sum_ns / 1e9));
	cell_set_rate(row, CRTC_VBL_PER_S, now->vblanks, before->vblanks, interval_s);
	cells_set_quantiles(row, CRTC_INT_P50, CRTC_INT_P99, now->interval_hist,
			    before->interval_hist, now->interval_sum_ns, before->interval_sum_ns,
			    now->intervals ? (double)now->interval_max_ns : 0, &q);
	if (q.count)
		cell_set_f64(row, CRTC_INT_MEAN, q.mean_ns);
	if (now->intervals)
		cell_set_f64(row, CRTC_INT_MAX, (double)now->interval_max_ns);
	if (n >= 2) {
		double sum_us = sum_ns / 1e3;
		double sq = (double)counter_delta(now->interval_sq_us, before->interval_sq_us);

		double sd_ns = sqrt(fmax(0, sq / n - (sum_us / n) * (sum_us / n))) * 1e3;

		cell_set_f64(row, CRTC_JITTER, sd_ns);
		/* what the exact mean and deviation allow (1 us: the squares are of whole us) */
		latency_clamp_sd(&q, sd_ns, 1e3);
		if (q.count) {
			cell_set_f64(row, CRTC_INT_P50, q.p50_ns);
			cell_set_f64(row, CRTC_INT_P99, q.p99_ns);
		}
	}
	cell_set_u64(row, CRTC_GAPS, now->gaps);
	cell_set_rate(row, CRTC_GAPS_PER_S, now->gaps, before->gaps, interval_s);
	cell_set_u64(row, CRTC_VBLANKS, now->vblanks);
	cell_set_u64(row, CRTC_RESTARTS, now->restarts);
}

void display_client_row(struct cell *row, const struct client_key *k, uint64_t id, const char *comm,
			const struct client_stats *now, const struct client_stats *before,
			double interval_s)
{
	char dev[16];

	cell_set_u64(row, CLIENT_PID, now->pid);
	cell_set_str(row, CLIENT_COMM, comm);
	if (now->minor >= 0) {
		display_dev_name(now->minor, dev, sizeof(dev));
		cell_set_str(row, CLIENT_DEV, dev);
	}
	cell_set_u64(row, CLIENT_CRTC, (uint64_t)k->crtc);
	cell_set_u64(row, CLIENT_ID, id);
	cell_set_rate(row, CLIENT_PER_S, now->delivered, before->delivered, interval_s);
	cell_set_u64(row, CLIENT_MISSED, now->missed);
	cell_set_rate(row, CLIENT_MISSED_PER_S, now->missed, before->missed, interval_s);
	cells_set_quantiles(row, CLIENT_INT_P50, CLIENT_INT_P99, now->interval_hist,
			    before->interval_hist, now->interval_sum_ns, before->interval_sum_ns, 0, NULL);
	cells_set_quantiles(row, CLIENT_LAT_P50, CLIENT_LAT_P99, now->latency_hist,
			    before->latency_hist, now->latency_sum_ns, before->latency_sum_ns, 0, NULL);
	cells_set_quantiles(row, CLIENT_WAIT_P50, CLIENT_WAIT_P99, now->wait_hist, before->wait_hist,
			    now->wait_sum_ns, before->wait_sum_ns, 0, NULL);
	cell_set_u64(row, CLIENT_DELIVERED, now->delivered);
	cell_set_u64(row, CLIENT_QUEUED, now->queued);
}
