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

/* A quantile line: label, p50, p90, p99, max, count; p90 the first left out where narrow. */
static void stat_line(int y, struct rect a, const struct table *t, size_t row, const char *base,
		      const char *what)
{
	static const char *const q[] = { "p50", "p90", "p99", "max" };
	char key[64], v[16], parts[6][48];
	double count;
	int n = 0, right = a.x + a.w - 1;

	snprintf(parts[n++], sizeof(parts[0]), "%-22s", what);
	for (int i = 0; i < 4; i++) {
		if (i == 1 && a.w - 2 < 22 + 4 * 14)
			continue;
		snprintf(key, sizeof(key), "%s.%s", base, q[i]);
		snprintf(parts[n++], sizeof(parts[0]), " %s %8s ", q[i], ns(t, row, key, v, sizeof(v)));
	}
	snprintf(key, sizeof(key), "%s.count", base);
	count = table_num(t, row, key);
	snprintf(parts[n++], sizeof(parts[0]), " (%.0f jobs)", isnan(count) ? 0 : count);
	put_columns(y, a.x + 1, right, ROLE_NORMAL, ROLE_NORMAL, parts, n);
}

/* The non-empty range of h: its first and last slots with a count; false when none. */
static bool hist_range(const struct histogram *h, int *lo, int *hi)
{
	*lo = *hi = -1;
	for (int i = 0; h && i < HIST_SLOTS; i++)
		if (h->slots[i]) {
			if (*lo < 0)
				*lo = i;
			*hi = i;
		}
	return *lo >= 0;
}

/* Where slot i ends, as a label: the last slot's at the exact max where it is known and inside it. */
static double slot_end(int i, double max_ns)
{
	double end = (double)histogram_slot_high((unsigned int)i);

	return !isnan(max_ns) && max_ns >= (double)histogram_slot_low((unsigned int)i) && max_ns < end ? max_ns : end;
}

/*
 * A histogram in one line, for when there is no room for its bars: columns
 * from the range's low end to its high end on the histogram's log scale (a
 * slot, or several merged to fit), as high as their count beside the largest,
 * an empty one the lowest glyph; then the total.
 */
static void draw_histogram_line(struct view *v, int y, struct rect a, const struct histogram *h, int lo,
				int hi, double max_ns)
{
	char from[16], to[16], cols[HIST_SLOTS * 8], total[48];
	double counts[HIST_SLOTS] = { 0 };
	uint64_t sum = 0;
	int n = hi - lo + 1, x = a.x + 2, room, per, ncols;

	format_ns((double)histogram_slot_low((unsigned int)lo), from, sizeof(from));
	format_ns(slot_end(hi, max_ns), to, sizeof(to));
	for (int i = lo; i <= hi; i++)
		sum += h->slots[i];
	snprintf(total, sizeof(total), "  %llu jobs, log scale", (unsigned long long)sum);
	room = a.w - 2 - (int)strlen(from) - (int)strlen(to) - 2 - (int)strlen(total);
	if (room < 8) { /* the total goes before the columns do */
		total[0] = '\0';
		room = a.w - 2 - (int)strlen(from) - (int)strlen(to) - 2;
	}
	if (room < 1)
		return;
	per = (n + room - 1) / room;
	ncols = (n + per - 1) / per;
	for (int i = 0; i < n; i++)
		counts[i / per] += (double)h->slots[lo + i];
	sparkline_render(counts, (size_t)ncols, (size_t)ncols, 0, v->utf8, cols, sizeof(cols));
	x += putf(y, x, a.x + a.w - x, ROLE_LABEL, "%s ", from);
	x += put(y, x, a.x + a.w - x, ROLE_METER_MID, cols);
	x += putf(y, x, a.x + a.w - x, ROLE_LABEL, " %s", to);
	put_whole(y, x, a.x + a.w - x, ROLE_DIM, total);
}

/*
 * A histogram as horizontal bars: the non-empty range in at most `rows` rows;
 * in one line (draw_histogram_line) where fewer than three rows of bars fit.
 */
