// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/model_fixture.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* One tick of the scheduler's data through sched_model into the model's snapshot. */
static struct snapshot *tick(struct model *m, struct sched_model *sm, uint64_t now_ns,
			     const struct ring_counters *rings, size_t nrings,
			     const struct proc_counters *procs, size_t nprocs)
{
	model_tick_begin(m, now_ns);
	for (size_t i = 0; i < nrings; i++)
		assert_int_equal(sched_model_ring(sm, &rings[i]), 0);
	for (size_t i = 0; i < nprocs; i++)
		assert_int_equal(sched_model_proc(sm, &procs[i]), 0);
	assert_int_equal(sched_model_publish(sm, m), 0);
	return model_tick_end(m);
}

static void rates_depths_and_latency_over_two_ticks(void **state)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct ring_counters rc;
	struct snapshot *s;
	const struct table *r;

	(void)state;
	rc = fixture_ring("0000:03:00.0", "gfx_0.0.0", 10, 8, 6, 2000000);
	rc.busy_ns = SEC_NS / 2;
	rc.max_queue_depth = 4;
	s = tick(m, sm, 1 * SEC_NS, &rc, 1, NULL, 0);
	assert_non_null(s);
	assert_int_equal(s->seq, 1);
	r = snapshot_table(s, "drm_sched.rings");
	assert_non_null(r);
	assert_int_equal(r->nrows, 1);
	assert_string_equal(table_str(r, 0, "name"), "gfx_0.0.0");
	assert_true(near(table_num(r, 0, "queued_per_s"), 10, 1e-9));
	assert_true(near(table_num(r, 0, "completed_per_s"), 6, 1e-9));
	assert_true(table_num(r, 0, "queue_depth") == 2);
	assert_true(table_num(r, 0, "queue_depth_max") == 4);
	assert_true(table_num(r, 0, "in_flight") == 2);
	assert_true(table_num(r, 0, "in_flight_max") == 2); /* never below the current value */
	assert_true(near(table_num(r, 0, "busy_pct"), 50, 1e-9));
	assert_true(table_num(r, 0, "exec_ns.count") == 6);
	assert_true(near(table_num(r, 0, "exec_ns.p50"), 2e6, 2e6 * 0.125));
	assert_true(near(table_num(r, 0, "exec_ns.mean"), 2e6, 1));
	assert_true(isnan(table_num(r, 0, "deps_total"))); /* unknown, not 0, before 6.17 */
	snapshot_free(s);

	/* Two seconds later, 20 more of each: rates are per second of the interval. */
	rc = fixture_ring("0000:03:00.0", "gfx_0.0.0", 30, 28, 26, 2000000);
	rc.busy_ns = SEC_NS / 2 + SEC_NS;
	rc.deps_known = true;
	s = tick(m, sm, 3 * SEC_NS, &rc, 1, NULL, 0);
	r = snapshot_table(s, "drm_sched.rings");
	assert_true(near(s->interval_s, 2.0, 1e-9));
	assert_true(near(table_num(r, 0, "queued_per_s"), 10, 1e-9));
	assert_true(table_num(r, 0, "completed_total") == 26);
	assert_true(table_num(r, 0, "exec_ns.count") == 20); /* the interval's jobs only */
	assert_true(table_num(r, 0, "exec_ns_total.count") == 26);
	assert_true(near(table_num(r, 0, "busy_pct"), 50, 1e-9));
	assert_true(table_num(r, 0, "deps_total") == 0);
	snapshot_free(s);

	/* A quiet interval: no sample, so no quantile (unknown, not 0). */
	s = tick(m, sm, 4 * SEC_NS, &rc, 1, NULL, 0);
	r = snapshot_table(s, "drm_sched.rings");
	assert_true(table_num(r, 0, "exec_ns.count") == 0);
	assert_true(isnan(table_num(r, 0, "exec_ns.p50")));
	assert_true(near(table_num(r, 0, "exec_ns_total.p50"), 2e6, 2e6 * 0.125));
	snapshot_free(s);
	sched_model_free(sm);
	model_free(m);
}

