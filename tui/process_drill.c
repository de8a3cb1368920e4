// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Enter on a process of the Overview's table (gpu.processes): what the merge
 * made of it, then what each source that sees it says, each row of each
 * source's table as its columns' titles and values (its CUDA calls per CUDA
 * device among them), then its scheduler rings
 * and sparklines of its GPU use and memory.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/share_dir.h"
#include "format/cell_format.h"
#include "tui/draw.h"

/* The tables that see processes, in the order the merge reads them, and what to call each. */
static const struct {
	const char *table, *label;
} sources[] = {
	{ "drm_sched.processes", "DRM scheduler" },  { "memory.processes", "DRM fdinfo" },
	{ "nvidia.gpu_processes", "NVML" },	     { "nvidia.processes", "CUDA calls" },
	{ "nvidia.process_gpus", "CUDA on device" }, /* a row per CUDA device, "unknown" too */
	{ "nvidia.gpu_busy", "GPU time (CUPTI)" }, /* a row per CUDA device, with the CUPTI library */
	{ "kfd.processes", "KFD (ROCm)" },
};

#define MAX_PARTS 48

/* A row as parts to draw whole: "LABEL:", then "TITLE value" of every known column but the process's own. */
struct row_parts {
	char text[MAX_PARTS][TABLE_STR_MAX + 32];
	const char *ptr[MAX_PARTS];
	int n;
};

static void row_parts(const struct table *t, size_t row, const char *label, struct row_parts *p)
{
	p->n = 0;
	snprintf(p->text[p->n++], sizeof(p->text[0]), "%s:", label);
	for (unsigned int c = 0; c < t->desc->ncols && p->n < MAX_PARTS; c++) {
		const struct col_desc *col = &t->desc->cols[c];
		const struct cell *cell = table_cell(t, row, c);
		char val[TABLE_STR_MAX];

		if (!cell->known || col->type == COL_HIST || !strcmp(col->key, "pid") ||
		    !strcmp(col->key, "comm") || !strcmp(col->key, "cgroup"))
			continue;
		cell_format(col, cell, val, sizeof(val));
		snprintf(p->text[p->n++], sizeof(p->text[0]), "%s %s", col->title, val);
	}
	for (int i = 0; i < p->n; i++)
		p->ptr[i] = p->text[i];
}

/* What the view left out for want of rows, said on its last line: "its NVML row, its charts". */
struct left_out {
	char text[160];
};

static void left_out_add(struct left_out *l, const char *what)
{
	if (!strstr(l->text, what))
		snprintf(l->text + strlen(l->text), sizeof(l->text) - strlen(l->text), "%s%s", l->text[0] ? ", " : "",
			 what);
}

/* Every row of every source table for pid, from y; returns the next row. */
static int source_lines(struct view *v, struct rect a, int y, double pid, struct left_out *l)
{
	static struct row_parts p; /* 12 KiB: off the stack */

	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		const struct table *t = snapshot_table(v->snap, sources[i].table);

		for (size_t r = 0; t && r < t->nrows; r++) {
			if (table_num(t, r, "pid") != pid)
				continue;
			row_parts(t, r, sources[i].label, &p);
			if (y + parts_rows(p.ptr, p.n, a.w, 2) > a.y + a.h) { /* a row whole or said, never half */
				char what[64];

				snprintf(what, sizeof(what), "its %s rows", sources[i].label);
				left_out_add(l, what);
				y = a.y + a.h; /* none after it: they would read as its */
				continue;
			}
			y += put_parts((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_NORMAL, p.ptr, p.n, 2);
		}
	}
	return y;
}

/* Whether table name has a row of pid. */
static bool has_row(struct view *v, const char *name, double pid)
{
	const struct table *t = snapshot_table(v->snap, name);

	for (size_t r = 0; t && r < t->nrows; r++)
		if (table_num(t, r, "pid") == pid)
			return true;
	return false;
}

