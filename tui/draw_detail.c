// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Drill-down panes (a ring, a process), vendor panes, the help overlay, the sort menu. */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "draw.h"
#include "rows.h"
#include "sparkline.h"

static void clear_area(struct rect a)
{
	for (int i = 0; i < a.h; i++)
		fill(a.y + i, a.x, a.w, ROLE_NORMAL);
}

static int stat_line(int y, struct rect a, const struct latency_summary *l, const char *what)
{
	char p50[16], p90[16], p99[16], max[16];

	return putf(y, a.x + 1, a.w - 2, ROLE_NORMAL, "%-22s p50 %8s  p90 %8s  p99 %8s  max %8s  (%llu)",
		    what, format_ns(l->p50_ns, p50, sizeof(p50)), format_ns(l->p90_ns, p90, sizeof(p90)),
		    format_ns(l->p99_ns, p99, sizeof(p99)), format_ns(l->max_ns, max, sizeof(max)),
		    (unsigned long long)l->count);
}

/* A histogram as horizontal bars: the non-empty range in at most `rows` rows. */
static void draw_histogram(struct view *v, struct rect a, const char *title, const struct histogram *h)
{
	int lo = -1, hi = -1, rows = a.h - 1, per;
	uint64_t peak = 0, bucket[64] = { 0 };

	put(a.y, a.x, a.w, ROLE_TITLE, title);
	for (int i = 0; i < HIST_SLOTS; i++)
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

static const struct ring_snap *find_ring(const struct snapshot *s, const char *dev, const char *name,
					 size_t *idx)
{
	for (size_t i = 0; s && i < s->nrings; i++)
		if (!strcmp(s->rings[i].dev, dev) && !strcmp(s->rings[i].name, name)) {
			*idx = i;
			return &s->rings[i];
		}
	return NULL;
}

static void spark_row(struct view *v, int y, struct rect a, const char *label, const struct history *h)
{
	double vals[HISTORY_LEN];
	char spark[512];
	size_t n = history_read(h, vals, HISTORY_LEN);
	int x = a.x + 1 + putf(y, a.x + 1, a.w, ROLE_LABEL, "%-10s", label);

	sparkline_render(vals, n, (size_t)(a.w - (x - a.x) - 1), 0, v->utf8, spark, sizeof(spark));
	put(y, x, a.w - (x - a.x), ROLE_SPARK, spark);
}

void draw_ring_detail(struct view *v, struct rect a)
{
	const struct snapshot *s = v->snap;
	size_t idx = 0;
	const struct ring_snap *g = find_ring(s, v->detail_dev, v->detail_ring, &idx);
	char rate[16];
	int y = a.y, hist_h, half;

	clear_area(a);
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Ring %s on %s   (Esc goes back)", v->detail_ring,
	     v->detail_dev[0] ? v->detail_dev : "an unnamed device");
	if (!g) {
		put(y, a.x + 1, a.w - 2, ROLE_WARNING, "This ring is not in the current snapshot.");
		return;
	}
	putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL,
	     "jobs queued %llu  started %llu  completed %llu   %s/s   busy %.1f%%",
	     (unsigned long long)g->queued_total, (unsigned long long)g->started_total,
	     (unsigned long long)g->completed_total, fmt_rate(g->completed_per_s, rate, sizeof(rate)),
	     g->busy_pct);
	putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL,
	     "queue depth %u (max %u)   in flight %u (max %u)   dependency waits %llu (%.1f/s)   declared %llu",
	     g->queue_depth, g->queue_depth_max, g->in_flight, g->in_flight_max,
	     (unsigned long long)g->dep_waits_total, g->dep_waits_per_s, (unsigned long long)g->deps_total);
	stat_line(y++, a, &g->wait, "queue wait, interval");
	stat_line(y++, a, &g->wait_total, "queue wait, all");
	stat_line(y++, a, &g->exec, "execution, interval");
	stat_line(y++, a, &g->exec_total, "execution, all");
	y++;
	hist_h = a.h - (y - a.y) - 7;
	if (hist_h >= 3) {
		if (a.w >= 100) {
			half = (a.w - 3) / 2;
			draw_histogram(v, (struct rect){ y, a.x + 1, hist_h, half },
				       "Queue wait since start", &g->wait_hist);
			draw_histogram(v, (struct rect){ y, a.x + 2 + half, hist_h, half },
				       "Execution since start", &g->exec_hist);
			y += hist_h;
		} else {
			draw_histogram(v, (struct rect){ y, a.x + 1, hist_h / 2, a.w - 2 },
				       "Queue wait since start", &g->wait_hist);
			draw_histogram(v, (struct rect){ y + hist_h / 2, a.x + 1, hist_h - hist_h / 2, a.w - 2 },
				       "Execution since start", &g->exec_hist);
			y += hist_h;
		}
	}
	if (y < a.y + a.h)
		put(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Processes on this ring");
	for (size_t k = 0; s && k < s->nproc_rings && y < a.y + a.h - 4; k++) {
		const struct proc_ring_snap *pr = &s->proc_rings[k];
		const char *comm = "?";

		if (pr->ring != idx)
			continue;
		for (size_t j = 0; j < s->nprocs; j++)
			if (s->procs[j].pid == pr->pid)
				comm = s->procs[j].comm;
		putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL, "%7u %-16s %7s jobs/s  GPU %5.1f%%  %llu jobs",
		     pr->pid, comm, fmt_rate(pr->jobs_per_s, rate, sizeof(rate)), pr->gpu_pct,
		     (unsigned long long)pr->jobs_total);
	}
	if (y + 4 <= a.y + a.h) {
		y = a.y + a.h - 4;
		spark_row(v, y++, a, "jobs/s", &g->hist_completed_per_s);
		spark_row(v, y++, a, "exec p50", &g->hist_exec_p50_ns);
		spark_row(v, y++, a, "wait p50", &g->hist_wait_p50_ns);
		spark_row(v, y++, a, "busy %", &g->hist_busy_pct);
	}
}

