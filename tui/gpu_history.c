// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Overview's GPU history, where the tables leave room (as nvtop draws it):
 * each NVIDIA GPU's use, memory and power over the last snapshots, one row each.
 */
#include <stdio.h>
#include "tui/draw.h"

static const char *const metrics[][2] = {
	{ "util_pct", "use%" },
	{ "mem_used_bytes", "memory" },
	{ "power_w", "power W" },
};
#define METRICS (int)(sizeof(metrics) / sizeof(metrics[0]))

int gpu_history_rows(const struct view *v)
{
	const struct table *g = snapshot_table(v->snap, "nvidia.gpus");

	return g && g->nrows ? 1 + METRICS * (int)g->nrows : 0;
}

void draw_gpu_history(struct view *v, struct rect r)
{
	const struct table *g = snapshot_table(v->snap, "nvidia.gpus");
	char title[96];
	size_t fits;
	int y = r.y;

	if (!g || !g->nrows || r.h < 1 + METRICS)
		return;
	fits = (size_t)(r.h - 1) / METRICS; /* whole GPUs: a GPU's rows are never split */
	if (fits < g->nrows)
		snprintf(title, sizeof(title), "GPU history (NVML): %zu of %zu GPUs (a taller terminal shows all)",
			 fits, g->nrows);
	put_whole(y++, r.x + 1, r.w - 1, ROLE_TITLE, fits < g->nrows ? title : "GPU history (NVML)");
	for (size_t i = 0; i < g->nrows && i < fits; i++)
		for (int m = 0; m < METRICS && y < r.y + r.h; m++) {
			char label[16];

			snprintf(label, sizeof(label), "%.0f %s", num_or_0(g, i, "gpu"), metrics[m][1]);
			draw_spark_row(v, y++, r, label, g, i, metrics[m][0]);
		}
}
