// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory: the main screen's MEMORY side pane (per device and region), and the
 * Memory screen (6): devices, processes (g: by cgroup / container), DRM clients,
 * their regions. Enter on a process opens its clients, their regions and engines.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "format/cell_format.h"
#include "tui/draw.h"

static const char *const classes[][2] = {
	{ "render_pct", "3D" }, { "compute_pct", "compute" }, { "copy_pct", "copy" },
	{ "video_pct", "video" }, { "other_pct", "other" },
};

static const char *bytes(const struct table *t, size_t row, const char *key, char *buf, size_t size)
{
	double b = table_num(t, row, key);

	if (isnan(b))
		snprintf(buf, size, "-");
	else
		format_bytes(b, buf, size);
	return buf;
}

/* "3D 12.5%  video 3.0%": the engine classes with a known use. */
static void busy_text(const struct table *t, size_t row, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(classes) / sizeof(classes[0]) && len < size; k++) {
		double b = table_num(t, row, classes[k][0]);

		if (!isnan(b))
			len += (size_t)snprintf(buf + len, size - len, "%s%s %.1f%%", len ? "  " : "",
						classes[k][1], b);
	}
	if (!buf[0])
		snprintf(buf, size, "no engine time reported");
}

int memory_process_lines(struct view *v, double pid, struct rect r)
{
	const struct table *t = snapshot_table(v->snap, "memory.processes");
	char total[16], res[16], busy[160];

	for (size_t i = 0; t && i < t->nrows; i++) {
		if (table_num(t, i, "pid") != pid)
			continue;
		putf(r.y, r.x, r.w, ROLE_NORMAL, "GPU memory %s (resident %s) in %.0f DRM client%s   %s",
		     bytes(t, i, "total_bytes", total, sizeof(total)),
		     bytes(t, i, "resident_bytes", res, sizeof(res)), num_or_0(t, i, "clients"),
		     num_or_0(t, i, "clients") == 1 ? "" : "s",
		     (busy_text(t, i, busy, sizeof(busy)), busy));
		return 1;
	}
	put(r.y, r.x, r.w, ROLE_DIM,
	    snapshot_table(v->snap, "memory.processes") ?
		    "GPU memory: none reported for it (no DRM client of it reports usage in fdinfo)" :
		    "GPU memory: the memory collector is not running");
	return 1;
}

/* The lines of one client's block: its own, its regions' and its engines'. */
static int client_rows(struct view *v, const char *dev, double client)
{
	const char *names[2] = { "memory.regions", "memory.engines" };
	int rows = 1;

	for (int i = 0; i < 2; i++) {
		const struct table *t = snapshot_table(v->snap, names[i]);
		int n = 0;

		for (size_t k = 0; t && k < t->nrows; k++)
			n += table_num(t, k, "client") == client && !strcmp(table_str(t, k, "dev"), dev);
		rows += i == 0 ? n : n > 0; /* a row a region; the engines on one line */
	}
	return rows;
}

/* The regions and engines of one client, indented, from y; returns the next row. */
static int client_lines(struct view *v, struct rect a, int y, const char *dev, double client)
{
	const struct table *rg = snapshot_table(v->snap, "memory.regions");
	const struct table *en = snapshot_table(v->snap, "memory.engines");
	char b[5][16], line[400];

	for (size_t k = 0; rg && k < rg->nrows && y < a.y + a.h; k++)
		if (table_num(rg, k, "client") == client && !strcmp(table_str(rg, k, "dev"), dev))
			putf(y++, a.x + 3, a.w - 4, ROLE_NORMAL,
			     "%-14.14s %9s %9s %9s %9s %9s", table_str(rg, k, "region"),
			     bytes(rg, k, "total_bytes", b[0], sizeof(b[0])),
			     bytes(rg, k, "resident_bytes", b[1], sizeof(b[1])),
			     bytes(rg, k, "shared_bytes", b[2], sizeof(b[2])),
			     bytes(rg, k, "purgeable_bytes", b[3], sizeof(b[3])),
			     bytes(rg, k, "active_bytes", b[4], sizeof(b[4])));
	if (y >= a.y + a.h)
		return y;
	/* its engines apart from the regions' columns, on one line: "engines busy: render 0.0%  video -" */
	line[0] = '\0';
	for (size_t k = 0; en && k < en->nrows; k++) {
		double busy = table_num(en, k, "busy_pct");
		size_t len = strlen(line);

		if (table_num(en, k, "client") != client || strcmp(table_str(en, k, "dev"), dev))
			continue;
		if (isnan(busy))
			snprintf(line + len, sizeof(line) - len, "%s%.32s -",
				 len ? "  " : "engines busy: ", table_str(en, k, "engine"));
		else
			snprintf(line + len, sizeof(line) - len, "%s%.32s %.1f%%",
				 len ? "  " : "engines busy: ", table_str(en, k, "engine"), busy);
	}
	if (line[0])
		put_cut(y++, a.x + 3, a.w - 4, ROLE_NORMAL, line);
	return y;
}

