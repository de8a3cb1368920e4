// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The main screen: header, devices, rings, side panes, processes, status and key bar. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "../src/version.h"
#include "../model/histories.h"
#include "../output/cell_format.h"
#include "draw.h"
#include "rows.h"
#include "sparkline.h"

static const char *const screen_names[SCREEN_COUNT] = { "Overview", "AMD", "Intel", "NVIDIA",
							 "Display" };

static const struct collector_status *collector(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; s && i < s->ncollectors; i++)
		if (!strcmp(s->collectors[i].name, name))
			return &s->collectors[i];
	return NULL;
}

void draw_header(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	unsigned int attached = 0, missing = 0;
	uint64_t drops = 0;
	char up[32] = "-", state[300];
	int x;

	for (size_t i = 0; s && i < s->ncollectors; i++) {
		attached += s->collectors[i].state == COLLECTOR_ATTACHED;
		missing += s->collectors[i].state != COLLECTOR_ATTACHED;
		for (unsigned int d = 0; d < s->collectors[i].ndrops; d++)
			drops += s->collectors[i].drops[d].count;
	}
	if (s) {
		unsigned long t = (unsigned long)s->uptime_s;

		snprintf(up, sizeof(up), "%02lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	}
	if (v->feed->replay)
		snprintf(state, sizeof(state), "%s %s", v->paused ? "PAUSED" : "REPLAY", v->feed->name);
	else
		snprintf(state, sizeof(state), "%s", v->paused ? "PAUSED" : "LIVE");
	fill(r.y, 0, r.w, ROLE_HEADER);
	{
		/* Parts in order of need; one that does not fit whole is left out, never cut. */
		char parts[7][320];
		int n = 0;

		snprintf(parts[n++], sizeof(parts[0]), " gputop-bpf %s", GPUTOP_VERSION);
		snprintf(parts[n++], sizeof(parts[0]), " | %s", state);
		if (drops)
			snprintf(parts[n++], sizeof(parts[0]), " | %llu dropped",
				 (unsigned long long)drops);
		snprintf(parts[n++], sizeof(parts[0]), " | every %gs", v->prefs.delay_s);
		snprintf(parts[n++], sizeof(parts[0]), " | %s (%s)", s ? s->hostname : "-",
			 s ? s->kernel : "-");
		snprintf(parts[n++], sizeof(parts[0]), " | up %s", up);
		snprintf(parts[n++], sizeof(parts[0]), " | collectors %u attached, %u missing",
			 attached, missing);
		x = 0;
		for (int i = 0; i < n; i++)
			x += put_whole(r.y, x, r.w - x,
				       drops && i == 2 ? ROLE_WARNING : ROLE_HEADER, parts[i]);
	}
	if (r.h < 2)
		return;
	fill(r.y + 1, 0, r.w, ROLE_NORMAL);
	x = 1;
	for (int i = 0; i < SCREEN_COUNT; i++)
		x += putf(r.y + 1, x, r.w - x, i == (int)v->screen ? ROLE_SELECTED : ROLE_LABEL,
			  " %d %s ", i + 1, screen_names[i]) + 1;
	x += putf(r.y + 1, x, r.w - x, ROLE_DIM, "  theme %s", v->theme.name);
	if (v->filter[0])
		putf(r.y + 1, x, r.w - x, ROLE_WARNING, "  filter: %s", v->filter);
}

static double device_jobs(const struct snapshot *s, const struct device_snap *d)
{
	double sum = 0;

	for (size_t i = 0; i < s->nrings; i++)
		if (d->bus_id[0] && !strcmp(s->rings[i].dev, d->bus_id))
			sum += s->rings[i].completed_per_s;
	return sum;
}

/* The interrupt lines whose handler is driver's, from the irq collector's table. */
static double driver_irqs(const struct snapshot *s, const char *driver)
{
	const struct table *t = snapshot_table(s, "irq.lines");
	int name = t ? table_col(t->desc, "name") : -1, rate = t ? table_col(t->desc, "per_s") : -1;
	double sum = 0;

	for (size_t i = 0; name >= 0 && rate >= 0 && driver[0] && i < t->nrows; i++) {
		const struct cell *n = table_cell(t, i, (unsigned int)name);

		if (n->known && strstr(n->s, driver))
			sum += fmax(0, cell_number(t->desc, table_row(t, i), (unsigned int)rate));
	}
	return sum;
}

int driver_irq_lines(struct view *v, const char *driver, struct rect r)
{
	const struct table *t = snapshot_table(v->snap, "irq.lines");
	int irq = t ? table_col(t->desc, "irq") : -1, name = t ? table_col(t->desc, "name") : -1,
	    rate = t ? table_col(t->desc, "per_s") : -1, y = r.y;
	char buf[16];

	for (size_t i = 0; irq >= 0 && name >= 0 && rate >= 0 && driver[0] && i < t->nrows; i++) {
		const struct cell *n = table_cell(t, i, (unsigned int)name);
		double per_s = cell_number(t->desc, table_row(t, i), (unsigned int)rate);

		if (!n->known || !strstr(n->s, driver) || y >= r.y + r.h)
			continue;
		putf(y++, r.x, r.w, ROLE_LABEL, "irq %-4llu %s/s",
		     (unsigned long long)table_cell(t, i, (unsigned int)irq)->u,
		     fmt_rate(fmax(0, per_s), buf, sizeof(buf)));
	}
	return y - r.y;
}

static void draw_devices(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = collector(s, "devices");
	char a[16], b[16];

	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
	if (!s || !s->ndevices) {
		char text[300];

		snprintf(text, sizeof(text), "No GPU device: %s",
			 c && c->reason[0] ? c->reason : "none found in /sys/class/drm or /proc/driver/nvidia");
		put_wrapped((struct rect){ r.y, 1, r.h, r.w - 2 }, ROLE_DIM, text);
		return;
	}
	for (size_t i = 0; i < s->ndevices && (int)i < r.h; i++) {
		const struct device_snap *d = &s->devices[i];
		int x = 1;

		x += putf(r.y + (int)i, x, r.w - x, ROLE_VALUE, "%-8s", d->name);
		x += putf(r.y + (int)i, x, r.w - x, ROLE_NORMAL, " %-8s %-13s", d->driver, d->bus_id);
		x += putf(r.y + (int)i, x, r.w - x, ROLE_LABEL, " jobs/s ");
		x += put(r.y + (int)i, x, r.w - x, ROLE_VALUE, fmt_rate(device_jobs(s, d), a, sizeof(a)));
		x += put(r.y + (int)i, x, r.w - x, ROLE_LABEL, "  IRQ/s ");
		x += put(r.y + (int)i, x, r.w - x, ROLE_VALUE, fmt_rate(driver_irqs(s, d->driver), b, sizeof(b)));
		x += put_whole(r.y + (int)i, x, r.w - x, ROLE_DIM, "  VRAM -  GTT -");
		put_whole(r.y + (int)i, x, r.w - x, ROLE_DIM, "  (no memory collector yet)");
	}
}

/* Columns shown at a width: the narrow layout drops DEVICE and the p99s. */
struct ring_cols {
	bool dev, p99;
	int spark;
};

static struct ring_cols ring_columns(int w)
{
	struct ring_cols c = { w >= 100, w >= 118, 0 };
	int used = 15 + (c.dev ? 15 : 0) + 6 + 5 + 8 + 7 + 9 + 9 + (c.p99 ? 18 : 0) + 9;

	c.spark = w - used - 2;
	if (c.spark > 40)
		c.spark = 40;
	return c;
}

static void ring_sort_mark(struct view *v, int col, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", ring_column_title(col),
		 v->prefs.ring_sort == col ? (v->prefs.reverse ? "^" : "v") : "");
}

static void draw_ring_row(struct view *v, int y, struct rect r, const struct ring_snap *g,
			  bool selected, struct ring_cols c)
{
	enum role base = selected ? ROLE_SELECTED : ROLE_NORMAL;
	char a[16], b[16], cc[16], d[16], e[16], spark[256];
	double hist[HISTORY_LEN];
	size_t n;
	int x = r.x;

	fill(y, r.x, r.w, base);
	x += putf(y, x, r.w, base, " %-14.14s", g->name);
	if (c.dev)
		x += putf(y, x, r.w - (x - r.x), base, " %-14.14s", g->dev[0] ? g->dev : "-");
	x += putf(y, x, r.w - (x - r.x), base, " %5u %4u %7s %6.1f", g->queue_depth, g->in_flight,
		  fmt_rate(g->completed_per_s, e, sizeof(e)), g->busy_pct);
	x += putf(y, x, r.w - (x - r.x), base, " %8s", format_ns(g->wait.p50_ns, a, sizeof(a)));
	if (c.p99)
		x += putf(y, x, r.w - (x - r.x), base, " %8s", format_ns(g->wait.p99_ns, b, sizeof(b)));
	x += putf(y, x, r.w - (x - r.x), base, " %8s", format_ns(g->exec.p50_ns, cc, sizeof(cc)));
	if (c.p99)
		x += putf(y, x, r.w - (x - r.x), base, " %8s", format_ns(g->exec.p99_ns, d, sizeof(d)));
	x += putf(y, x, r.w - (x - r.x), base, " %8llu ", (unsigned long long)g->completed_total);
	if (c.spark > 3) {
		n = history_read(&g->hist_exec_p50_ns, hist, HISTORY_LEN);
		sparkline_render(hist, n, (size_t)c.spark, 0, v->utf8, spark, sizeof(spark));
		put(y, x, r.w - (x - r.x), selected ? base : ROLE_SPARK, spark);
	}
}

static void draw_rings(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = collector(s, "drm_sched");
	struct ring_cols cols = ring_columns(r.w);
	bool focused = v->focus == FOCUS_RINGS;
	char t[9][24];
	int rows = r.h - 2;

	fill(r.y, r.x, r.w, ROLE_NORMAL);
	putf(r.y, r.x + 1, r.w - 2, focused ? ROLE_TITLE : ROLE_LABEL, "RINGS (%zu)%s",
	     v->nring_rows, focused ? "  <Enter> opens the selected ring" : "");
	for (int i = 0; i < RING_COLS; i++)
		ring_sort_mark(v, i, t[i], sizeof(t[i]));
	fill(r.y + 1, r.x, r.w, ROLE_LABEL);
	{
		char line[300];
		int n = snprintf(line, sizeof(line), " %-14s", t[RING_COL_NAME]);

		if (cols.dev)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %-14s", t[RING_COL_DEV]);
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %5s %4s %7s %6s %8s", t[RING_COL_QUEUE],
			      t[RING_COL_INFLIGHT], t[RING_COL_JOBS], t[RING_COL_BUSY], t[RING_COL_WAIT]);
		if (cols.p99)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %8s", "WAIT p99");
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %8s", t[RING_COL_EXEC]);
		if (cols.p99)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %8s", "EXEC p99");
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %8s ", t[RING_COL_TOTAL]);
		if (cols.spark > 3)
			snprintf(line + n, sizeof(line) - (size_t)n, "exec p50 history");
		put(r.y + 1, r.x, r.w, ROLE_LABEL, line);
	}
	for (int i = 0; i < rows; i++)
		fill(r.y + 2 + i, r.x, r.w, ROLE_NORMAL);
	if (!v->nring_rows) {
		char text[600];
		int used = 1;

		if (c && c->state != COLLECTOR_ATTACHED) {
			snprintf(text, sizeof(text), "drm_sched %s: %s", collector_state_name(c->state),
				 c->reason);
			used = put_wrapped((struct rect){ r.y + 2, r.x + 1, rows, r.w - 2 }, ROLE_WARNING,
					   text);
		} else {
			put(r.y + 2, r.x + 1, r.w - 2, ROLE_DIM,
			    v->filter[0] ? "No ring matches the filter." : "No GPU job seen yet.");
		}
		if (c && c->fix[0] && rows > used) {
			snprintf(text, sizeof(text), "fix: %s", c->fix);
			put_wrapped((struct rect){ r.y + 2 + used, r.x + 1, rows - used, r.w - 2 },
				    ROLE_DIM, text);
		}
		return;
	}
	if (v->ring_sel < v->ring_top)
		v->ring_top = v->ring_sel;
	if (rows > 0 && v->ring_sel >= v->ring_top + (size_t)rows)
		v->ring_top = v->ring_sel - (size_t)rows + 1;
	for (int i = 0; i < rows && v->ring_top + (size_t)i < v->nring_rows; i++) {
		size_t row = v->ring_top + (size_t)i;

		draw_ring_row(v, r.y + 2 + i, r, &s->rings[v->ring_rows[row]],
			      focused && row == v->ring_sel, cols);
	}
}

