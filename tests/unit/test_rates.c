// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Counters that go backwards (a map entry made again, a module reloaded) read
 * as a restart, never as a huge rate, in every table that has rates: each
 * table's row function is given counters now far below the last read's, and
 * every rate, share and mean it makes must be what the counters gained since a
 * restart. A registered table with rates and no case here fails the test.
 */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/amdgpu/amdgpu_tables.h"
#include "collectors/calls/calls_tables.h"
#include "collectors/display/display_tables.h"
#include "collectors/drm_sched/sched_model.h"
#include "collectors/drm_sched/sched_tables.h"
#include "collectors/gpu_time/gpu_time_tables.h"
#include "collectors/intel/intel_tables.h"
#include "collectors/irq/irq_tables.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/memory/memory_tables.h"
#include "collectors/nvidia/nvidia_tables.h"
#include "collectors/self/self_tables.h"
#include "core/counter.h"
#include "model/model.h"

#define NOW 7ULL /* each counter now: a restart not long ago */
#define BEFORE (1ULL << 40) /* each counter at the last read */
#define IV 1.0 /* seconds */

/* Every 8-byte word of a counters struct set to v (names and small fields get nonsense: unused). */
static void fill(void *p, size_t size, uint64_t v)
{
	for (size_t i = 0; i + 8 <= size; i += 8)
		memcpy((char *)p + i, &v, 8);
}

/* Rates, shares and refresh rates: what NOW counts per second is at most NOW * 4096 (pages). */
static bool is_rate(const struct col_desc *c)
{
	size_t n = strlen(c->key);

	return c->unit == UNIT_PER_S || c->unit == UNIT_PCT || c->unit == UNIT_HZ ||
	       (n > 6 && !strcmp(c->key + n - 6, "_per_s"));
}

static bool has_rates(const struct table_desc *d)
{
	for (unsigned int i = 0; i < d->ncols; i++)
		if (d->cols[i].type == COL_F64 && is_rate(&d->cols[i]))
			return true;
	return false;
}

/* Every known rate of every row small, every mean and quantile below 1e15 ns; how many rates. */
static int check_rows(const struct table *t)
{
	int rates = 0;

	assert_true(t->nrows > 0);
	for (size_t r = 0; r < t->nrows; r++) {
		for (unsigned int c = 0; c < t->desc->ncols; c++) {
			const struct col_desc *col = &t->desc->cols[c];
			const struct cell *cell = table_cell(t, r, c);

			if (!cell->known || col->type != COL_F64)
				continue;
			if (is_rate(col)) {
				if (!(fabs(cell->f) <= (double)(NOW * 4096) / IV))
					fail_msg("%s.%s = %g after a restart", t->desc->name, col->key,
						 cell->f);
				rates++;
			} else if (col->unit == UNIT_NS && !(cell->f < 1e15)) {
				fail_msg("%s.%s = %g ns after a restart", t->desc->name, col->key, cell->f);
			}
		}
	}
	return rates;
}

/* A case: one row of the table made from NOW and BEFORE counters. */
struct rate_case {
	const struct table_desc *desc;
	void (*row)(struct table *t);
};

#define ROW_CASE(name, type, call)                                    \
	static void name(struct table *t)                             \
	{                                                             \
		type *now = malloc(sizeof(type)), *before = malloc(sizeof(type)); \
		struct cell *row = table_row_add(t);                   \
                                                                      \
		assert_non_null(now);                                  \
		assert_non_null(before);                               \
		fill(now, sizeof(type), NOW);                          \
		fill(before, sizeof(type), BEFORE);                    \
		call;                                                  \
		free(now);                                             \
		free(before);                                          \
	}

ROW_CASE(amd_ring, struct amd_ring, amdgpu_ring_row(row, "gfx", now, before, IV))
ROW_CASE(amd_move, struct amd_move, amdgpu_move_row(row, 2, 1, now, before, IV))
ROW_CASE(amd_proc, struct amd_proc, amdgpu_proc_row(row, 42, "p", now, before, IV))
ROW_CASE(amd_submitter, struct amd_submitter,
	 amdgpu_submitter_row(row, &(struct amd_submitter_key){ 42, 0 }, "p", "gfx", now, before, IV))
ROW_CASE(amd_iv, struct amd_iv,
	 amdgpu_iv_row(row, &(struct amd_iv_key){ 20, 181, 32770, 0 }, 42, "p", now, before, IV))
ROW_CASE(calls_ioctl, struct call_stats,
	 calls_ioctl_row(row, &(struct ioctl_key){ 42, 226 << 20, 0x40, 0 }, "p",
			 &(struct calls_ioctl_names){ "card0", "amdgpu", "GET_CAP" }, now, before, IV))
ROW_CASE(calls_wait, struct call_stats,
	 calls_wait_row(row, &(struct wait_key){ .tgid = 42, .driver = "amdgpu" }, "p", now, before,
			IV))
