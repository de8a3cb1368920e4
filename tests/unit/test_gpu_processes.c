// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * gpu.processes, the merge by PID: per GPU the best GPU-use source (scheduler,
 * else NVML, else fdinfo, each at most 100) and the largest memory a source
 * reports (never added across sources), both summed over the GPUs; devices
 * named as the snapshot lists them; the sources named; one table however often
 * it is derived (a replayed snapshot that has one already). And nvidia.process_gpus'
 * joined columns: a process's ioctls on its GPU's own device file (by the GPU's
 * minor number, never its index) and NVML's memory of it there, unknown where
 * not known, a recorded value never kept. A "?" name takes another table's name of the pid.
 */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/gpu_processes.h"
#include "model/model.h"

/* A row of the registered table name: "key=value" pairs, numbers unless the column is text. */
static void row(struct model *m, const char *name, ...)
{
	const struct table_desc *d = table_desc_find(name);
	struct table *t = d ? model_table(m, d) : NULL;
	struct cell *r = t ? table_row_add(t) : NULL;
	const char *kv;
	va_list ap;

	assert_non_null(r);
	va_start(ap, name);
	while ((kv = va_arg(ap, const char *))) {
		char key[64];
		const char *eq = strchr(kv, '=');
		int col;

		assert_non_null(eq);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
		col = table_col(d, key);
		if (col < 0)
			fail_msg("%s has no column %s", name, key);
		if (d->cols[col].type == COL_STR)
			cell_set_str(r, (unsigned int)col, eq + 1);
		else if (d->cols[col].type == COL_U64)
			cell_set_u64(r, (unsigned int)col, strtoull(eq + 1, NULL, 10));
		else
			cell_set_f64(r, (unsigned int)col, strtod(eq + 1, NULL));
	}
	va_end(ap);
}

static struct snapshot *tick(void)
{
	struct model *m = model_new(0);
	struct snapshot *s;

	assert_non_null(m);
	model_tick_begin(m, 1000000000ULL);
	model_device_add(m, &(struct device_snap){ "card0", "amdgpu", "0000:03:00.0" });
	model_device_add(m, &(struct device_snap){ "nvidia0", "nvidia", "0000:3b:00.0" });
	model_device_add(m, &(struct device_snap){ "card1", "mockdrm", "" });
	/* 100: scheduler jobs and fdinfo memory on card0, and the KFD's VRAM there (the same buffers) */
	row(m, "drm_sched.processes", "pid=100", "comm=game", "jobs_per_s=70", "wait_mean_ns=5000", NULL);
	row(m, "drm_sched.process_rings", "pid=100", "dev=0000:03:00.0", "name=gfx", "gpu_pct=80", NULL);
	row(m, "drm_sched.process_rings", "pid=100", "dev=0000:03:00.0", "name=comp", "gpu_pct=70", NULL);
	row(m, "memory.clients", "dev=0000:03:00.0", "client=1", "pid=100", "comm=game", "resident_bytes=1000",
	    "busy_pct=12", "cgroup=docker:abc", NULL);
	row(m, "memory.processes", "pid=100", "comm=game", "render_pct=40", "compute_pct=3", NULL);
	row(m, "kfd.processes", "pid=100", "gpu_id=7", "dev=0000:03:00.0", "vram_bytes=3000", "queues=2", NULL);
	/* 200: NVML on the H100 and fdinfo on the mock card (no bus: by its driver's name) */
	row(m, "nvidia.gpus", "gpu=0", "bus_id=00000000:3B:00.0", NULL);
	row(m, "nvidia.gpu_processes", "gpu=0", "pid=200", "comm=python3", "mem_bytes=5000", "sm_pct=30", NULL);
	row(m, "nvidia.processes", "pid=200", "comm=python3", "launches_per_s=900", "mem_bytes=4000",
	    "sync_pct=25", NULL);
	row(m, "memory.clients", "dev=mockdrm", "client=2", "pid=200", "comm=python3", "resident_bytes=600",
	    "busy_pct=20", NULL);
	/* 300: CUDA calls only (no GPU reports it): its tracked allocations are its memory */
	row(m, "nvidia.processes", "pid=300", "comm=cuda-init", "mem_bytes=700", NULL);
	/* ... its calls on CUDA device 0, placed on the H100 by its bus id; others on a device unknown */
	row(m, "nvidia.process_gpus", "pid=300", "comm=cuda-init", "cuda_device=0", "gpu=0",
	    "bus_id=00000000:3B:00.0", "mem_bytes=700", NULL);
	row(m, "nvidia.process_gpus", "pid=300", "comm=cuda-init", "cuda_device=unknown", "launches_total=5", NULL);
	/* 400: allocated 900 and never freed by a call; its context ended: the GPUs hold 800 in all */
	row(m, "nvidia.gpus", "gpu=1", "bus_id=00000000:3C:00.0", "mem_used_bytes=800", NULL);
	row(m, "nvidia.processes", "pid=400", "comm=cuda-exit", "mem_bytes=900", NULL);
	/* 500: no source knows its memory: unknown, not 0 nor what the GPUs hold; gone when the CUDA
	 * collector looked ("?"), named by the calls collector (at the call, in BPF) */
	row(m, "nvidia.processes", "pid=500", "comm=?", "launches_per_s=1", NULL);
	row(m, "calls.ioctls", "pid=500", "comm=cuda-none", "calls_total=3", NULL);
	s = model_tick_end(m);
	assert_non_null(s);
	model_free(m);
	return s;
}

