// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The derived tables (gpu.processes; nvidia.process_gpus' joined columns) grow
 * with the rows, not with their square (a linear search per row once made a
 * snapshot of 50,000 processes take seconds): a snapshot of N processes with a
 * row of each in every table a derivation reads, derived at 2,000 and at 16,000
 * processes. Counted (linked with --wrap: every cell the derivations read), then
 * timed in CPU time (the best of five, taken in turns: another process's load is
 * not ours): linear is x8 both, quadratic x64.
 */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/model.h"

/* The derivations' cell reads, counted: table_num and table_str wrapped at the link (TEST_LIBS in the Makefile). */
static size_t cells_read;
double __real_table_num(const struct table *t, size_t row, const char *key);
const char *__real_table_str(const struct table *t, size_t row, const char *key);
double __wrap_table_num(const struct table *t, size_t row, const char *key);
const char *__wrap_table_str(const struct table *t, size_t row, const char *key);

double __wrap_table_num(const struct table *t, size_t row, const char *key)
{
	cells_read++;
	return __real_table_num(t, row, key);
}

const char *__wrap_table_str(const struct table *t, size_t row, const char *key)
{
	cells_read++;
	return __real_table_str(t, row, key);
}

static struct cell *add_row(struct model *m, const char *name)
{
	const struct table_desc *d = table_desc_find(name);
	struct table *t = d ? model_table(m, d) : NULL;
	struct cell *r = t ? table_row_add(t) : NULL;

	assert_non_null(r);
	return r;
}

static void set(const char *name, struct cell *r, const char *key, double v)
{
	const struct table_desc *d = table_desc_find(name);
	int col = table_col(d, key);

	if (col < 0)
		fail_msg("%s has no column %s", name, key);
	if (d->cols[col].type == COL_U64)
		cell_set_u64(r, (unsigned int)col, (uint64_t)v);
	else
		cell_set_f64(r, (unsigned int)col, v);
}

static void set_str(const char *name, struct cell *r, const char *key, const char *v)
{
	int col = table_col(table_desc_find(name), key);

	if (col < 0)
		fail_msg("%s has no column %s", name, key);
	cell_set_str(r, (unsigned int)col, v);
}

/* Process i's rows in every source table: on device i % ndev (a DRM card and NVIDIA GPU both). */
static void process_rows(struct model *m, size_t i, size_t ndev)
{
	static const char *const procs[] = { "drm_sched.processes", "memory.processes", "nvidia.processes" };
	static const char *const on_dev[] = { "drm_sched.process_rings", "memory.clients", "kfd.processes" };
	static const char *const on_gpu[] = { "nvidia.gpu_processes", "nvidia.process_gpus" };
	static const char *const calls[] = { "calls.ioctls", "calls.fence_waits" };
	char comm[16], bus[32], nvbus[32], file[32];
	size_t d = i % ndev;
	struct cell *r;

	snprintf(comm, sizeof(comm), "p%zu", i);
	snprintf(bus, sizeof(bus), "0000:%02zx:%02zx.0", d / 32, d % 32);
	snprintf(nvbus, sizeof(nvbus), "00000000:%02zX:%02zX.0", d / 32, d % 32);
	snprintf(file, sizeof(file), "nvidia%zu", d);
	for (size_t k = 0; k < 3; k++) { /* one in ten named by the calls collector alone */
		set(procs[k], r = add_row(m, procs[k]), "pid", 1000 + (double)i);
		set_str(procs[k], r, "comm", i % 10 == 9 ? "?" : comm);
		set(on_dev[k], r = add_row(m, on_dev[k]), "pid", 1000 + (double)i);
		set_str(on_dev[k], r, "dev", bus);
		if (!strcmp(on_dev[k], "memory.clients"))
			set(on_dev[k], r, "client", (double)i);
	}
	for (size_t k = 0; k < 2; k++) {
		set(on_gpu[k], r = add_row(m, on_gpu[k]), "pid", 1000 + (double)i);
		set(on_gpu[k], r, "gpu", (double)d);
	}
	set_str("nvidia.process_gpus", r, "bus_id", nvbus);
	for (size_t k = 0; k < 2; k++) {
		set(calls[k], r = add_row(m, calls[k]), "pid", 1000 + (double)i);
		set_str(calls[k], r, "comm", comm);
	}
	set_str("calls.ioctls", r = add_row(m, "calls.ioctls"), "device", file);
	set("calls.ioctls", r, "pid", 1000 + (double)i);
	set("calls.ioctls", r, "calls_per_s", 2);
}

