// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Vendor panes, the help overlay, the sort menu. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "draw.h"
#include "sparkline.h"

/* Each vendor pane: its drivers, and the collector it will have. */
static const struct {
	const char *title, *drivers[3], *collector, *what;
} vendors[SCREEN_COUNT] = {
	[SCREEN_AMD] = { "AMD", { "amdgpu", "radeon", NULL }, "amdgpu",
			 "command submissions and their latency per ring, buffer creation and migrations, interrupt vectors, VM flushes and mappings (amdgpu tracepoints)" },
	[SCREEN_INTEL] = { "Intel", { "i915", "xe", NULL }, "intel",
			   "i915 requests, waits and time on the hardware per engine; GEM objects, binds, faults, shrinker pressure; xe jobs per exec queue, buffer moves (i915 and xe tracepoints)" },
	[SCREEN_NVIDIA] = { "NVIDIA", { "nvidia", NULL, NULL }, "nvidia",
			    "per process CUDA launches, device memory, time blocked in synchronisation (libcuda uprobes) and ioctls on /dev/nvidia*; Xid errors; memory and utilisation per GPU (NVML)" },
	[SCREEN_DISPLAY] = { "Display", { "", NULL, NULL }, "display",
			     "per-CRTC refresh rate, vblank-interval jitter and gaps; per client events, delivery latency and missed frames" },
	[SCREEN_MEMORY] = { "Memory", { "", NULL, NULL }, "memory",
			    "GPU memory and engine use per device, process, cgroup / container and DRM client (DRM fdinfo, sysfs)" },
	[SCREEN_CALLS] = { "Calls", { "", NULL, NULL }, "calls",
			   "per process the ioctls on DRM and NVIDIA devices by command (rate, errors, latency) and the time blocked in GPU fence waits" },
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

	if (c && c->info->state == COLLECTOR_ATTACHED) {
		snprintf(text, sizeof(text), "%s: %s", c->info->name, c->detail);
		return put_wrapped(a, ROLE_NORMAL, text);
	}
	put(y++, a.x, a.w, ROLE_WARNING, "Not available on this machine.");
	snprintf(text, sizeof(text), "Reason: %s",
		 c ? c->info->reason : "this version of gputop-bpf has no such collector yet.");
	y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_NORMAL, text);
	if (c && c->info->fix[0]) {
		snprintf(text, sizeof(text), "Fix: %s", c->info->fix);
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
	int ntables = 0, y, avail, need[PANE_MAX_TABLES], h[PANE_MAX_TABLES];

	while (pane_table_name(p, ntables, v->grouped))
		ntables++;
	y = a.y + collector_lines(v, (struct rect){ a.y, a.x + 1, a.h / 3, a.w - 2 }, c) + 1;
	if (v->table_focus[v->screen] >= ntables)
		v->table_focus[v->screen] = 0;
	avail = a.y + a.h - y;
	for (int i = 0; i < ntables; i++) {
		const struct table *t = snapshot_table(v->snap, pane_table_name(p, i, v->grouped));

		need[i] = (t && t->nrows ? (int)t->nrows : 2) + 3; /* title, header, a blank line */
	}
	layout_share(need, ntables, avail, 3, h);
	for (int i = 0; i < ntables && y < a.y + a.h; i++) {
		struct rect r;

		if (i == ntables - 1 || h[i] > a.y + a.h - y)
			h[i] = a.y + a.h - y;
		r = (struct rect){ y, a.x + 1, h[i] - (i == ntables - 1 ? 0 : 1), a.w - 2 };
		if (r.h > 0)
			pane_table_draw(v, p, i, r);
		y += h[i];
	}
}

void draw_vendor(struct view *v, struct rect a)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = NULL;
	const struct pane_decl *p = pane_for_screen(v->screen);
	const struct table *rings = snapshot_table(s, "drm_sched.rings");
	int y = a.y, found = 0;
	char rate[16];

	clear_rect(a);
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "%s   (Tab or 1-7 switch panes)", vendors[v->screen].title);
	for (size_t i = 0; s && i < s->ncollectors; i++)
		if (!strcmp(s->collectors[i].info->name, vendors[v->screen].collector))
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
		for (size_t r = 0; rings && r < rings->nrows && y < a.y + a.h; r++)
			if (d->bus_id[0] && !strcmp(table_str(rings, r, "dev"), d->bus_id))
				putf(y++, a.x + 3, a.w - 4, ROLE_LABEL, "ring %-14s %s jobs/s  busy %.1f%%",
				     table_str(rings, r, "name"),
				     fmt_rate(fmax(0, table_num(rings, r, "completed_per_s")), rate,
					      sizeof(rate)),
				     fmax(0, table_num(rings, r, "busy_pct")));
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
		"Left/Right      select the table above / below (rings, processes ...)",
		"Enter           open the selected row (a ring or process: its pane); Esc back",
		"Tab, Shift-Tab  next / previous pane: Overview, AMD, Intel, NVIDIA, Display, Memory, Calls",
		"1 2 3 4 5 6 7   those panes directly",
		"g               Memory: processes grouped by cgroup / container, and back",
		"s, F6           choose the sort column; r reverses the order",
		"/, F3           filter by ring, device, command or PID; Esc clears",
		"space           pause (data frozen, the interface stays live)",
		"n, .            one snapshot forward while paused (a replay's single step)",
		"+ / -           slower / faster refresh",
		"t               next colour theme",
		"W               save theme, delay, sort and panes to the config file",
		"Ctrl-L          redraw the screen",
		"mouse           click selects a row, double-click opens it",
		"",
		"header 'self'   what gputop-bpf costs: its CPU and memory, and its BPF",
		"                programs' run time (per program: JSON self.programs)",
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
	const struct pane_decl *p = pane_for_screen(v->screen);
	const struct table_desc *d = p ? table_desc_find(pane_table_name(p, v->table_focus[v->screen], v->grouped)) : NULL;
	const struct table_state *ts = d ? &v->tstate[v->screen][v->table_focus[v->screen]] : NULL;
	int n = sort_menu_count(v), w = 40, h = n + 2, cur, first = 0;
	struct rect r = { (LINES - h) / 2, (COLS - w) / 2, h, w }, in;
	char title[64];

	if (!d)
		return;
	if (r.y < 0)
		r.y = 0, r.h = LINES;
	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
	snprintf(title, sizeof(title), "Sort %s by", d->title);
	in = frame(r, title, v->utf8);
	cur = (int)(ts->sort_set ? ts->sort_col : d->sort_col);
	if (v->sort_menu_sel >= in.h)
		first = v->sort_menu_sel - in.h + 1; /* long lists scroll */
	for (int i = first; i < n && i - first < in.h; i++)
		putf(in.y + i - first, in.x + 1, in.w - 2,
		     i == v->sort_menu_sel ? ROLE_SELECTED : ROLE_NORMAL, "%c %-9s %s",
		     i == cur ? '*' : ' ', d->cols[i].title, d->cols[i].key);
}