static void draw_procs(struct view *v, struct rect r)
{
	const struct snapshot *s = v->snap;
	bool focused = v->focus == FOCUS_PROCS;
	char t[PROC_COLS][24], a[16], b[16];
	int rows = r.h - 2;

	fill(r.y, r.x, r.w, ROLE_NORMAL);
	putf(r.y, r.x + 1, r.w - 2, focused ? ROLE_TITLE : ROLE_LABEL, "PROCESSES (%zu)%s",
	     v->nproc_rows, focused ? "  <Enter> opens the selected process" : "  <Right> selects");
	for (int i = 0; i < PROC_COLS; i++)
		snprintf(t[i], sizeof(t[i]), "%s%s", proc_column_title(i),
			 v->prefs.proc_sort == i ? (v->prefs.reverse ? "^" : "v") : "");
	fill(r.y + 1, r.x, r.w, ROLE_LABEL);
	putf(r.y + 1, r.x, r.w, ROLE_LABEL, " %7s %-16s %7s %6s %7s %9s %8s %5s  %s", t[PROC_COL_PID],
	     t[PROC_COL_COMM], t[PROC_COL_JOBS], t[PROC_COL_GPU], t[PROC_COL_SHARE], t[PROC_COL_WAIT],
	     t[PROC_COL_TOTAL], "MEM", "RINGS");
	for (int i = 0; i < rows; i++)
		fill(r.y + 2 + i, r.x, r.w, ROLE_NORMAL);
	if (!v->nproc_rows) {
		put(r.y + 2, r.x + 1, r.w - 2, ROLE_DIM,
		    v->filter[0] ? "No process matches the filter." :
				   "No process has submitted GPU jobs since the monitor started.");
		return;
	}
	if (v->proc_sel < v->proc_top)
		v->proc_top = v->proc_sel;
	if (rows > 0 && v->proc_sel >= v->proc_top + (size_t)rows)
		v->proc_top = v->proc_sel - (size_t)rows + 1;
	for (int i = 0; i < rows && v->proc_top + (size_t)i < v->nproc_rows; i++) {
		size_t row = v->proc_top + (size_t)i;
		const struct proc_snap *p = &s->procs[v->proc_rows[row]];
		enum role base = focused && row == v->proc_sel ? ROLE_SELECTED : ROLE_NORMAL;
		char rings[128] = "";
		int y = r.y + 2 + i, x;

		for (size_t k = 0; k < s->nproc_rings; k++)
			if (s->proc_rings[k].pid == p->pid && s->proc_rings[k].ring < s->nrings &&
			    strlen(rings) + NAME_LEN + 2 < sizeof(rings))
				snprintf(rings + strlen(rings), sizeof(rings) - strlen(rings), "%s%s",
					 rings[0] ? "," : "", s->rings[s->proc_rings[k].ring].name);
		fill(y, r.x, r.w, base);
		x = putf(y, r.x, r.w, base, " %7u %-16.16s %7s %6.1f %7.1f %9s %8llu %5s  ", p->pid,
			 p->comm, fmt_rate(p->jobs_per_s, a, sizeof(a)), p->gpu_pct, p->gpu_share_pct,
			 format_ns(p->wait_mean_ns, b, sizeof(b)), (unsigned long long)p->jobs_total, "-");
		put(y, r.x + x, r.w - x, base, rings);
	}
}