/* procs processes on procs / 100 devices, a row of each in every table a derivation reads. */
static struct snapshot *scaled_snapshot(size_t procs)
{
	size_t ndev = procs / 100;
	struct model *m = model_new(0);
	struct snapshot *s;

	assert_non_null(m);
	model_tick_begin(m, 1000000000ULL);
	for (size_t d = 0; d < ndev; d++) {
		struct device_snap dev = { .driver = "amdgpu" };
		struct cell *r = add_row(m, "nvidia.gpus");

		snprintf(dev.name, sizeof(dev.name), "card%zu", d);
		snprintf(dev.bus_id, sizeof(dev.bus_id), "0000:%02zx:%02zx.0", d / 32, d % 32);
		assert_int_equal(model_device_add(m, &dev), 0);
		set("nvidia.gpus", r, "gpu", (double)d);
		set("nvidia.gpus", r, "minor", (double)d);
		snprintf(dev.bus_id, sizeof(dev.bus_id), "00000000:%02zX:%02zX.0", d / 32, d % 32);
		set_str("nvidia.gpus", r, "bus_id", dev.bus_id);
	}
	for (size_t i = 0; i < procs; i++)
		process_rows(m, i, ndev);
	s = model_tick_end(m);
	assert_non_null(s);
	model_free(m);
	return s;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* s derived again (as a replayed snapshot is): the CPU time it took, the cells it read in *cells. */
static double derive_ms(struct snapshot *s, size_t *cells)
{
	double t0 = cpu_ms();

	cells_read = 0;
	assert_int_equal(snapshot_derive(s), 0);
	*cells = cells_read;
	return cpu_ms() - t0;
}

/* What the derivation made of s: every process merged and named, every CUDA row joined. */
static void check_derived(const struct snapshot *s, size_t procs)
{
	const struct table *gp = snapshot_table(s, "gpu.processes"), *pg = snapshot_table(s, "nvidia.process_gpus");
	char gpus[16];

	assert_non_null(gp);
	assert_int_equal(gp->nrows, procs);
	assert_int_equal(pg->nrows, procs);
	for (size_t r = 0; r < procs; r += procs / 10 - 1) { /* one in ten, unnamed ones among them */
		char comm[16];

		snprintf(comm, sizeof(comm), "p%zu", r);
		assert_string_equal(table_str(gp, r, "comm"), comm);
		assert_string_equal(table_str(gp, r, "sources"), "sched,fdinfo,nvml,cuda,kfd");
		assert_true(table_num(pg, r, "ioctls_per_s") == 2);
	}
	snprintf(gpus, sizeof(gpus), "card%zu", (procs - 1) % (procs / 100)); /* each source's spelling of it */
	assert_string_equal(table_str(gp, procs - 1, "gpus"), gpus);
}

static void derived_tables_cost_in_proportion(void **state)
{
	struct snapshot *small = scaled_snapshot(2000), *large = scaled_snapshot(16000);
	size_t cells_small, cells_large;
	double a = 1e9, b = 1e9;

	(void)state;
	check_derived(small, 2000);
	check_derived(large, 16000);
	for (int k = 0; k < 5; k++) {
		a = fmin(a, derive_ms(small, &cells_small));
		b = fmin(b, derive_ms(large, &cells_large));
	}
	check_derived(large, 16000); /* derived again: the same */
	printf("derived tables: 2,000 processes: %zu cells read, %.1f ms CPU; 16,000: %zu cells (x%.2f), %.1f ms "
	       "(x%.1f); linear is x8, quadratic x64\n",
	       cells_small, a, cells_large, (double)cells_large / (double)cells_small, b, b / a);
	/* each row's cells read a fixed number of times: x8.0 (a walk of a table per row: x64) */
	assert_true(cells_large * 10 <= cells_small * 81);
	/* x7.6 to x12.8 measured on a loaded 2-core host (the larger indexes miss the cache), x58 to x71 with the
	 * merge's linear search per row restored */
	assert_true(b < 30 * a);
	snapshot_free(small);
	snapshot_free(large);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(derived_tables_cost_in_proportion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
