// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/process_gpu_join.h"
#include "model/row_index.h"

/* calls.ioctls summed per process and NVIDIA device file: each row added once, then found by its key. */
struct ioctl_sums {
	struct key_index index; /* pid << 32 | minor -> sums */
	double *per_s, *total;
	size_t n, cap;
};

/* The minor number of a device file "nvidia<minor>" (as "%.0f" spells it), false for any other name. */
static bool nvidia_minor(const char *dev, double *minor)
{
	const char *d = dev + strlen("nvidia");
	char *end;

	if (strncmp(dev, "nvidia", strlen("nvidia")) || *d < '0' || *d > '9' || (*d == '0' && d[1]))
		return false;
	*minor = (double)strtoull(d, &end, 10);
	return !*end && end - d < 11;
}

/* The sums of key (pid << 32 | minor) in *slot, new ones (unknown) where none are yet; -1 out of memory. */
static int sum_slot(struct ioctl_sums *is, uint64_t key, size_t *slot)
{
	uint32_t i;

	if (key_index_get(&is->index, key, &i)) {
		*slot = i;
		return 0;
	}
	if (is->n == is->cap) {
		size_t cap = is->cap ? is->cap * 2 : 64;
		double *per_s = reallocarray(is->per_s, cap, sizeof(double)), *total;

		if (per_s)
			is->per_s = per_s;
		total = per_s ? reallocarray(is->total, cap, sizeof(double)) : NULL;
		if (!total)
			return -1;
		is->total = total;
		is->cap = cap;
	}
	if (is->n >= KEY_INDEX_EMPTY || key_index_put(&is->index, key, (uint32_t)is->n))
		return -1;
	is->per_s[is->n] = is->total[is->n] = NAN;
	*slot = is->n++;
	return 0;
}

static int ioctl_sums_build(struct ioctl_sums *is, const struct table *t)
{
	for (size_t r = 0; t && r < t->nrows; r++) {
		double minor;
		uint64_t key;
		size_t i;

		if (!nvidia_minor(table_str(t, r, "device"), &minor) || !row_key(table_num(t, r, "pid"), minor, &key))
			continue;
		if (sum_slot(is, key, &i))
			return -1;
		is->per_s[i] = num_add_known(is->per_s[i], table_num(t, r, "calls_per_s"));
		is->total[i] = num_add_known(is->total[i], table_num(t, r, "calls_total"));
	}
	return 0;
}

static void ioctl_sums_free(struct ioctl_sums *is)
{
	key_index_free(&is->index);
	free(is->per_s);
	free(is->total);
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

/* The tables joined, each indexed by what a row of nvidia.process_gpus finds it by. */
struct join {
	const struct table *gpus, *nvml; /* nvidia.gpus, nvidia.gpu_processes */
	struct key_index by_gpu, by_gpu_pid;
	struct ioctl_sums ioctls;
};

/* The joined columns of t's row r: unknown where no row of theirs names it. */
static void join_row(const struct join *j, struct table *t, size_t r)
{
	double pid = table_num(t, r, "pid"), gpu = table_num(t, r, "gpu"), minor = NAN;
	size_t row, slot = SIZE_MAX;
	uint32_t i;
	uint64_t key;

	if (row_index_find(&j->by_gpu, gpu, 0, &row))
		minor = table_num(j->gpus, row, "minor");
	/* "%.0f" of the minor names its device file: rounded as printf rounds */
	if (!isnan(minor) && row_key(pid, rint(minor), &key) && key_index_get(&j->ioctls.index, key, &i))
		slot = i;
	put(t, table_row(t, r), "ioctls_per_s", slot == SIZE_MAX ? NAN : j->ioctls.per_s[slot]);
	put(t, table_row(t, r), "ioctls_total", slot == SIZE_MAX ? NAN : j->ioctls.total[slot]);
	put(t, table_row(t, r), "nvml_mem_bytes",
	    row_index_find(&j->by_gpu_pid, gpu, pid, &row) ? table_num(j->nvml, row, "mem_bytes") : NAN);
}

int process_gpu_join(struct snapshot *s)
{
	struct join j = { .gpus = snapshot_table(s, "nvidia.gpus"), .nvml = snapshot_table(s, "nvidia.gpu_processes") };
	struct table *t = NULL;
	int err = 0;

	for (size_t i = 0; i < s->ntables && !t; i++)
		if (!strcmp(s->tables[i]->desc->name, "nvidia.process_gpus"))
			t = s->tables[i];
	if (t && t->nrows) /* each table indexed once: no walk of one per row of another */
		err = row_index_build(&j.by_gpu, j.gpus, "gpu", NULL) ||
		      row_index_build(&j.by_gpu_pid, j.nvml, "gpu", "pid") ||
		      ioctl_sums_build(&j.ioctls, snapshot_table(s, "calls.ioctls"));
	for (size_t r = 0; t && !err && r < t->nrows; r++)
		join_row(&j, t, r);
	key_index_free(&j.by_gpu);
	key_index_free(&j.by_gpu_pid);
	ioctl_sums_free(&j.ioctls);
	return err ? -1 : 0;
}