void draw_proc_detail(struct view *v, struct rect a)
{
	const struct snapshot *s = v->snap;
	const struct proc_snap *p = NULL;
	char rate[16], wait[16], gpu[16];
	int y = a.y;

	clear_area(a);
	for (size_t i = 0; s && i < s->nprocs; i++)
		if (s->procs[i].pid == v->detail_pid)
			p = &s->procs[i];
	if (!p) {
		putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Process %u   (Esc goes back)", v->detail_pid);
		put(y, a.x + 1, a.w - 2, ROLE_WARNING,
		    "Not in the current snapshot: it exited or has not submitted since.");
		return;
	}
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Process %u %s   (Esc goes back)", p->pid, p->comm);
	putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL,
	     "jobs %s/s (completed %.1f/s), %llu since start   GPU %.1f%% (share %.1f%%)   mean queue wait %s",
	     fmt_rate(p->jobs_per_s, rate, sizeof(rate)), p->completed_per_s,
	     (unsigned long long)p->jobs_total, p->gpu_pct, p->gpu_share_pct,
	     format_ns(p->wait_mean_ns, wait, sizeof(wait)));
	putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL, "GPU time this interval %s, since start %s",
	     format_ns(p->gpu_ns, gpu, sizeof(gpu)), format_ns((double)p->gpu_ns_total, wait, sizeof(wait)));
	put(y++, a.x + 1, a.w - 2, ROLE_DIM, "memory: not tracked yet (needs a memory collector)");
	y++;
	put(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Its rings");
	putf(y++, a.x + 1, a.w - 2, ROLE_LABEL, "%-14s %-14s %8s %6s %8s %9s", "RING", "DEVICE", "JOBS/S",
	     "GPU%", "JOBS", "EXEC p50");
	for (size_t k = 0; k < s->nproc_rings && y < a.y + a.h; k++) {
		const struct proc_ring_snap *pr = &s->proc_rings[k];
		const struct ring_snap *g;

		if (pr->pid != p->pid || pr->ring >= s->nrings)
			continue;
		g = &s->rings[pr->ring];
		putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL, "%-14.14s %-14.14s %8s %6.1f %8llu %9s", g->name,
		     g->dev[0] ? g->dev : "-", fmt_rate(pr->jobs_per_s, rate, sizeof(rate)), pr->gpu_pct,
		     (unsigned long long)pr->jobs_total, format_ns(g->exec.p50_ns, wait, sizeof(wait)));
	}
}