/*
 * A process's GPU % on a ring is its busy time there (time with one of its jobs
 * on the hardware), never above the ring's own busy %, which a read a moment
 * apart could otherwise pass; over its rings the sum.
 */
static void process_gpu_within_ring_busy(void **state)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct ring_counters rc[2] = { fixture_ring("d", "gfx", 0, 0, 0, 0), fixture_ring("d", "comp", 0, 0, 0, 0) };
	struct proc_counters pc[2] = { fixture_proc(7, "game", "d", "gfx", 10, 0),
				       fixture_proc(7, "game", "d", "comp", 10, 0) };
	struct snapshot *s;
	const struct table *p;

	(void)state;
	s = tick(m, sm, SEC_NS, rc, 2, pc, 2);
	snapshot_free(s);
	rc[0].busy_ns = SEC_NS * 83 / 100; /* the ring: 83 % busy */
	rc[1].busy_ns = SEC_NS * 40 / 100;
	pc[0].busy_ns = SEC_NS * 85 / 100; /* read after the ring: 2 ms more */
	pc[1].busy_ns = SEC_NS * 30 / 100;
	s = tick(m, sm, 2 * SEC_NS, rc, 2, pc, 2);
	p = snapshot_table(s, "drm_sched.process_rings");
	assert_int_equal(p->nrows, 2);
	for (size_t i = 0; i < p->nrows; i++)
		assert_true(near(table_num(p, i, "gpu_pct"), !strcmp(table_str(p, i, "name"), "gfx") ? 83 : 30, 1e-6));
	p = snapshot_table(s, "drm_sched.processes");
	assert_true(near(table_num(p, 0, "gpu_pct"), 113, 1e-6)); /* the two rings' 83 + 30: may pass 100 */
	snapshot_free(s);
	sched_model_free(sm);
	model_free(m);
}

static void processes_aggregate_across_rings(void **state)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct ring_counters rc[2] = { fixture_ring("d", "gfx", 0, 0, 0, 0),
				       fixture_ring("d", "sdma0", 0, 0, 0, 0) };
	struct proc_counters pc[3] = { fixture_proc(100, "game", "d", "gfx", 30, 300000000),
				       fixture_proc(100, "game", "d", "sdma0", 10, 100000000),
				       fixture_proc(200, "compositor", "d", "gfx", 60, 400000000) };
	struct snapshot *s;
	const struct table *p;

	(void)state;
	rc[0].busy_ns = rc[1].busy_ns = SEC_NS; /* busy all along: no bound on the processes */
	s = tick(m, sm, SEC_NS, rc, 2, pc, 3);
	p = snapshot_table(s, "drm_sched.processes");
	assert_int_equal(p->nrows, 2);
	assert_int_equal(snapshot_table(s, "drm_sched.process_rings")->nrows, 3);
	for (size_t i = 0; i < p->nrows; i++) {
		if (table_num(p, i, "pid") == 100) {
			assert_string_equal(table_str(p, i, "comm"), "game");
			assert_string_equal(table_str(p, i, "ring_names"), "gfx,sdma0");
			assert_true(near(table_num(p, i, "jobs_per_s"), 40, 1e-9));
			assert_true(near(table_num(p, i, "gpu_pct"), 40, 1e-9));
			assert_true(near(table_num(p, i, "gpu_share_pct"), 50, 1e-9));
			assert_true(near(table_num(p, i, "wait_mean_ns"), 100000, 1e-6));
		} else {
			assert_true(table_num(p, i, "pid") == 200);
			assert_true(near(table_num(p, i, "gpu_share_pct"), 50, 1e-9));
		}
	}

	snapshot_free(s);

	/* Process 200 exited (no longer reported): its row goes. */
	pc[0] = fixture_proc(100, "game", "d", "gfx", 40, 300000000);
	s = tick(m, sm, 2 * SEC_NS, NULL, 0, pc, 1);
	p = snapshot_table(s, "drm_sched.processes");
	assert_int_equal(p->nrows, 1);
	assert_true(table_num(p, 0, "pid") == 100);
	assert_true(near(table_num(p, 0, "jobs_per_s"), 10, 1e-9));
	assert_int_equal(snapshot_table(s, "drm_sched.rings")->nrows, 0); /* not fed: forgotten */
	snapshot_free(s);
	sched_model_free(sm);
	model_free(m);
}

