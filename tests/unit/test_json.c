// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JSON output, parsed back with json-c: types, values and escaping. */
#include "cmocka_all.h"
#include <stdlib.h>
#include <json-c/json.h>
#include "../../output/json.h"
#include "model_fixture.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

static struct snapshot *sample_snapshot(void)
{
	struct model *m = model_new(0);
	struct collector_status st = { .state = COLLECTOR_UNAVAILABLE, .ntracepoints = 1 };
	struct ring_counters rc = fixture_ring("0000:03:00.0", "gfx_0.0.0", 12, 10, 9, 3000000);
	struct proc_counters pc = fixture_proc(4242, "we\"ird\n\\name", "0000:03:00.0",
					       "gfx_0.0.0", 12, 27000000);
	struct snapshot *s;

	snprintf(st.name, sizeof(st.name), "drm_sched");
	snprintf(st.reason, sizeof(st.reason), "no \"gpu_scheduler\" tracepoints");
	snprintf(st.tracepoints[0].group, sizeof(st.tracepoints[0].group), "gpu_scheduler");
	snprintf(st.tracepoints[0].event, sizeof(st.tracepoints[0].event), "drm_run_job");
	st.tracepoints[0].state = TRACEPOINT_MISSING;
	st.ndrops = 1;
	snprintf(st.drops[0].name, sizeof(st.drops[0].name), "done_without_run");
	st.drops[0].count = 3;
	model_set_host(m, "host", "6.1.0-test");
	model_tick_begin(m, 2 * SEC_NS);
	model_collector_status(m, &st);
	model_ring_update(m, &rc);
	model_proc_update(m, &pc);
	s = model_tick_end(m);
	model_free(m);
	return s;
}

static void snapshot_round_trips(void **state)
{
	struct snapshot *s = sample_snapshot();
	char *line = snapshot_to_json(s);
	json_object *root, *ring, *proc, *col, *exec;

	(void)state;
	assert_non_null(line);
	assert_null(strchr(line, '\n')); /* one object per line */
	root = json_tokener_parse(line);
	assert_non_null(root);
	assert_int_equal(json_object_get_int64(get(root, "seq")), 1);
	assert_true(json_object_is_type(get(root, "interval_s"), json_type_double));
	assert_string_equal(json_object_get_string(get(get(root, "host"), "kernel")), "6.1.0-test");

	ring = json_object_array_get_idx(get(root, "rings"), 0);
	assert_non_null(ring);
	assert_string_equal(json_object_get_string(get(ring, "name")), "gfx_0.0.0");
	assert_true(json_object_is_type(get(ring, "queued_total"), json_type_int));
	assert_int_equal(json_object_get_int64(get(ring, "queued_total")), 12);
	assert_int_equal(json_object_get_int64(get(ring, "queue_depth")), 2);
	assert_int_equal(json_object_get_int64(get(ring, "in_flight")), 1);
	exec = get(ring, "exec_ns");
	assert_int_equal(json_object_get_int64(get(exec, "count")), 9);
	assert_true(json_object_get_double(get(exec, "p50")) > 2.6e6);
	assert_true(json_object_get_double(get(exec, "p50")) < 3.4e6);

	proc = json_object_array_get_idx(get(root, "processes"), 0);
	assert_int_equal(json_object_get_int64(get(proc, "pid")), 4242);
	assert_string_equal(json_object_get_string(get(proc, "comm")), "we\"ird\n\\name");
	assert_int_equal(json_object_array_length(get(proc, "rings")), 1);

	col = json_object_array_get_idx(get(root, "collectors"), 0);
	assert_string_equal(json_object_get_string(get(col, "state")), "unavailable");
	assert_string_equal(json_object_get_string(get(col, "reason")),
			    "no \"gpu_scheduler\" tracepoints");
	assert_string_equal(
		json_object_get_string(get(json_object_array_get_idx(get(col, "tracepoints"), 0),
					   "state")),
		"missing");
	assert_int_equal(json_object_get_int64(get(get(col, "drops"), "done_without_run")), 3);

	assert_int_equal(json_object_array_length(get(root, "memory")), 0);
	assert_int_equal(json_object_array_length(get(root, "displays")), 0);
	json_object_put(root);
	free(line);
	snapshot_free(s);
}

static void error_object(void **state)
{
	char *line = json_error("needs \"root\"");
	json_object *root;

	(void)state;
	root = json_tokener_parse(line);
	assert_non_null(root);
	assert_string_equal(json_object_get_string(get(root, "error")), "needs \"root\"");
	json_object_put(root);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(snapshot_round_trips),
		cmocka_unit_test(error_object),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