static size_t pid_row(const struct table *t, double pid)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (table_num(t, i, "pid") == pid)
			return i;
	fail_msg("no row for pid %.0f", pid);
	return 0;
}

#define NUM(t, r, key, want) assert_true(fabs(table_num(t, r, key) - (want)) < 1e-9)

static void merged_by_pid(void **state)
{
	struct snapshot *s = tick();
	const struct table *t = snapshot_table(s, "gpu.processes");
	size_t r;

	(void)state;
	assert_non_null(t);
	assert_int_equal(t->nrows, 5);
	r = pid_row(t, 100);
	assert_string_equal(table_str(t, r, "comm"), "game");
	assert_string_equal(table_str(t, r, "gpus"), "card0");
	NUM(t, r, "gpu_pct", 100); /* the scheduler's 80 + 70 on one GPU, at most 100; not fdinfo's 12 */
	NUM(t, r, "mem_bytes", 3000); /* the KFD's 3000 over fdinfo's 1000: the larger, not the sum */
	NUM(t, r, "jobs_per_s", 70);
	NUM(t, r, "wait_mean_ns", 5000);
	NUM(t, r, "render_pct", 40);
	NUM(t, r, "queues", 2);
	assert_string_equal(table_str(t, r, "cgroup"), "docker:abc");
	assert_string_equal(table_str(t, r, "sources"), "sched,fdinfo,kfd");
	r = pid_row(t, 200);
	assert_string_equal(table_str(t, r, "gpus"), "nvidia0,card1");
	NUM(t, r, "gpu_pct", 50); /* NVML's 30 on the H100 + fdinfo's 20 on the mock card */
	NUM(t, r, "mem_bytes", 5600); /* NVML's 5000 + 600 on the other GPU; CUDA's 4000 not added */
	NUM(t, r, "launches_per_s", 900);
	NUM(t, r, "sync_pct", 25);
	assert_true(isnan(table_num(t, r, "jobs_per_s")));
	assert_string_equal(table_str(t, r, "sources"), "fdinfo,nvml,cuda");
	r = pid_row(t, 300);
	NUM(t, r, "mem_bytes", 700); /* its calls' memory still: the device rows add no value */
	assert_string_equal(table_str(t, r, "gpus"), "nvidia0"); /* from nvidia.process_gpus, the unknown not a GPU */
	assert_true(isnan(table_num(t, r, "gpu_pct")));
	r = pid_row(t, 400);
	NUM(t, r, "mem_bytes", 800); /* never above what NVML says the GPUs hold */
	assert_true(isnan(table_num(t, pid_row(t, 500), "mem_bytes")));
	assert_string_equal(table_str(t, pid_row(t, 500), "comm"), "cuda-none");
	assert_string_equal(table_str(t, pid_row(t, 500), "sources"), "cuda"); /* calls: a name, not a source */
	/* the CUDA processes' own "?" named too, from calls.ioctls of the same snapshot (process_names.c) */
	assert_string_equal(table_str(snapshot_table(s, "nvidia.processes"),
				      pid_row(snapshot_table(s, "nvidia.processes"), 500), "comm"),
			    "cuda-none");
	assert_true(isnan(table_num(t, r, "gpu_pct"))); /* unknown, not 0 */
	assert_string_equal(table_str(t, r, "gpus"), "");
	snapshot_free(s);
}