/* one second of consecutive vblanks since the last read, the vblank count restarted */
ROW_CASE(display_crtc, struct crtc_stats,
	 (now->interval_sum_ns = 1000000000, before->interval_sum_ns = 0,
	  display_crtc_row(row, 0, 1, now, before, IV)))
ROW_CASE(display_client, struct client_stats,
	 display_client_row(row, &(struct client_key){ 1, 0, 0 }, 1, "p", now, before, IV))
ROW_CASE(intel_engine, struct intel_engine,
	 intel_engine_row(row, &(struct intel_engine_key){ 0, 0, 0 }, now, before, true, IV))
ROW_CASE(intel_dev, struct intel_dev, intel_dev_row(row, 0, now, before, IV))
ROW_CASE(intel_proc, struct intel_proc, intel_proc_row(row, 42, "p", now, before, IV))
ROW_CASE(xe_queue, struct xe_queue,
	 xe_queue_row(row, &(struct xe_queue_key){ 17, 0, 0 }, now, before, IV))
ROW_CASE(xe_move, struct xe_move,
	 xe_move_row(row, &(struct xe_move_key){ "system", "vram0" }, now, before, IV))
ROW_CASE(irq_line, struct irq_stats,
	 irq_line_row(row, &(struct irq_line){ 40, "amdgpu", true }, now, before, IV))
ROW_CASE(nv_proc, struct nv_proc, nvidia_proc_row(row, 42, "p", "", now, before, IV))
ROW_CASE(nv_proc_gpu, struct nv_proc_gpu,
	 nvidia_proc_gpu_row(row, 42, "p", 1, &(struct cuda_dev_where){ 1, "00000000:3B:00.0", "x" }, now, before,
			     IV))

static void nv_driver(struct table *t)
{
	nvidia_driver_row(table_row_add(t), "nvidia_isr", "interrupt", "kprobe", NOW, BEFORE, IV);
}

static void nv_kernel(struct table *t)
{
	nvidia_kernel_row(table_row_add(t), 1, "p", "k", 1, NOW, BEFORE, IV);
}

static void gpu_busy(struct table *t)
{
	struct cupti_busy_key k = { 42, 0 };
	struct cupti_busy_val now, before;

	fill(&now, sizeof(now), NOW);
	fill(&before, sizeof(before), BEFORE);
	now.open_start = now.open_end = before.open_start = before.open_end = 0;
	gpu_busy_row(table_row_add(t), &k, &now, &before, "p", NOW, IV);
}

static void prog_stats(struct table *t)
{
	struct prog_run now = { "c", "p", "tp:ev", NOW, NOW, 0, 0, false, true };
	struct prog_run before = { "c", "p", "tp:ev", BEFORE, BEFORE, 0, 0, false, true };

	prog_stats_row(table_row_add(t), &now, &before, IV);
}

static void self_process(struct table *t)
{
	struct self_reading now = { 1, true, NOW, 100, 4096, 0.5, true, NOW };
	struct self_reading before = { 1, true, BEFORE, 100, 4096, 0.5, true, BEFORE };

	self_process_row(table_row_add(t), &now, &before, IV);
}

static const struct rate_case cases[] = {
	{ &amdgpu_rings, amd_ring },
	{ &amdgpu_migrations, amd_move },
	{ &amdgpu_processes, amd_proc },
	{ &amdgpu_submitters, amd_submitter },
	{ &amdgpu_interrupts, amd_iv },
	{ &calls_ioctls, calls_ioctl },
	{ &calls_fence_waits, calls_wait },
	{ &display_crtcs, display_crtc },
	{ &display_clients, display_client },
	{ &intel_engines, intel_engine },
	{ &intel_devices, intel_dev },
	{ &intel_processes, intel_proc },
	{ &xe_queues, xe_queue },
	{ &xe_moves, xe_move },
	{ &irq_lines_table, irq_line },
	{ &nvidia_processes, nv_proc },
	{ &nvidia_process_gpus, nv_proc_gpu },
	{ &nvidia_driver, nv_driver },
	{ &nvidia_kernels, nv_kernel },
	{ &nvidia_gpu_busy, gpu_busy },
	{ &self_programs_table, prog_stats },
	{ &self_process_table, self_process },
};

