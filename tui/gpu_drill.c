// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * G: one GPU of the Overview's device list and its processes, over the screen:
 * on an NVIDIA GPU NVML's processes on it (nvidia.gpu_processes) and the CUDA
 * calls made on it (nvidia.process_gpus: launches, memory, NVML's memory,
 * ioctls on its device file); on every GPU (a DRM card, a scheduler's device
 * with no card) every process any source sees on it (gpu.processes, their use
 * summed over all their GPUs). G again: the next GPU; Esc goes back.
 */
#include <stdio.h>
#include <string.h>
#include "core/pci.h"
#include "model/gpu_processes.h"
#include "model/table_seen.h"
#include "tui/draw.h"
#include "tui/layout.h"

#define GPU_TABLES 3

/* A GPU of the device list: its name, its device line (NULL: a scheduler's device with no DRM card), NVML's index. */
struct gpu {
	const char *name;
	const struct device_snap *d;
	double index; /* NVML's index where nvidia.gpus lists its bus, else -1 */
};

/* Whether row r of t is on GPU g. */
typedef bool (*on_gpu_fn)(const struct table *t, size_t r, const struct gpu *g);

static bool nvml_on(const struct table *t, size_t r, const struct gpu *g)
{
	return g->index >= 0 && table_num(t, r, "gpu") == g->index;
}

static bool cuda_on(const struct table *t, size_t r, const struct gpu *g)
{
	return g->d && g->d->bus_id[0] && pci_same(table_str(t, r, "bus_id"), g->d->bus_id);
}