static void pid_filter_keeps_one_process(void **state)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct ring_counters rc = fixture_ring("d", "gfx", 2, 2, 2, 1);
	struct proc_counters pc[2] = { fixture_proc(100, "a", "d", "gfx", 1, 1),
				       fixture_proc(200, "b", "d", "gfx", 1, 1) };
	struct snapshot *s;

	(void)state;
	model_set_pid_filter(m, 200);
	s = tick(m, sm, SEC_NS, &rc, 1, pc, 2);
	assert_int_equal(snapshot_table(s, "drm_sched.processes")->nrows, 1);
	assert_true(table_num(snapshot_table(s, "drm_sched.processes"), 0, "pid") == 200);
	assert_int_equal(snapshot_table(s, "drm_sched.process_rings")->nrows, 1);
	assert_int_equal(snapshot_table(s, "drm_sched.rings")->nrows, 1); /* system-wide */
	snapshot_free(s);
	sched_model_free(sm);
	model_free(m);
}

static const struct col_desc count_cols[1] = {
	{ "n", "N", "a count", COL_U64, UNIT_COUNT, 4, COL_KEY },
};
static const struct table_desc counts = { .name = "test.counts", .title = "Counts", .cols = count_cols, .ncols = 1 };

static void collectors_devices_and_tables_are_copied(void **state)
{
	struct model *m = model_new(0);
	static struct collector_info info = { .name = "drm_sched", .state = COLLECTOR_UNAVAILABLE };
	struct collector_status st = { .info = &info };
	struct device_snap dev = { .name = "card0", .driver = "amdgpu" };
	struct snapshot *s;
	struct table *t;

	(void)state;
	assert_int_equal(collector_status_set_drop(&st, "lost", 3), 0);
	model_tick_begin(m, SEC_NS);
	model_collector_status(m, &st);
	model_device_add(m, &dev);
	t = model_table(m, &counts);
	assert_ptr_equal(model_table(m, &counts), t); /* one table per descriptor and tick */
	cell_set_u64(table_row_add(t), 0, 7);
	assert_int_equal(collector_status_set_drop(&st, "lost", 9), 0); /* after the copy */
	s = model_tick_end(m);
	assert_int_equal(s->ncollectors, 1);
	assert_ptr_equal(s->collectors[0].info, &info); /* shared, not copied each tick */
	assert_string_equal(s->collectors[0].info->name, "drm_sched");
	assert_int_equal(s->collectors[0].ndrops, 1);
	assert_int_equal(s->collectors[0].drops[0].count, 3); /* a copy, not the live list */
	assert_int_equal(s->ndevices, 1);
	assert_non_null(snapshot_table(s, "test.counts"));
	assert_int_equal(snapshot_table(s, "test.counts")->nrows, 1);
	assert_true(near(model_interval_s(m), 1, 1e-9));
	snapshot_free(s);

	/* Lists and tables of the previous tick do not leak into the next. */
	model_tick_begin(m, 2 * SEC_NS);
	s = model_tick_end(m);
	assert_int_equal(s->ncollectors, 0);
	assert_int_equal(s->ndevices, 0);
	assert_int_equal(s->ntables, 1); /* the merged process table only, empty */
	assert_non_null(snapshot_table(s, "gpu.processes"));
	assert_int_equal(snapshot_table(s, "gpu.processes")->nrows, 0);
	snapshot_free(s);
	model_free(m);
	collector_status_clear(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rates_depths_and_latency_over_two_ticks),
		cmocka_unit_test(processes_aggregate_across_rings),
		cmocka_unit_test(process_gpu_within_ring_busy),
		cmocka_unit_test(pid_filter_keeps_one_process),
		cmocka_unit_test(collectors_devices_and_tables_are_copied),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