/* The CUPTI library for the hint: beside the binary (PREFIX/lib/gputop-bpf), the package's, make install's. */
static const char *cupti_lib(void)
{
	static const char *const fixed[] = { "/usr/lib/gputop-bpf/libgputop-cupti.so",
					     "/usr/local/lib/gputop-bpf/libgputop-cupti.so" };
	static char own[300];
	static const char *found;

	if (found)
		return found;
	if (installed_lib("libgputop-cupti.so", own, sizeof(own)))
		return found = own;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!access(fixed[i], R_OK))
			return found = fixed[i];
	return found = fixed[1]; /* make install's, where nothing is installed yet */
}

/* A CUDA process without GPU time (no CUPTI library in it): how to have it, on one line; the next row. */
static int gpu_time_hint(struct view *v, struct rect a, int y, double pid, struct left_out *l)
{
	char hint[400];

	if (!has_row(v, "nvidia.processes", pid) || has_row(v, "nvidia.gpu_busy", pid))
		return y;
	snprintf(hint, sizeof(hint), "GPU time (pane 8): not measured. Start it with CUDA_INJECTION64_PATH=%s",
		 cupti_lib());
	if (y + wrapped_rows(hint, a.w) > a.y + a.h) {
		left_out_add(l, "how to have its GPU time");
		return y;
	}
	return y + put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_DIM, hint);
}

/* Where NVML's GPU MEM and the CUDA calls' DEVMEM are both shown: why they differ; returns the next row. */
static int memory_note(struct view *v, struct rect a, int y, double pid, struct left_out *l)
{
	static const char note[] = "GPU MEM is NVML's: all the process holds on the GPU, its CUDA context included. "
				   "DEVMEM is what its CUDA allocation calls hold now (a framework's cache among it).";

	if (!has_row(v, "nvidia.gpu_processes", pid) || !has_row(v, "nvidia.processes", pid))
		return y;
	if (y + wrapped_rows(note, a.w) > a.y + a.h) {
		left_out_add(l, "the GPU MEM note");
		return y;
	}
	return y + put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_DIM, note);
}

/* Its rings, from the scheduler's process_rings, from y; returns the next row. */
static int ring_lines(struct view *v, struct rect a, int y, double pid, struct left_out *l)
{
	const struct table *pr = snapshot_table(v->snap, "drm_sched.process_rings");
	const struct table *rings = snapshot_table(v->snap, "drm_sched.rings");
	static char head[6][48] = { "RING          ", " DEVICE        ", "   SUBM/S",
				    "   GPU%",	      "     JOBS",	 "  EXEC p50" };
	char rate[16], p50[16], key[128], parts[6][48];
	bool title = false;

	for (size_t k = 0; pr && k < pr->nrows && y < a.y + a.h; k++) {
		long g;

		if (table_num(pr, k, "pid") != pid)
			continue;
		if (!title && y + 2 >= a.y + a.h) {
			left_out_add(l, "its rings");
			break;
		}
		if (!title) { /* columns whole or left out, header and rows alike */
			put(y++, a.x, a.w, ROLE_TITLE, "Its rings");
			put_columns(y++, a.x, a.x + a.w, ROLE_LABEL, ROLE_LABEL, head, 6);
			title = true;
		}
		snprintf(key, sizeof(key), "%s/%s", table_str(pr, k, "name"), table_str(pr, k, "dev"));
		g = rings ? table_find_row(rings, key) : -1;
		if (g >= 0 && !isnan(table_num(rings, (size_t)g, "exec_ns.p50")))
			format_duration_ns(table_num(rings, (size_t)g, "exec_ns.p50"), p50, sizeof(p50));
		else
			snprintf(p50, sizeof(p50), "-");
		snprintf(parts[0], sizeof(parts[0]), "%-14.14s", table_str(pr, k, "name"));
		snprintf(parts[1], sizeof(parts[1]), " %-14.14s",
			 table_str(pr, k, "dev")[0] ? table_str(pr, k, "dev") : "-");
		snprintf(parts[2], sizeof(parts[2]), " %8s",
			 fmt_rate(num_or_0(pr, k, "jobs_per_s"), rate, sizeof(rate)));
		snprintf(parts[3], sizeof(parts[3]), " %6.1f", num_or_0(pr, k, "gpu_pct"));
		snprintf(parts[4], sizeof(parts[4]), " %8.0f", num_or_0(pr, k, "jobs_total"));
		snprintf(parts[5], sizeof(parts[5]), " %9s", p50);
		put_columns(y++, a.x, a.x + a.w, ROLE_NORMAL, ROLE_NORMAL, parts, 6);
	}
	return y;
}