/* gpus: "card0,nvidia1": g's name one of them, whole. */
static bool any_on(const struct table *t, size_t r, const struct gpu *g)
{
	const char *gpus = table_str(t, r, "gpus");
	size_t n = strlen(g->name);

	for (const char *p = gpus; n && (p = strstr(p, g->name)); p += n)
		if ((p == gpus || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Its tables, each with the rows on the GPU only; NVIDIA's on an NVIDIA GPU only. */
static const struct {
	const char *table;
	on_gpu_fn on;
	bool nvidia;
} parts[GPU_TABLES] = {
	{ "nvidia.gpu_processes", nvml_on, true },
	{ "nvidia.process_gpus", cuda_on, true },
	{ "gpu.processes", any_on, false },
};

/* NVML's index of d (by its bus in nvidia.gpus), -1 where NVML does not list it (or d is NULL). */
static double nvml_index(const struct snapshot *s, const struct device_snap *d)
{
	const struct table *t = snapshot_table(s, "nvidia.gpus");

	for (size_t r = 0; t && d && d->bus_id[0] && r < t->nrows; r++)
		if (pci_same(table_str(t, r, "bus_id"), d->bus_id))
			return table_num(t, r, "gpu");
	return -1;
}

/* Whether g is an NVIDIA GPU: NVML lists it, or the nvidia driver has it. */
static bool is_nvidia(const struct gpu *g)
{
	return g->index >= 0 || (g->d && !strcmp(g->d->driver, "nvidia"));
}

/* GPU i of s's device list: its device lines, then the scheduler's devices with no DRM card; false past the last. */
static bool gpu_at(const struct snapshot *s, size_t i, struct gpu *g)
{
	const char *extra[RING_ONLY_MAX];
	size_t nextra = s ? (size_t)ring_only_devices(s, extra) : 0;

	if (!s || i >= s->ndevices + nextra)
		return false;
	g->d = i < s->ndevices ? &s->devices[i] : NULL;
	g->name = g->d ? g->d->name : extra[i - s->ndevices];
	g->index = nvml_index(s, g->d);
	return true;
}

/* Part k's rows on g into a table of their own (NULL where the snapshot has no such table). */
static struct table *rows_on(const struct snapshot *s, int k, const struct gpu *g)
{
	const struct table *t = snapshot_table(s, parts[k].table);
	struct table *out = t ? table_new(t->desc) : NULL;

	for (size_t r = 0; out && r < t->nrows; r++)
		if (parts[k].on(t, r, g))
			table_row_copy(out, t, r);
	return out;
}

/* Where seen counts part k's rows on g: "gpu.processes@nvidia0". */
static void seen_scope(int k, const struct gpu *g, char *scope, size_t size)
{
	snprintf(scope, size, "%s@%s", parts[k].table, g->name);
}

void gpu_drill_seen(struct table_seen *seen, const struct snapshot *s)
{
	struct gpu g;

	for (size_t i = 0; seen && gpu_at(s, i, &g); i++) {
		for (int k = 0; k < GPU_TABLES; k++) {
			struct table *t = parts[k].nvidia && !is_nvidia(&g) ? NULL : rows_on(s, k, &g);
			char scope[64];

			seen_scope(k, &g, scope, sizeof(scope));
			if (t)
				table_seen_add(seen, scope, t);
			table_free(t);
		}
	}
}

/* The GPU the drill-down shows (by its name, v->detail_key); false where the snapshot has it no more. */
static bool shown_gpu(const struct view *v, struct gpu *g)
{
	for (size_t i = 0; gpu_at(v->snap, i, g); i++)
		if (!strcmp(g->name, v->detail_key))
			return true;
	return false;
}

/* The bottom row of a: the titles of the tables from first on that have no rows. */
static void left_out_line(struct rect a, int first, const int *h)
{
	char text[160] = "";
	size_t len;
	int n = layout_left_out(&h[first], GPU_TABLES - first);

	snprintf(text, sizeof(text), "%d more %s (a taller terminal shows %s):", n, n == 1 ? "table" : "tables",
		 n == 1 ? "it" : "them");
	for (int k = first; k < GPU_TABLES; k++) {
		const struct table_desc *d = table_desc_find(parts[k].table);

		len = strlen(text);
		if (h[k] <= 0 && d)
			snprintf(text + len, sizeof(text) - len, " %s", d->title);
	}
	put_whole(a.y + a.h - 1, a.x + 1, a.w - 2, ROLE_DIM, text);
}

static void draw_gpu_drill(struct view *v, const struct table *unused, long row, struct rect a)
{
	static struct table_state ts[GPU_TABLES]; /* not the view's: sorted every frame */
	struct table *t[GPU_TABLES] = { NULL };
	int x, y, first, need[GPU_TABLES], h[GPU_TABLES];
	struct gpu g;

	(void)unused, (void)row;
	clear_rect(a);
	if (!shown_gpu(v, &g)) {
		draw_drill_gone(v, a, "GPU", "Not in the current snapshot's device list.");
		return;
	}
	x = a.x + 1 +
	    putf(a.y, a.x + 1, a.w - 2, ROLE_TITLE, "GPU %s  %s %s", g.name, g.d && g.d->driver[0] ? g.d->driver : "-",
		 g.d ? g.d->bus_id : "(no DRM card: its scheduler's rings)");
	put_whole(a.y, x, a.x + a.w - 1 - x, ROLE_TITLE, "   (G: the next GPU, Esc goes back)");
	y = a.y + 1 +
	    put_wrapped((struct rect){ a.y + 1, a.x + 1, 2, a.w - 2 }, ROLE_DIM,
			is_nvidia(&g) ? "Its processes as NVML sees them, their CUDA calls on it, and every "
					"process a source sees on it. There GPU% and GPU MEM are over all of "
					"a process's GPUs." :
					"The processes the DRM scheduler, fdinfo and KFD see on it (Display and "
					"Calls list their own). GPU% and GPU MEM are over all of a process's GPUs.");
	first = is_nvidia(&g) ? 0 : GPU_TABLES - 1;
	for (int k = first; k < GPU_TABLES; k++) {
		t[k] = rows_on(v->snap, k, &g);
		need[k] = t[k] && t[k]->nrows ? (int)t[k]->nrows + 3 : 4; /* title, header, rows, a blank line */
	}
	/* each its rows while they last, the rest left below them: no table stretched over blank rows */
	layout_share(&need[first], GPU_TABLES - first, 0, a.y + a.h - y, 4, &h[first]);
	if (layout_left_out(&h[first], GPU_TABLES - first)) { /* a row kept to say so */
		layout_share(&need[first], GPU_TABLES - first, 0, a.y + a.h - y - 1, 4, &h[first]);
		left_out_line(a, first, h);
	}
	for (int k = first; k < GPU_TABLES; y += h[k], k++) {
		const struct table_desc *desc = table_desc_find(parts[k].table);

		seen_scope(k, &g, ts[k].seen_scope, sizeof(ts[k].seen_scope));
		if (desc && h[k] > 0)
			table_view_draw(v, desc, t[k], &ts[k], (struct rect){ y, a.x + 1, h[k], a.w - 1 }, false, NULL);
		table_free(t[k]);
	}
}

void gpu_drill_next(struct view *v)
{
	size_t next = 0;
	struct gpu g;

	if (!gpu_at(v->snap, 0, &g)) {
		view_message(v, false, "G: no GPU in this snapshot's device list");
		return;
	}
	if (v->detail == draw_gpu_drill && !gpu_at(v->snap, 1, &g)) {
		view_message(v, false, "G: %s is the only GPU in this snapshot's device list", v->detail_key);
		return;
	}
	for (size_t i = 0; v->detail == draw_gpu_drill && gpu_at(v->snap, i, &g); i++)
		if (!strcmp(g.name, v->detail_key))
			next = gpu_at(v->snap, i + 1, &g) ? i + 1 : 0;
	gpu_at(v->snap, next, &g);
	snprintf(v->detail_key, sizeof(v->detail_key), "%s", g.name);
	v->detail_table = gpu_processes_table.name;
	v->detail = draw_gpu_drill;
}
