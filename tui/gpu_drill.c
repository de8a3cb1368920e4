// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * G: one GPU of the Overview's device list and its processes, over the screen:
 * NVML's processes on it (nvidia.gpu_processes), the CUDA calls made on it
 * (nvidia.process_gpus: launches, memory, NVML's memory, ioctls on its device
 * file) and every process any source sees on it (gpu.processes, their use
 * summed over all their GPUs). G again: the next GPU; Esc goes back.
 */
#include <stdio.h>
#include <string.h>
#include "core/pci.h"
#include "model/gpu_processes.h"
#include "model/table_seen.h"
#include "tui/draw.h"

#define GPU_TABLES 3

/* Whether row r of t is on device d (i: NVML's index of d where nvidia.gpus lists its bus, else -1). */
typedef bool (*on_gpu_fn)(const struct table *t, size_t r, const struct device_snap *d, double index);

static bool nvml_on(const struct table *t, size_t r, const struct device_snap *d, double index)
{
	(void)d;
	return index >= 0 && table_num(t, r, "gpu") == index;
}

static bool cuda_on(const struct table *t, size_t r, const struct device_snap *d, double index)
{
	(void)index;
	return d->bus_id[0] && pci_same(table_str(t, r, "bus_id"), d->bus_id);
}

/* gpus: "card0,nvidia1": d's name one of them, whole. */
static bool any_on(const struct table *t, size_t r, const struct device_snap *d, double index)
{
	const char *gpus = table_str(t, r, "gpus");
	size_t n = strlen(d->name);

	(void)index;
	for (const char *p = gpus; (p = strstr(p, d->name)); p += n)
		if ((p == gpus || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Its tables, each with the rows on the GPU only. */
static const struct {
	const char *table;
	on_gpu_fn on;
} parts[GPU_TABLES] = {
	{ "nvidia.gpu_processes", nvml_on },
	{ "nvidia.process_gpus", cuda_on },
	{ "gpu.processes", any_on },
};

/* NVML's index of d (by its bus in nvidia.gpus), -1 where NVML does not list it. */
static double nvml_index(const struct snapshot *s, const struct device_snap *d)
{
	const struct table *t = snapshot_table(s, "nvidia.gpus");

	for (size_t r = 0; t && d->bus_id[0] && r < t->nrows; r++)
		if (pci_same(table_str(t, r, "bus_id"), d->bus_id))
			return table_num(t, r, "gpu");
	return -1;
}

static const struct device_snap *shown_device(const struct view *v)
{
	for (size_t i = 0; v->snap && i < v->snap->ndevices; i++)
		if (!strcmp(v->snap->devices[i].name, v->detail_key))
			return &v->snap->devices[i];
	return NULL;
}

/* Part k's rows on d into a table of their own (NULL where the snapshot has no such table). */
static struct table *rows_on(const struct snapshot *s, int k, const struct device_snap *d, double index)
{
	const struct table *t = snapshot_table(s, parts[k].table);
	struct table *out = t ? table_new(t->desc) : NULL;

	for (size_t r = 0; out && r < t->nrows; r++)
		if (parts[k].on(t, r, d, index))
			table_row_copy(out, t, r);
	return out;
}

/* Where seen counts part k's rows on d: "gpu.processes@nvidia0". */
static void seen_scope(int k, const struct device_snap *d, char *scope, size_t size)
{
	snprintf(scope, size, "%s@%s", parts[k].table, d->name);
}

void gpu_drill_seen(struct table_seen *seen, const struct snapshot *s)
{
	for (size_t i = 0; seen && i < s->ndevices; i++) {
		double index = nvml_index(s, &s->devices[i]);

		for (int k = 0; k < GPU_TABLES; k++) {
			struct table *t = rows_on(s, k, &s->devices[i], index);
			char scope[64];

			seen_scope(k, &s->devices[i], scope, sizeof(scope));
			if (t)
				table_seen_add(seen, scope, t);
			table_free(t);
		}
	}
}

static void draw_gpu_drill(struct view *v, const struct table *unused, long row, struct rect a)
{
	static struct table_state ts[GPU_TABLES]; /* not the view's: sorted every frame */
	const struct device_snap *d = shown_device(v);
	struct table *t[GPU_TABLES] = { NULL };
	double index;
	int y, h;

	(void)unused, (void)row;
	clear_rect(a);
	if (!d) {
		draw_drill_gone(v, a, "GPU", "Not in the current snapshot's device list.");
		return;
	}
	index = nvml_index(v->snap, d);
	putf(a.y, a.x + 1, a.w - 2, ROLE_TITLE, "GPU %s  %s %s   (G: the next GPU, Esc goes back)", d->name,
	     d->driver[0] ? d->driver : "-", d->bus_id);
	y = a.y + 1 + put_wrapped((struct rect){ a.y + 1, a.x + 1, 2, a.w - 2 }, ROLE_DIM,
				  "Its processes as NVML sees them, their CUDA calls on it, and every process a "
				  "source sees on it. There GPU% and GPU MEM are over all of a process's GPUs.");
	for (int k = 0; k < GPU_TABLES; k++)
		t[k] = rows_on(v->snap, k, d, index);
	h = (a.y + a.h - y) / GPU_TABLES;
	for (int k = 0; k < GPU_TABLES; k++, y += h) {
		const struct table_desc *desc = table_desc_find(parts[k].table);

		seen_scope(k, d, ts[k].seen_scope, sizeof(ts[k].seen_scope));
		if (desc)
			table_view_draw(v, desc, t[k], &ts[k], (struct rect){ y, a.x, h, a.w }, false, NULL);
		table_free(t[k]);
	}
}

void gpu_drill_next(struct view *v)
{
	const struct snapshot *s = v->snap;
	size_t next = 0;

	if (!s || !s->ndevices) {
		view_message(v, false, "G: no GPU in this snapshot's device list");
		return;
	}
	for (size_t i = 0; v->detail == draw_gpu_drill && i < s->ndevices; i++)
		if (!strcmp(s->devices[i].name, v->detail_key))
			next = (i + 1) % s->ndevices;
	snprintf(v->detail_key, sizeof(v->detail_key), "%s", s->devices[next].name);
	v->detail_table = gpu_processes_table.name;
	v->detail = draw_gpu_drill;
}