/*
 * Its GPU % and memory sparklines from row y on, below its lines: one with values as tall as the rows
 * left allow (SPARK_BANDS_MAX), one without a value its one line.
 */
static void draw_charts(struct view *v, const struct table *t, size_t r, struct rect a, int y, struct left_out *l)
{
	static const char *const keys[2] = { "gpu_pct", "mem_bytes" }, *const labels[2] = { "GPU %", "GPU mem" };
	bool known[2] = { spark_known(v, t, r, keys[0]), spark_known(v, t, r, keys[1]) };
	int tall = known[0] + known[1], left = a.y + a.h - y, bands;

	if (left < 2) {
		left_out_add(l, "its charts");
		return;
	}
	bands = tall ? (left - 1 - (2 - tall)) / tall : 1; /* a blank line above them where there is room */
	bands = bands > SPARK_BANDS_MAX ? SPARK_BANDS_MAX : bands < 1 ? 1 : bands;
	y = y + 1 + tall * bands + (2 - tall) <= a.y + a.h ? y + 1 : a.y + a.h - tall * bands - (2 - tall);
	for (int i = 0; i < 2; i++) {
		draw_spark_rows(v, y, known[i] ? bands : 1, a, labels[i], t, r, keys[i]);
		y += known[i] ? bands : 1;
	}
}

void draw_process_drill(struct view *v, const struct table *t, long row, struct rect a)
{
	struct rect in = { a.y, a.x + 1, a.h, a.w - 2 };
	struct left_out l = { "" };
	static struct row_parts p;
	double pid;
	int y = a.y;
	size_t r = (size_t)row;

	clear_rect(a);
	if (row < 0) {
		draw_drill_gone(v, a, "Process", "Not in the current snapshot: it exited, or no source sees it now.");
		return;
	}
	pid = table_num(t, r, "pid");
	putf(y++, in.x, in.w, ROLE_TITLE, "Process %.0f %s   (Esc goes back)", pid, table_str(t, r, "comm"));
	row_parts(t, r, "Over all sources", &p);
	if (table_str(t, r, "cgroup")[0] && p.n < MAX_PARTS) {
		snprintf(p.text[p.n], sizeof(p.text[0]), "CONTAINER %s", table_str(t, r, "cgroup"));
		p.ptr[p.n] = p.text[p.n];
		p.n++;
	}
	y += put_parts((struct rect){ y, in.x, in.h, in.w }, ROLE_VALUE, p.ptr, p.n, 2);
	y++;
	/* the last row kept for what does not fit; the charts may take it where all else did */
	in.h--;
	y = source_lines(v, in, y, pid, &l);
	y = gpu_time_hint(v, in, y, pid, &l);
	y = memory_note(v, in, y, pid, &l);
	y = ring_lines(v, in, y + 1, pid, &l);
	/* the charts in the rows left: the last one too where nothing else was left out */
	draw_charts(v, t, r, l.text[0] ? (struct rect){ a.y, a.x, a.h - 1, a.w } : a, y, &l);
	if (l.text[0]) {
		char more[2][220];

		snprintf(more[0], sizeof(more[0]), "Not shown (a taller terminal shows them): %s.", l.text);
		snprintf(more[1], sizeof(more[1]), "Not shown: %s.", l.text);
		if (!put_whole(a.y + a.h - 1, in.x, in.w, ROLE_DIM, more[0]) &&
		    !put_whole(a.y + a.h - 1, in.x, in.w, ROLE_DIM, more[1]))
			put_whole(a.y + a.h - 1, in.x, in.w, ROLE_DIM, "More in a taller terminal.");
	}
}
