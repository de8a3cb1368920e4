// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The main screen's tables: the DRM scheduler's rings above the processes of
 * every GPU (gpu.processes, merged from every source). Enter on a ring opens
 * its pane (counts, depths, latency quantiles, both histograms as bars, the
 * processes on it, sparklines); Enter on a process opens process_drill.c.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/histogram.h"
#include "model/histories.h"
#include "format/cell_format.h"
#include "tui/draw.h"
#include "tui/sparkline.h"

/* A duration cell: "-" when unknown. */
static const char *ns(const struct table *t, size_t row, const char *key, char *buf, size_t size)
{
	double v = table_num(t, row, key);

	if (!isnan(v))
		return format_duration_ns(v, buf, size);
	snprintf(buf, size, "-");
	return buf;
}

static void stat_line(int y, struct rect a, const struct table *t, size_t row, const char *base,
		      const char *what)
{
	char key[64], p50[16], p90[16], p99[16], max[16];
	double count;

	snprintf(key, sizeof(key), "%s.count", base);
	count = table_num(t, row, key);
#define Q(q, buf) (snprintf(key, sizeof(key), "%s." q, base), ns(t, row, key, buf, sizeof(buf)))
	putf(y, a.x + 1, a.w - 2, ROLE_NORMAL, "%-22s p50 %8s  p90 %8s  p99 %8s  max %8s  (%.0f)", what,
	     Q("p50", p50), Q("p90", p90), Q("p99", p99), Q("max", max), isnan(count) ? 0 : count);
#undef Q
}