/* Each vendor pane: its drivers, and the collector it will have. */
static const struct {
	const char *title, *drivers[3], *collector, *what;
} vendors[SCREEN_COUNT] = {
	[SCREEN_AMD] = { "AMD", { "amdgpu", "radeon", NULL }, "amdgpu",
			 "command submissions, BO creation and moves, VM faults, VRAM/GTT (amdgpu tracepoints)" },
	[SCREEN_INTEL] = { "Intel", { "i915", "xe", NULL }, "i915",
			   "requests in and out per engine, GuC, VM binds (i915 and xe tracepoints)" },
	[SCREEN_NVIDIA] = { "NVIDIA", { "nvidia", NULL, NULL }, "nvidia",
			    "Xid errors (nvidia:nvidia_dev_xid), ioctls on /dev/nvidia*, interrupts, libcuda uprobes" },
	[SCREEN_DISPLAY] = { "Display", { "", NULL, NULL }, "display",
			     "per-CRTC refresh rate, vblank-interval jitter and gaps; per client events, delivery latency and missed frames" },
};

const char *vendors_collector(int screen)
{
	return screen > SCREEN_MAIN && screen < SCREEN_COUNT ? vendors[screen].collector : "";
}

/* The collector's state, reason and fix, wrapped; returns the rows used. */
static int collector_lines(struct view *v, struct rect a, const struct collector_status *c)
{
	char text[600];
	int y = a.y;

	if (c && c->state == COLLECTOR_ATTACHED) {
		snprintf(text, sizeof(text), "%s: %s", c->name, c->detail);
		return put_wrapped(a, ROLE_NORMAL, text);
	}
	put(y++, a.x, a.w, ROLE_WARNING, "Not available on this machine.");
	snprintf(text, sizeof(text), "Reason: %s",
		 c ? c->reason : "this version of gputop-bpf has no such collector yet.");
	y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_NORMAL, text);
	if (c && c->fix[0]) {
		snprintf(text, sizeof(text), "Fix: %s", c->fix);
		y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_NORMAL, text);
	}
	snprintf(text, sizeof(text), "It shows: %s.", vendors[v->screen].what);
	y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_DIM, text);
	return y - a.y;
}

/* A declared pane: the collector's state, then its tables, each given the rows it needs while they last. */
static void draw_declared(struct view *v, struct rect a, const struct pane_decl *p,
			  const struct collector_status *c)
{
	int ntables = 0, y, avail, total = 0, need[PANE_MAX_TABLES];

	while (ntables < PANE_MAX_TABLES && p->tables[ntables])
		ntables++;
	y = a.y + collector_lines(v, (struct rect){ a.y, a.x + 1, a.h / 3, a.w - 2 }, c) + 1;
	if (v->table_focus[v->screen] >= ntables)
		v->table_focus[v->screen] = 0;
	avail = a.y + a.h - y;
	for (int i = 0; i < ntables; i++) {
		const struct table *t = snapshot_table(v->snap, p->tables[i]);

		need[i] = (t && t->nrows ? (int)t->nrows : 2) + 3; /* title, header, a blank line */
		total += need[i];
	}
	for (int i = 0; i < ntables && avail > 0; i++) {
		const struct table_desc *d = table_desc_find(p->tables[i]);
		int h = total <= avail ? need[i] : avail * need[i] / total;
		struct rect r;

		if (h < 3)
			h = 3;
		if (i == ntables - 1 || h > a.y + a.h - y)
			h = a.y + a.h - y;
		r = (struct rect){ y, a.x + 1, h - (i == ntables - 1 ? 0 : 1), a.w - 2 };
		if (d && r.h > 0)
			table_view_draw(v, d, snapshot_table(v->snap, p->tables[i]),
					&v->tstate[v->screen][i], r, i == v->table_focus[v->screen]);
		y += h;
	}
}

