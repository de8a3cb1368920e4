// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/process_gpu_join.h"

/* The minor number of NVML's GPU gpu (nvidia.gpus), NAN where unknown. */
static double gpu_minor(const struct snapshot *s, double gpu)
{
	const struct table *t = snapshot_table(s, "nvidia.gpus");

	for (size_t r = 0; t && !isnan(gpu) && r < t->nrows; r++)
		if (table_num(t, r, "gpu") == gpu)
			return table_num(t, r, "minor");
	return NAN;
}

/* Process pid's ioctls per second and in all on /dev/nvidia<minor>: NAN where no row names it. */
static void ioctls_on(const struct snapshot *s, double pid, double minor, double *per_s, double *total)
{
	const struct table *t = snapshot_table(s, "calls.ioctls");
	char dev[32];

	*per_s = *total = NAN;
	if (isnan(minor) || isnan(pid))
		return;
	snprintf(dev, sizeof(dev), "nvidia%.0f", minor);
	for (size_t r = 0; t && r < t->nrows; r++)
		if (table_num(t, r, "pid") == pid && !strcmp(table_str(t, r, "device"), dev)) {
			*per_s = num_add_known(*per_s, table_num(t, r, "calls_per_s"));
			*total = num_add_known(*total, table_num(t, r, "calls_total"));
		}
}

/* The memory NVML accounts to process pid on GPU gpu, NAN where it does not list it (or says none). */
static double nvml_mem(const struct snapshot *s, double pid, double gpu)
{
	const struct table *t = snapshot_table(s, "nvidia.gpu_processes");

	for (size_t r = 0; t && !isnan(gpu) && r < t->nrows; r++)
		if (table_num(t, r, "gpu") == gpu && table_num(t, r, "pid") == pid)
			return table_num(t, r, "mem_bytes");
	return NAN;
}

/* Column key of row set to v, or unknown where v is NAN (a recorded value is never kept). */
static void put(struct table *t, struct cell *row, const char *key, double v)
{
	int col = table_col(t->desc, key);

	if (col < 0)
		return;
	row[col].known = false; /* numbers only: nothing owned */
	if (isnan(v))
		return;
	if (t->desc->cols[col].type == COL_U64)
		cell_set_u64(row, (unsigned int)col, (uint64_t)fmax(0, v));
	else
		cell_set_f64(row, (unsigned int)col, v);
}

void process_gpu_join(struct snapshot *s)
{
	struct table *t = NULL;

	for (size_t i = 0; i < s->ntables && !t; i++)
		if (!strcmp(s->tables[i]->desc->name, "nvidia.process_gpus"))
			t = s->tables[i];
	for (size_t r = 0; t && r < t->nrows; r++) {
		double pid = table_num(t, r, "pid"), gpu = table_num(t, r, "gpu"), per_s, total;

		ioctls_on(s, pid, gpu_minor(s, gpu), &per_s, &total);
		put(t, table_row(t, r), "ioctls_per_s", per_s);
		put(t, table_row(t, r), "ioctls_total", total);
		put(t, table_row(t, r), "nvml_mem_bytes", nvml_mem(s, pid, gpu));
	}
}