static void draw_histogram(struct view *v, struct rect a, const char *title, const struct histogram *h,
			   double max_ns)
{
	int lo, hi, rows = a.h - 1, per;
	uint64_t peak = 0, bucket[64] = { 0 };

	put_whole(a.y, a.x, a.w, ROLE_TITLE, title);
	if (!hist_range(h, &lo, &hi) || rows < 1) {
		put(a.y + 1, a.x, a.w, ROLE_DIM, "no job measured yet");
		return;
	}
	if (rows < 3 && hi > lo + rows - 1) {
		draw_histogram_line(v, a.y + 1, a, h, lo, hi, max_ns);
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
			       format_ns(last == hi ? slot_end(hi, max_ns) : (double)histogram_slot_high((unsigned int)last),
					 to, sizeof(to)));
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

/* The ring's counts, depths and dependency waits, each part whole, in up to a.h rows; returns the rows used. */
static int ring_counts(const struct table *t, size_t r, struct rect a)
{
	char p[9][64], rate[16];
	const char *parts[9];

	snprintf(p[0], sizeof(p[0]), "jobs queued %.0f", num_or_0(t, r, "queued_total"));
	snprintf(p[1], sizeof(p[1]), "started %.0f", num_or_0(t, r, "started_total"));
	snprintf(p[2], sizeof(p[2]), "completed %.0f", num_or_0(t, r, "completed_total"));
	snprintf(p[3], sizeof(p[3]), "%s done/s",
		 fmt_rate(num_or_0(t, r, "completed_per_s"), rate, sizeof(rate)));
	snprintf(p[4], sizeof(p[4]), "busy %.1f%%", num_or_0(t, r, "busy_pct"));
	snprintf(p[5], sizeof(p[5]), "queue depth %.0f (max %.0f)", num_or_0(t, r, "queue_depth"),
		 num_or_0(t, r, "queue_depth_max"));
	snprintf(p[6], sizeof(p[6]), "in flight %.0f (max %.0f)", num_or_0(t, r, "in_flight"),
		 num_or_0(t, r, "in_flight_max"));
	snprintf(p[7], sizeof(p[7]), "dependency waits %.0f (%.1f/s)", num_or_0(t, r, "dep_waits_total"),
		 num_or_0(t, r, "dep_waits_per_s"));
	if (isnan(table_num(t, r, "deps_total")))
		snprintf(p[8], sizeof(p[8]), "declared dependencies - (kernel < 6.17)");
	else
		snprintf(p[8], sizeof(p[8]), "declared dependencies %.0f", table_num(t, r, "deps_total"));
	for (int i = 0; i < 9; i++)
		parts[i] = p[i];
	return put_parts(a, ROLE_NORMAL, parts, 9, 3);
}

/* Whether row k of drm_sched.process_rings is of ring r of t. */
static bool of_ring(const struct table *pr, size_t k, const struct table *t, size_t r)
{
	return !strcmp(table_str(pr, k, "name"), table_str(t, r, "name")) &&
	       !strcmp(table_str(pr, k, "dev"), table_str(t, r, "dev"));
}

/* The ring's queue wait and execution histograms since the start in h lines from y: side by side where wide. */
static void ring_histograms(struct view *v, const struct table *t, size_t r, struct rect a, int y, int h)
{
	if (a.w >= 100) {
		int half = (a.w - 3) / 2;

		draw_histogram(v, (struct rect){ y, a.x + 1, h, half }, "Queue wait since start (jobs)",
			       hist(t, r, "wait_hist_total"), table_num(t, r, "wait_ns_total.max"));
		draw_histogram(v, (struct rect){ y, a.x + 2 + half, h, half }, "Execution since start (jobs)",
			       hist(t, r, "exec_hist_total"), table_num(t, r, "exec_ns_total.max"));
	} else {
		draw_histogram(v, (struct rect){ y, a.x + 1, h / 2, a.w - 2 }, "Queue wait since start (jobs)",
			       hist(t, r, "wait_hist_total"), table_num(t, r, "wait_ns_total.max"));
		draw_histogram(v, (struct rect){ y + h / 2, a.x + 1, h - h / 2, a.w - 2 },
			       "Execution since start (jobs)", hist(t, r, "exec_hist_total"),
			       table_num(t, r, "exec_ns_total.max"));
	}
}

/* The ring's processes from y (pr: drm_sched.process_rings), above line end less overlap lines; the next y. */
static int ring_processes(struct view *v, const struct table *t, size_t r, const struct table *pr, struct rect a, int y,
			  int on_ring, int end)
{
	const struct table *procs = snapshot_table(v->snap, "drm_sched.processes");
	char rate[16], parts[4][48];
	double listed = 0;

	if (y + 1 >= end) { /* no room for a row below a heading: the count alone */
		if (y < end)
			putf(y++, a.x + 1, a.w - 2, ROLE_TITLE,
			     "Processes on this ring: %d (a taller terminal lists %s)", on_ring,
			     on_ring == 1 ? "it" : "them");
		return y;
	}
	put(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Processes on this ring");
	if (!on_ring) {
		char none[200];
		double done = num_or_0(t, r, "completed_total");

		if (done > 0)
			snprintf(none, sizeof(none),
				 "None now: its %.0f jobs since the start came from processes that have "
				 "exited or stopped submitting.",
				 done);
		else
			snprintf(none, sizeof(none), "None: no process has had a job on this ring since the start.");
		y += put_wrapped((struct rect){ y, a.x + 1, end - y, a.w - 2 }, ROLE_DIM, none);
	}
	for (size_t k = 0; pr && k < pr->nrows && on_ring; k++) /* the jobs of those it lists */
		listed += of_ring(pr, k, t, r) ? num_or_0(pr, k, "jobs_total") : 0;
	for (size_t k = 0; pr && k < pr->nrows && y < end; k++) {
		double pid = table_num(pr, k, "pid");
		const char *comm = "?";

		if (!of_ring(pr, k, t, r))
			continue;
		for (size_t j = 0; procs && j < procs->nrows; j++)
			if (table_num(procs, j, "pid") == pid)
				comm = table_str(procs, j, "comm");
		snprintf(parts[0], sizeof(parts[0]), "%7.0f %-16s", pid, comm);
		snprintf(parts[1], sizeof(parts[1]), " %7s subm/s",
			 fmt_rate(num_or_0(pr, k, "jobs_per_s"), rate, sizeof(rate)));
		snprintf(parts[2], sizeof(parts[2]), "  GPU %5.1f%%", num_or_0(pr, k, "gpu_pct"));
		snprintf(parts[3], sizeof(parts[3]), "  %.0f submitted", num_or_0(pr, k, "jobs_total"));
		put_columns(y++, a.x + 1, a.x + a.w - 1, ROLE_NORMAL, ROLE_NORMAL, parts, 4);
	}
	if (on_ring && num_or_0(t, r, "queued_total") > listed && y < end) { /* the ring's other jobs: said whose */
		char rest[160];

		snprintf(rest, sizeof(rest), "and %.0f jobs of processes not listed now (exited or stopped submitting)",
			 num_or_0(t, r, "queued_total") - listed);
		y += put_whole(y, a.x + 1, a.w - 2, ROLE_DIM, rest) ? 1 : 0;
	}
	return y;
}

static void draw_ring(struct view *v, const struct table *t, long row, struct rect a)
{
	const struct table *pr = snapshot_table(v->snap, "drm_sched.process_rings");
	int y = a.y, hist_h, on_ring = 0, overlap;
	double gpu_sum = 0;
	size_t r = (size_t)row;

	clear_rect(a);
	if (row < 0) {
		draw_drill_gone(v, a, "Ring", "This ring is not in the current snapshot.");
		return;
	}
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Ring %s on %s   (Esc goes back)", table_str(t, r, "name"),
	     table_str(t, r, "dev")[0] ? table_str(t, r, "dev") : "an unnamed device");
	y += ring_counts(t, r, (struct rect){ y, a.x + 1, 3, a.w - 2 });
	stat_line(y++, a, t, r, "wait_ns", "queue wait, interval");
	stat_line(y++, a, t, r, "wait_ns_total", "queue wait, all");
	stat_line(y++, a, t, r, "exec_ns", "execution, interval");
	stat_line(y++, a, t, r, "exec_ns_total", "execution, all");
	y++;
	for (size_t k = 0; pr && k < pr->nrows; k++) { /* how many, and their GPU % over the ring's busy % */
		if (!of_ring(pr, k, t, r))
			continue;
		on_ring++;
		gpu_sum += num_or_0(pr, k, "gpu_pct");
	}
	overlap = on_ring > 1 && gpu_sum > num_or_0(t, r, "busy_pct") + 0.05;
	hist_h = a.h - (y - a.y) - 7 - overlap; /* a line for the note on the processes' GPU % */
	if (hist_h >= 3) {
		ring_histograms(v, t, r, a, y, hist_h);
		y += hist_h;
	}
	/* the processes keep the bottom's 4 lines for the sparks where a heading, a row and they fit */
	y = ring_processes(v, t, r, pr, a, y, on_ring, a.y + a.h - (y + 6 <= a.y + a.h ? 4 : 0) - overlap);
	if (overlap && y < a.y + a.h - 4 &&
	    !put_whole(y, a.x + 1, a.w - 2, ROLE_DIM,
		       "GPU %: time with one of its jobs running; jobs of several processes run at once"))
		put_whole(y, a.x + 1, a.w - 2, ROLE_DIM, "GPU %: its jobs running; several processes' run at once");
	y += overlap && y < a.y + a.h - 4;
	if (y + 4 <= a.y + a.h) {
		y = a.y + a.h - 4;
		draw_spark_row(v, y++, a, "done/s", t, r, "completed_per_s");
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
