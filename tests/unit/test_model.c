// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmocka_all.h"
#include <math.h>
#include <stdlib.h>
#include "model_fixture.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void rates_depths_and_latency_over_two_ticks(void **state)
{
	struct model *m = model_new(0);
	struct ring_counters rc;
	struct snapshot *s;
	const struct ring_snap *r;

	(void)state;
	model_tick_begin(m, 1 * SEC_NS);
	rc = fixture_ring("0000:03:00.0", "gfx_0.0.0", 10, 8, 6, 2000000);
	rc.busy_ns = SEC_NS / 2;
	rc.max_queue_depth = 4;
	model_ring_update(m, &rc);
	s = model_tick_end(m);
	assert_non_null(s);
	assert_int_equal(s->seq, 1);
	assert_int_equal(s->nrings, 1);
	r = &s->rings[0];
	assert_string_equal(r->name, "gfx_0.0.0");
	assert_true(near(r->queued_per_s, 10, 1e-9));
	assert_true(near(r->completed_per_s, 6, 1e-9));
	assert_int_equal(r->queue_depth, 2);
	assert_int_equal(r->queue_depth_max, 4);
	assert_int_equal(r->in_flight, 2);
	assert_int_equal(r->in_flight_max, 2); /* never below the current value */
	assert_true(near(r->busy_pct, 50, 1e-9));
	assert_int_equal(r->exec.count, 6);
	assert_true(near(r->exec.p50_ns, 2e6, 2e6 * 0.125));
	assert_true(near(r->exec.mean_ns, 2e6, 1));
	assert_int_equal(r->hist_completed_per_s.count, 1);
	snapshot_free(s);

	/* Two seconds later, 20 more of each: rates are per second of the interval. */
	model_tick_begin(m, 3 * SEC_NS);
	rc = fixture_ring("0000:03:00.0", "gfx_0.0.0", 30, 28, 26, 2000000);
	rc.busy_ns = SEC_NS / 2 + SEC_NS;
	model_ring_update(m, &rc);
	s = model_tick_end(m);
	r = &s->rings[0];
	assert_true(near(s->interval_s, 2.0, 1e-9));
	assert_true(near(r->queued_per_s, 10, 1e-9));
	assert_int_equal(r->completed_total, 26);
	assert_int_equal(r->exec.count, 20); /* the interval's jobs only */
	assert_int_equal(r->exec_total.count, 26);
	assert_true(near(r->busy_pct, 50, 1e-9));
	assert_int_equal(r->hist_completed_per_s.count, 2);
	snapshot_free(s);
	model_free(m);
}

static void processes_aggregate_across_rings(void **state)
{
	struct model *m = model_new(0);
	struct proc_counters pc;
	struct ring_counters rc;
	struct snapshot *s;

	(void)state;
	model_tick_begin(m, SEC_NS);
	rc = fixture_ring("d", "gfx", 0, 0, 0, 0);
	model_ring_update(m, &rc);
	rc = fixture_ring("d", "sdma0", 0, 0, 0, 0);
	model_ring_update(m, &rc);
	pc = fixture_proc(100, "game", "d", "gfx", 30, 300000000);
	model_proc_update(m, &pc);
	pc = fixture_proc(100, "game", "d", "sdma0", 10, 100000000);
	model_proc_update(m, &pc);
	pc = fixture_proc(200, "compositor", "d", "gfx", 60, 400000000);
	model_proc_update(m, &pc);
	s = model_tick_end(m);
	assert_int_equal(s->nprocs, 2);
	assert_int_equal(s->nproc_rings, 3);
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_snap *p = &s->procs[i];

		if (p->pid == 100) {
			assert_string_equal(p->comm, "game");
			assert_true(near(p->jobs_per_s, 40, 1e-9));
			assert_true(near(p->gpu_pct, 40, 1e-9));
			assert_true(near(p->gpu_share_pct, 50, 1e-9));
			assert_true(near(p->wait_mean_ns, 100000, 1e-6));
		} else {
			assert_int_equal(p->pid, 200);
			assert_true(near(p->gpu_share_pct, 50, 1e-9));
		}
	}
	snapshot_free(s);

	/* Process 200 exited (no longer reported): its row goes. */
	model_tick_begin(m, 2 * SEC_NS);
	pc = fixture_proc(100, "game", "d", "gfx", 40, 300000000);
	model_proc_update(m, &pc);
	s = model_tick_end(m);
	assert_int_equal(s->nprocs, 1);
	assert_int_equal(s->procs[0].pid, 100);
	assert_true(near(s->procs[0].jobs_per_s, 10, 1e-9));
	snapshot_free(s);
	model_free(m);
}

static void pid_filter_keeps_one_process(void **state)
{
	struct model *m = model_new(0);
	struct proc_counters pc;
	struct snapshot *s;

	(void)state;
	model_set_pid_filter(m, 200);
	model_tick_begin(m, SEC_NS);
	pc = fixture_proc(100, "a", "d", "gfx", 1, 1);
	model_proc_update(m, &pc);
	pc = fixture_proc(200, "b", "d", "gfx", 1, 1);
	model_proc_update(m, &pc);
	s = model_tick_end(m);
	assert_int_equal(s->nprocs, 1);
	assert_int_equal(s->procs[0].pid, 200);
	snapshot_free(s);
	model_free(m);
}

static const struct col_desc count_cols[1] = {
	{ "n", "N", "a count", COL_U64, UNIT_COUNT, 4, COL_KEY },
};
static const struct table_desc counts = { "test.counts", "Counts", NULL, count_cols, 1, 0 };

static void collectors_devices_and_tables_are_copied(void **state)
{
	struct model *m = model_new(0);
	struct collector_status st = { .state = COLLECTOR_UNAVAILABLE };
	struct device_snap dev = { .name = "card0", .driver = "amdgpu" };
	struct snapshot *s;
	struct table *t;

	(void)state;
	snprintf(st.name, sizeof(st.name), "drm_sched");
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
	assert_string_equal(s->collectors[0].name, "drm_sched");
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
	assert_int_equal(s->ntables, 0);
	snapshot_free(s);
	model_free(m);
	collector_status_clear(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rates_depths_and_latency_over_two_ticks),
		cmocka_unit_test(processes_aggregate_across_rings),
		cmocka_unit_test(pid_filter_keeps_one_process),
		cmocka_unit_test(collectors_devices_and_tables_are_copied),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