static void draw_process(struct view *v, const struct table *t, long row, struct rect a)
{
	const struct table *cl = snapshot_table(v->snap, "memory.clients");
	size_t r = (size_t)row;
	int y = a.y, total = 0, shown = 0;

	clear_rect(a);
	if (row < 0) {
		draw_drill_gone(v, a, "Process", "Not in the current snapshot: it exited or closed its DRM files.");
		return;
	}
	putf(y++, a.x + 1, a.w - 2, ROLE_TITLE, "Process %.0f %s   cgroup %s   (Esc goes back)",
	     num_or_0(t, r, "pid"), table_str(t, r, "comm"), table_str(t, r, "cgroup"));
	y += memory_process_lines(v, num_or_0(t, r, "pid"), (struct rect){ y, a.x + 1, 1, a.w - 2 });
	y++;
	y += put_wrapped((struct rect){ y, a.x + 1, 2, a.w - 2 }, ROLE_TITLE,
			 "Its DRM clients (a client shared with other processes counts for the lowest PID)");
	putf(y++, a.x + 3, a.w - 4, ROLE_LABEL, "%-14s %9s %9s %9s %9s %9s", "REGION", "TOTAL",
	     "RESIDENT", "SHARED", "PURGEABLE", "ACTIVE");
	for (size_t k = 0; cl && k < cl->nrows; k++)
		total += table_num(cl, k, "pid") == table_num(t, r, "pid");
	for (size_t k = 0; cl && k < cl->nrows; k++) {
		if (table_num(cl, k, "pid") != table_num(t, r, "pid"))
			continue;
		/* a block whole or not at all (and none after it): the row above the sparklines says the rest */
		if (y + client_rows(v, table_str(cl, k, "dev"), table_num(cl, k, "client")) > a.y + a.h - 4)
			break;
		shown++;
		putf(y++, a.x + 1, a.w - 2, ROLE_VALUE, "client %.0f on %s (%s), held by %.0f process%s",
		     num_or_0(cl, k, "client"), table_str(cl, k, "dev"), table_str(cl, k, "driver"),
		     num_or_0(cl, k, "holders"), num_or_0(cl, k, "holders") == 1 ? "" : "es");
		y = client_lines(v, (struct rect){ a.y, a.x, a.h - 4, a.w }, y,
				 table_str(cl, k, "dev"), table_num(cl, k, "client"));
	}
	if (shown < total) { /* said, not left out silently */
		char more[160];

		snprintf(more, sizeof(more), "%d more of its %d clients (the DRM clients table lists all)", total - shown,
			 total);
		put_cut(y++, a.x + 1, a.w - 2, ROLE_DIM, more);
	}
	if (y + 3 <= a.y + a.h) {
		y = a.y + a.h - 3;
		draw_spark_row(v, y++, a, "total", t, r, "total_bytes");
		draw_spark_row(v, y++, a, "3D %", t, r, "render_pct");
		draw_spark_row(v, y++, a, "video %", t, r, "video_pct");
	}
}

static const struct pane_decl memory_pane = {
	.collector = "memory",
	.screen = 50,
	.title = "Memory",
	.what = "GPU memory and engine use per device, process, cgroup / container and DRM client (DRM fdinfo, sysfs)",
	.tables = { "memory.devices", "memory.processes", "memory.clients", "memory.regions" },
	.grouped = { NULL, "memory.containers" },
	.drill = { NULL, draw_process },
	.instead = { "nvidia.gpus", "nvidia.gpu_processes" },
	.instead_absent = "No DRM memory source (fdinfo, sysfs)",
	.side = SIDE_MEMORY,
	.summary_table = "memory.devices",
	/* the clients' total (fdinfo), else what the driver says is used (sysfs): whichever this machine has */
	.summary_cols = { "dev", "region", "total_bytes", "used_bytes", "used_pct" },
};
PANE_REGISTER(memory_pane);