/* Tables whose rates are not made from cumulative counters here, and why. */
static const struct {
	const char *table, *why;
} exempt[] = {
	{ "drm_sched.rings", "sched_model: its own case below" },
	{ "drm_sched.processes", "sched_model: its own case below" },
	{ "drm_sched.process_rings", "sched_model: its own case below" },
	{ "memory.engines", "busy % by memory_engine_busy: its own case below" },
	{ "memory.clients", "busy % by memory_engine_busy: its own case below" },
	{ "memory.processes", "busy % by memory_engine_busy; total_bytes_per_s: a gauge's change" },
	{ "memory.containers", "busy % by memory_engine_busy, summed" },
	{ "memory.device_engines", "busy % by memory_engine_busy, summed" },
	{ "memory.regions", "total_bytes_per_s: a gauge's change, negative when memory is freed" },
	{ "memory.devices", "used_pct: used over size, two gauges" },
	{ "nvidia.gpus", "NVML's own percentages and PCIe rates; NVLink's from its counters in nvml.c (counter_delta, "
			  "tests/bpf/nvml.sh)" },
	{ "nvidia.gpu_processes", "NVML's own samples" },
	{ "sensors.gpus", "energy and idle residency read from sysfs: their restart case is in test_sysfs.c" },
	{ "sensors.engines", "perf PMU counters: a share unknown when one went backwards (test_pmu_engines.c)" },
	{ "kfd.processes", "SDMA time read from sysfs: its restart case is in test_sysfs.c" },
	{ "gpu.processes", "derived from the other tables' rates, never its own counters (test_gpu_processes.c)" },
};

static void every_row_function_restarts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct table *t = table_new(cases[i].desc);

		assert_non_null(t);
		cases[i].row(t);
		if (!check_rows(t))
			fail_msg("%s: no rate was made", cases[i].desc->name);
		table_free(t);
	}
}

static void every_table_with_rates_has_a_case(void **state)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		bool found = false;

		if (!has_rates(reg[i]))
			continue;
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]) && !found; k++)
			found = cases[k].desc == reg[i];
		for (size_t k = 0; k < sizeof(exempt) / sizeof(exempt[0]) && !found; k++)
			found = !strcmp(exempt[k].table, reg[i]->name);
		if (!found)
			fail_msg("%s has rates but no restart case in test_rates.c", reg[i]->name);
	}
}

static struct snapshot *sched_tick(struct model *m, struct sched_model *sm, uint64_t now_ns,
				   uint64_t v)
{
	struct ring_counters rc;
	struct proc_counters pc;

	fill(&rc, sizeof(rc), v);
	snprintf(rc.dev, sizeof(rc.dev), "mockgpu");
	snprintf(rc.name, sizeof(rc.name), "gfx");
	rc.deps_known = true;
	fill(&pc, sizeof(pc), v);
	pc.pid = 42;
	snprintf(pc.comm, sizeof(pc.comm), "p");
	snprintf(pc.dev, sizeof(pc.dev), "mockgpu");
	snprintf(pc.ring, sizeof(pc.ring), "gfx");
	model_tick_begin(m, now_ns);
	assert_int_equal(sched_model_ring(sm, &rc), 0);
	assert_int_equal(sched_model_proc(sm, &pc), 0);
	assert_int_equal(sched_model_publish(sm, m), 0);
	return model_tick_end(m);
}

static void sched_tables_restart(void **state)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct snapshot *s;

	(void)state;
	snapshot_free(sched_tick(m, sm, 1000000000ULL, BEFORE));
	s = sched_tick(m, sm, 2000000000ULL, NOW);
	assert_non_null(s);
	assert_true(check_rows(snapshot_table(s, "drm_sched.rings")) > 0);
	assert_true(check_rows(snapshot_table(s, "drm_sched.processes")) > 0);
	assert_true(check_rows(snapshot_table(s, "drm_sched.process_rings")) > 0);
	snapshot_free(s);
	sched_model_free(sm);
	model_free(m);
}

static void memory_busy_restart(void **state)
{
	struct fdinfo_engine e = { .name = "gfx", .ns = NOW, .has_ns = true, .capacity = 1 };
	struct engine_reading before = { .ns = BEFORE, .known = true };

	(void)state;
	assert_true(memory_engine_busy(&e, &before, IV) < 0); /* unknown, not 2^64 ns */
	e.has_ns = false;
	e.has_cycles = e.has_total_cycles = true;
	e.cycles = NOW;
	e.total_cycles = 2 * NOW;
	before = (struct engine_reading){ .cycles = BEFORE, .total_cycles = 1, .known = true };
	assert_true(memory_engine_busy(&e, &before, IV) < 0);
	before = (struct engine_reading){ .ns = 0, .cycles = 1, .total_cycles = 1, .known = true };
	assert_true(fabs(memory_engine_busy(&e, &before, IV) - 6.0 / 13.0 * 100.0) < 1e-9);
}

/* The rule itself, and that a counter that moves forward still reads as it did. */
static void counter_rule(void **state)
{
	(void)state;
	assert_int_equal(counter_delta(10, 4), 6);
	assert_int_equal(counter_delta(4, 10), 4);
	assert_int_equal(counter_delta(0, UINT64_MAX), 0);
	assert_true(fabs(counter_rate(30, 10, 2.0) - 10.0) < 1e-12);
	assert_true(fabs(counter_pct(500000000, 0, 1.0) - 50.0) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counter_rule),
		cmocka_unit_test(every_row_function_restarts),
		cmocka_unit_test(every_table_with_rates_has_a_case),
		cmocka_unit_test(sched_tables_restart),
		cmocka_unit_test(memory_busy_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
