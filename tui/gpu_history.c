// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Overview's GPU history, where the tables leave room (as nvtop draws it):
 * each NVIDIA GPU's use, memory and power over the last snapshots, one row each;
 * where rows are left, its temperature, memory bandwidth and graphics clock too
 * (those that a GPU of the table reports), rather than blank rows; where rows are left
 * still, each chart grows taller (up to SPARK_BANDS_MAX rows), the first ones first.
 */
#include <stdio.h>
#include "tui/draw.h"
#include "tui/table_fit.h"

static const char *const metrics[][2] = {
	{ "util_pct", "use%" }, { "mem_used_bytes", "memory" }, { "power_w", "power W" },
	{ "temp_c", "temp C" }, { "mem_util_pct", "membw%" },	{ "gfx_mhz", "gfx MHz" },
};
#define METRICS (int)(sizeof(metrics) / sizeof(metrics[0]))
#define BASE_METRICS 3 /* use, memory, power: every GPU shown has these rows */

/* The metrics g's GPUs have rows for, into which[]: the base ones, then the others some GPU reports. */
static int known_metrics(const struct table *g, int *which)
{
	int n = 0;

	for (int m = 0; m < METRICS; m++) {
		int col = table_col(g->desc, metrics[m][0]);

		if (m < BASE_METRICS || (col >= 0 && table_col_known(g, (unsigned int)col)))
			which[n++] = m;
	}
	return n;
}

int gpu_history_rows(const struct view *v, int *least)
{
	const struct table *g = snapshot_table(v->snap, "nvidia.gpus");
	int which[METRICS];

	*least = g && g->nrows ? 1 + BASE_METRICS * (int)g->nrows : 0;
	return g && g->nrows ? 1 + known_metrics(g, which) * SPARK_BANDS_MAX * (int)g->nrows : 0;
}

/* Metric m's rows of the each a GPU has for its nm charts: one, or each's share, the first ones the rest. */
static int chart_rows(int each, int nm, int m)
{
	if (each <= nm)
		return 1;
	each = each > nm * SPARK_BANDS_MAX ? nm * SPARK_BANDS_MAX : each;
	return each / nm + (m < each % nm);
}

void draw_gpu_history(struct view *v, struct rect r)
{
	const struct table *g = snapshot_table(v->snap, "nvidia.gpus");
	int which[METRICS], nm, each, y = r.y;
	char title[96];
	size_t fits;

	if (!g || !g->nrows || r.h < 1 + BASE_METRICS)
		return;
	nm = known_metrics(g, which);
	/* whole GPUs, each as many rows as all shown can have: a GPU's rows are never split */
	each = (r.h - 1) / (int)g->nrows;
	each = each < BASE_METRICS ? BASE_METRICS : each;
	fits = (size_t)(r.h - 1) / (size_t)each;
	if (fits < g->nrows)
		snprintf(title, sizeof(title), "GPU history (NVML): %zu of %zu GPUs (a taller terminal shows all)",
			 fits, g->nrows);
	put_whole(y++, r.x + 1, r.w - 1, ROLE_TITLE, fits < g->nrows ? title : "GPU history (NVML)");
	for (size_t i = 0; i < g->nrows && i < fits; i++)
		for (int m = 0; m < each && m < nm && y < r.y + r.h; m++) {
			int bands = chart_rows(each, nm, m);
			char label[16];

			snprintf(label, sizeof(label), "GPU%.0f %s", num_or_0(g, i, "gpu"), metrics[which[m]][1]);
			draw_spark_rows(v, y, bands, r, label, g, i, metrics[which[m]][0]);
			y += bands;
		}
}