/* A declared pane's summary: a few columns of its table, the first history as a sparkline. */
static void draw_summary(struct view *v, struct rect in, const struct pane_decl *p)
{
	const struct table *t = snapshot_table(v->snap, p->summary_table);
	const struct table_desc *d = table_desc_find(p->summary_table);
	const struct collector_status *c = NULL;
	int y = in.y;

	for (size_t i = 0; v->snap && i < v->snap->ncollectors; i++)
		if (!strcmp(v->snap->collectors[i].name, p->collector))
			c = &v->snap->collectors[i];
	if (!d)
		return;
	if (c && c->state != COLLECTOR_ATTACHED) {
		char why[320];

		snprintf(why, sizeof(why), "%s unavailable: %s", c->name, c->reason);
		put_wrapped(in, ROLE_WARNING, why);
		return;
	}
	if (!t || !t->nrows) {
		char text[400];

		snprintf(text, sizeof(text), "%s%s%s%s%s", d->empty ? d->empty : "Nothing yet.",
			 c && c->detail[0] ? " [" : "", c ? c->name : "", c && c->detail[0] ? ": " : "",
			 c && c->detail[0] ? c->detail : "");
		if (c && c->detail[0])
			strncat(text, "]", sizeof(text) - strlen(text) - 1);
		put_wrapped(in, ROLE_DIM, text);
		return;
	}
	for (size_t r = 0; r < t->nrows && y < in.y + in.h; r++, y++) {
		const struct history *hist = NULL;
		int x = in.x;

		for (int k = 0; k < PANE_MAX_SUMMARY && p->summary_cols[k]; k++) {
			int col = table_col(d, p->summary_cols[k]);
			char raw[TABLE_STR_MAX], fit[TABLE_STR_MAX * 2];
			int w;

			if (col < 0)
				continue;
			w = d->cols[col].width;
			cell_format(&d->cols[col], table_cell(t, r, (unsigned int)col), raw, sizeof(raw));
			text_fit(raw, w, v->utf8, fit, sizeof(fit));
			if (x + w > in.x + in.w)
				break;
			putf(y, x, w + 1, ROLE_NORMAL, "%*s ", d->cols[col].type == COL_STR ? -w : w, fit);
			x += w + 1;
			if (!hist && (d->cols[col].flags & COL_HISTORY))
				hist = histories_get(v->histories, t, r, (unsigned int)col);
		}
		if (hist && in.x + in.w - x >= 4) {
			double vals[HISTORY_LEN];
			char spark[HISTORY_LEN * 4];
			size_t n = history_read(hist, vals, HISTORY_LEN);

			sparkline_render(vals, n, (size_t)(in.x + in.w - x), 0, v->utf8, spark,
					 sizeof(spark));
			put(y, x, in.x + in.w - x, ROLE_SPARK, spark);
		}
	}
}