void draw_vendor(struct view *v, struct rect a)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = NULL;
	const struct pane_decl *p = pane_for_screen(v->screen);
	int y = a.y, found = 0;
	char rate[16];

	clear_area(a);
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "%s   (Tab or 1-5 switch panes)", vendors[v->screen].title);
	for (size_t i = 0; s && i < s->ncollectors; i++)
		if (!strcmp(s->collectors[i].name, vendors[v->screen].collector))
			c = &s->collectors[i];
	if (p) {
		draw_declared(v, (struct rect){ y, a.x, a.h - 1, a.w }, p, c);
		return;
	}
	y += collector_lines(v, (struct rect){ y, a.x + 1, a.h - 1, a.w - 2 }, c);
	y++;
	put(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Devices");
	for (size_t i = 0; s && i < s->ndevices && y < a.y + a.h; i++) {
		const struct device_snap *d = &s->devices[i];
		bool mine = false;

		for (int k = 0; k < 3 && vendors[v->screen].drivers[k]; k++)
			mine |= vendors[v->screen].drivers[k][0] &&
				!strcmp(d->driver, vendors[v->screen].drivers[k]);
		if (!mine)
			continue;
		found++;
		putf(y++, a.x + 1, a.w - 2, ROLE_NORMAL, "%-8s %-8s %s", d->name, d->driver, d->bus_id);
		for (size_t r = 0; r < s->nrings && y < a.y + a.h; r++)
			if (d->bus_id[0] && !strcmp(s->rings[r].dev, d->bus_id))
				putf(y++, a.x + 3, a.w - 4, ROLE_LABEL, "ring %-14s %s jobs/s  busy %.1f%%",
				     s->rings[r].name, fmt_rate(s->rings[r].completed_per_s, rate, sizeof(rate)),
				     s->rings[r].busy_pct);
		y += driver_irq_lines(v, d->driver, (struct rect){ y, a.x + 3, a.y + a.h - y, a.w - 4 });
	}
	if (!found)
		put(y, a.x + 1, a.w - 2, ROLE_DIM, "None on this machine.");
}

void draw_help(struct view *v)
{
	static const char *const lines[] = {
		"q, F10          quit",
		"h, ?, F1        this help (any key closes it)",
		"Up/Down, j/k    select a row; PgUp/PgDn, Home/End move further",
		"Left/Right      select the ring table / the process table",
		"Enter           open the selected ring or process; Esc, Backspace go back",
		"Tab, Shift-Tab  next / previous pane: Overview, AMD, Intel, NVIDIA, Display",
		"1 2 3 4 5       those panes directly",
		"s, F6           choose the sort column; r reverses the order",
		"/, F3           filter by ring, device, command or PID; Esc clears",
		"space           pause (data frozen, the interface stays live)",
		"n, .            one snapshot forward while paused (a replay's single step)",
		"+ / -           slower / faster refresh",
		"t               next colour theme",
		"W               save theme, delay, sort and panes to the config file",
		"Ctrl-L          redraw the screen",
		"mouse           click selects a row, double-click opens it",
	};
	int n = (int)(sizeof(lines) / sizeof(lines[0])), w = 80, h = n + 4;
	struct rect r = { (LINES - h) / 2, (COLS - w) / 2, h, w }, in;

	if (r.y < 0)
		r.y = 0, r.h = LINES;
	if (r.x < 0)
		r.x = 0, r.w = COLS;
	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
	in = frame(r, "Keys", v->utf8);
	for (int i = 0; i < n && i < in.h - 1; i++)
		put(in.y + 1 + i, in.x + 2, in.w - 3, ROLE_NORMAL, lines[i]);
}

void draw_sort_menu(struct view *v)
{
	const struct pane_decl *p = v->screen == SCREEN_MAIN ? NULL : pane_for_screen(v->screen);
	const struct table_desc *d = p ? table_desc_find(p->tables[v->table_focus[v->screen]]) : NULL;
	const struct table_state *ts = d ? &v->tstate[v->screen][v->table_focus[v->screen]] : NULL;
	bool rings = v->focus == FOCUS_RINGS;
	int n = sort_menu_count(v), w = 30, h = n + 2, cur;
	struct rect r = { (LINES - h) / 2, (COLS - w) / 2, h, w }, in;
	char title[64];

	if (r.y < 0)
		r.y = 0, r.h = LINES;
	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
	snprintf(title, sizeof(title), "Sort %s by", d ? d->title : rings ? "rings" : "processes");
	in = frame(r, title, v->utf8);
	cur = ts ? (int)(ts->sort_set ? ts->sort_col : d->sort_col) :
		   rings ? v->prefs.ring_sort : v->prefs.proc_sort;
	for (int i = 0; i < n && i < in.h; i++)
		putf(in.y + i, in.x + 1, in.w - 2, i == v->sort_menu_sel ? ROLE_SELECTED : ROLE_NORMAL,
		     "%c %-24s", i == cur ? '*' : ' ',
		     d ? d->cols[i].title : rings ? ring_column_title(i) : proc_column_title(i));
}