/* Derived again (a replayed snapshot that has one): rebuilt, one table, the same rows. */
static void derived_once(void **state)
{
	struct snapshot *s = tick();
	size_t n = s->ntables, found = 0;

	(void)state;
	assert_int_equal(gpu_processes_derive(s), 0);
	assert_int_equal(s->ntables, n);
	for (size_t i = 0; i < s->ntables; i++)
		found += !strcmp(s->tables[i]->desc->name, "gpu.processes");
	assert_int_equal(found, 1);
	assert_int_equal(snapshot_table(s, "gpu.processes")->nrows, 5);
	snapshot_free(s);
}

/*
 * Process 600 on CUDA devices 0, 1, 2 (NVML's GPUs 0, 1, 2) and on one not
 * placed; GPU 0 is /dev/nvidia1, GPU 1 /dev/nvidia0, GPU 2's minor unknown.
 */
static struct snapshot *join_tick(void)
{
	struct model *m = model_new(0);
	struct snapshot *s;

	assert_non_null(m);
	model_tick_begin(m, 1000000000ULL);
	row(m, "nvidia.gpus", "gpu=0", "minor=1", NULL);
	row(m, "nvidia.gpus", "gpu=1", "minor=0", NULL);
	row(m, "nvidia.gpus", "gpu=2", NULL);
	row(m, "nvidia.process_gpus", "pid=600", "cuda_device=0", "gpu=0", NULL);
	/* a value a recording carried: joined again, not kept */
	row(m, "nvidia.process_gpus", "pid=600", "cuda_device=1", "gpu=1", "ioctls_total=99", "nvml_mem_bytes=9", NULL);
	row(m, "nvidia.process_gpus", "pid=600", "cuda_device=2", "gpu=2", NULL);
	row(m, "nvidia.process_gpus", "pid=600", "cuda_device=unknown", NULL);
	row(m, "calls.ioctls", "pid=600", "device=nvidia1", "cmd=1", "calls_per_s=10", "calls_total=100", NULL);
	row(m, "calls.ioctls", "pid=600", "device=nvidia1", "cmd=2", "calls_per_s=5", "calls_total=50", NULL);
	row(m, "calls.ioctls", "pid=600", "device=nvidiactl", "cmd=1", "calls_per_s=1000", "calls_total=1000", NULL);
	row(m, "calls.ioctls", "pid=600", "device=nvidia2", "cmd=1", "calls_per_s=3", "calls_total=3", NULL);
	row(m, "calls.ioctls", "pid=601", "device=nvidia0", "cmd=1", "calls_per_s=7", "calls_total=7", NULL);
	row(m, "nvidia.gpu_processes", "gpu=0", "pid=600", "mem_bytes=1000", NULL);
	row(m, "nvidia.gpu_processes", "gpu=1", "pid=601", "mem_bytes=2000", NULL);
	s = model_tick_end(m);
	assert_non_null(s);
	model_free(m);
	return s;
}

static size_t device_row(const struct table *t, const char *dev)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(table_str(t, i, "cuda_device"), dev))
			return i;
	fail_msg("no row for CUDA device %s", dev);
	return 0;
}

static void ioctls_and_nvml_memory_per_gpu(void **state)
{
	struct snapshot *s = join_tick();
	const struct table *t = snapshot_table(s, "nvidia.process_gpus");
	size_t r;

	(void)state;
	assert_non_null(t);
	r = device_row(t, "0");
	NUM(t, r, "ioctls_per_s", 15); /* its two commands on nvidia1 (GPU 0's minor), not nvidiactl's */
	NUM(t, r, "ioctls_total", 150);
	NUM(t, r, "nvml_mem_bytes", 1000);
	r = device_row(t, "1"); /* on nvidia0 only process 601's ioctls, in NVML only 601: unknown, not 0 */
	assert_true(isnan(table_num(t, r, "ioctls_per_s")));
	assert_true(isnan(table_num(t, r, "ioctls_total")));
	assert_true(isnan(table_num(t, r, "nvml_mem_bytes")));
	r = device_row(t, "2"); /* GPU 2's minor unknown: nvidia2 is not taken for it */
	assert_true(isnan(table_num(t, r, "ioctls_total")));
	r = device_row(t, "unknown");
	assert_true(isnan(table_num(t, r, "ioctls_total")));
	assert_true(isnan(table_num(t, r, "nvml_mem_bytes")));
	snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merged_by_pid),
		cmocka_unit_test(derived_once),
		cmocka_unit_test(ioctls_and_nvml_memory_per_gpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