static void draw_side(struct view *v, int which, struct rect r)
{
	static const char *const titles[3] = { "MEMORY", "INTERRUPTS", "DISPLAY" };
	struct rect in = frame(r, titles[which], v->utf8);

	if (!in.h)
		return;
	for (int i = 0; i < in.h; i++)
		fill(in.y + i, in.x, in.w, ROLE_NORMAL);
	if (!pane_for_side(which)) {
		put_wrapped(in, ROLE_DIM,
			    "VRAM and GTT totals and allocation rates will show here: they need a memory "
			    "collector (amdgpu, i915, xe tracepoints), which this version does not have.");
		return;
	}
	if (pane_for_side(which))
		draw_summary(v, in, pane_for_side(which));
}

void draw_main(struct view *v)
{
	struct layout *l = &v->layout;

	if (l->devices.h)
		draw_devices(v, l->devices);
	if (l->rings.h)
		draw_rings(v, l->rings);
	if (l->procs.h)
		draw_procs(v, l->procs);
	for (int i = 0; i < 3; i++)
		if (l->side[i].h)
			draw_side(v, i, l->side[i]);
}

void draw_bottom(struct view *v)
{
	static const struct {
		const char *key, *what;
	} keys[] = {
		{ "F1", "Help" }, { "/", "Filter" }, { "F6", "Sort" }, { "Spc", "Pause" },
		{ "+-", "Delay" }, { "t", "Theme" }, { "Tab", "Panes" }, { "Enter", "Open" },
		{ "W", "Save" }, { "F10", "Quit" },
	};
	struct layout *l = &v->layout;
	int x = 0;

	fill(l->status.y, 0, l->status.w, ROLE_NORMAL);
	if (v->editing_filter)
		putf(l->status.y, 1, l->status.w - 1, ROLE_VALUE,
		     "Filter (name, device, comm or PID; Enter applies, Esc clears): %s_", v->edit);
	else if (v->message[0])
		put(l->status.y, 1, l->status.w - 1, v->message_error ? ROLE_ERROR : ROLE_LABEL,
		    v->message);
	else if (v->paused)
		put(l->status.y, 1, l->status.w - 1, ROLE_WARNING,
		    v->feed->replay ? "Paused: space resumes, n steps one snapshot" :
				      "Paused: the data is frozen; space resumes, n takes one update");
	fill(l->keybar.y, 0, l->keybar.w, ROLE_KEYBAR);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && x < l->keybar.w; i++) {
		x += put(l->keybar.y, x, l->keybar.w - x, ROLE_KEY, keys[i].key);
		x += putf(l->keybar.y, x, l->keybar.w - x, ROLE_KEYBAR, "%s ", keys[i].what);
	}
}