/* A histogram as horizontal bars: the non-empty range in at most `rows` rows. */
static void draw_histogram(struct view *v, struct rect a, const char *title, const struct histogram *h)
{
	int lo = -1, hi = -1, rows = a.h - 1, per;
	uint64_t peak = 0, bucket[64] = { 0 };

	put(a.y, a.x, a.w, ROLE_TITLE, title);
	for (int i = 0; h && i < HIST_SLOTS; i++)
		if (h->slots[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	if (lo < 0 || rows < 1) {
		put(a.y + 1, a.x, a.w, ROLE_DIM, "no job measured yet");
		return;
	}
	if (rows > 64)
		rows = 64;
	per = (hi - lo + 1 + rows - 1) / rows;
	rows = (hi - lo + 1 + per - 1) / per;
	for (int i = lo; i <= hi; i++)
		bucket[(i - lo) / per] += h->slots[i];
	for (int r = 0; r < rows; r++)
		if (bucket[r] > peak)
			peak = bucket[r];
	for (int r = 0; r < rows; r++) {
		char from[16], to[16], bar[512];
		int first = lo + r * per, last = first + per - 1, x, bw;
		double frac = peak ? (double)bucket[r] / (double)peak : 0;
		enum role role = frac > 0.66 ? ROLE_METER_HIGH : frac > 0.33 ? ROLE_METER_MID :
									  ROLE_METER_LOW;

		if (last > hi)
			last = hi;
		x = a.x + putf(a.y + 1 + r, a.x, a.w, ROLE_LABEL, "%8s-%-8s ",
			       format_ns((double)histogram_slot_low((unsigned int)first), from, sizeof(from)),
			       format_ns((double)histogram_slot_high((unsigned int)last), to, sizeof(to)));
		bw = a.w - (x - a.x) - 10;
		if (bw < 1)
			continue;
		bar_render(frac, (size_t)bw, v->utf8, bar, sizeof(bar));
		x += put(a.y + 1 + r, x, bw, role, bar);
		putf(a.y + 1 + r, a.x + a.w - 9, 9, ROLE_VALUE, "%8llu", (unsigned long long)bucket[r]);
	}
}

static const struct histogram *hist(const struct table *t, size_t row, const char *key)
{
	int col = table_col(t->desc, key);
	const struct cell *c = col < 0 ? NULL : table_cell(t, row, (unsigned int)col);

	return c && c->known && t->desc->cols[col].type == COL_HIST ? c->h : NULL;
}

static void draw_ring(struct view *v, const struct table *t, long row, struct rect a)
{
	const struct table *pr = snapshot_table(v->snap, "drm_sched.process_rings");
	const struct table *procs = snapshot_table(v->snap, "drm_sched.processes");
	char rate[16], deps[32];
	int y = a.y, hist_h, half;
	size_t r = (size_t)row;

	clear_rect(a);
	if (row < 0) {
		draw_drill_gone(v, a, "Ring", "This ring is not in the current snapshot.");
		return;
	}
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Ring %s on %s   (Esc goes back)",
	     table_str(t, r, "name"),
	     table_str(t, r, "dev")[0] ? table_str(t, r, "dev") : "an unnamed device");
	putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL,
	     "jobs queued %.0f  started %.0f  completed %.0f   %s/s   busy %.1f%%",
	     num_or_0(t, r, "queued_total"), num_or_0(t, r, "started_total"), num_or_0(t, r, "completed_total"),
	     fmt_rate(num_or_0(t, r, "completed_per_s"), rate, sizeof(rate)), num_or_0(t, r, "busy_pct"));
	if (isnan(table_num(t, r, "deps_total")))
		snprintf(deps, sizeof(deps), "- (kernel < 6.17)");
	else
		snprintf(deps, sizeof(deps), "%.0f", table_num(t, r, "deps_total"));
	putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL,
	     "queue depth %.0f (max %.0f)   in flight %.0f (max %.0f)   dependency waits %.0f (%.1f/s)   declared %s",
	     num_or_0(t, r, "queue_depth"), num_or_0(t, r, "queue_depth_max"), num_or_0(t, r, "in_flight"),
	     num_or_0(t, r, "in_flight_max"), num_or_0(t, r, "dep_waits_total"), num_or_0(t, r, "dep_waits_per_s"),
	     deps);
	stat_line(y++, a, t, r, "wait_ns", "queue wait, interval");
	stat_line(y++, a, t, r, "wait_ns_total", "queue wait, all");
	stat_line(y++, a, t, r, "exec_ns", "execution, interval");
	stat_line(y++, a, t, r, "exec_ns_total", "execution, all");
	y++;
	hist_h = a.h - (y - a.y) - 7;
	if (hist_h >= 3) {
		if (a.w >= 100) {
			half = (a.w - 3) / 2;
			draw_histogram(v, (struct rect){ y, a.x + 1, hist_h, half },
				       "Queue wait since start", hist(t, r, "wait_hist_total"));
			draw_histogram(v, (struct rect){ y, a.x + 2 + half, hist_h, half },
				       "Execution since start", hist(t, r, "exec_hist_total"));
		} else {
			draw_histogram(v, (struct rect){ y, a.x + 1, hist_h / 2, a.w - 2 },
				       "Queue wait since start", hist(t, r, "wait_hist_total"));
			draw_histogram(v, (struct rect){ y + hist_h / 2, a.x + 1, hist_h - hist_h / 2,
							 a.w - 2 },
				       "Execution since start", hist(t, r, "exec_hist_total"));
		}
		y += hist_h;
	}
	if (y < a.y + a.h)
		put(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Processes on this ring");
	for (size_t k = 0; pr && k < pr->nrows && y < a.y + a.h - 4; k++) {
		double pid = table_num(pr, k, "pid");
		const char *comm = "?";

		if (strcmp(table_str(pr, k, "name"), table_str(t, r, "name")) ||
		    strcmp(table_str(pr, k, "dev"), table_str(t, r, "dev")))
			continue;
		for (size_t j = 0; procs && j < procs->nrows; j++)
			if (table_num(procs, j, "pid") == pid)
				comm = table_str(procs, j, "comm");
		putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL, "%7.0f %-16s %7s jobs/s  GPU %5.1f%%  %.0f jobs",
		     pid, comm, fmt_rate(num_or_0(pr, k, "jobs_per_s"), rate, sizeof(rate)),
		     num_or_0(pr, k, "gpu_pct"), num_or_0(pr, k, "jobs_total"));
	}
	if (y + 4 <= a.y + a.h) {
		y = a.y + a.h - 4;
		draw_spark_row(v, y++, a, "jobs/s", t, r, "completed_per_s");
		draw_spark_row(v, y++, a, "exec p50", t, r, "exec_ns.p50");
		draw_spark_row(v, y++, a, "wait p50", t, r, "wait_ns.p50");
		draw_spark_row(v, y++, a, "busy %", t, r, "busy_pct");
	}
}

static const struct pane_decl sched_pane = {
	.collector = "drm_sched",
	.screen = SCREEN_MAIN,
	.title = "Overview",
	.tables = { "drm_sched.rings", "gpu.processes" },
	.drill = { draw_ring, draw_process_drill },
	.side = SIDE_NONE,
};
PANE_REGISTER(sched_pane);
