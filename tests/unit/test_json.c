// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JSON output, parsed back with yajl's tree: types, values and escaping; the writer itself. */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <yajl/yajl_tree.h>
#include "output/json.h"
#include "output/json_writer.h"
#include "recording/json_read.h"
#include "recording/replay.h"
#include "tests/unit/model_fixture.h"

static yajl_val get(yajl_val o, const char *key)
{
	const char *path[] = { key, NULL };
	yajl_val v = yajl_tree_get(o, path, yajl_t_any);

	assert_non_null(v);
	return v;
}

static yajl_val item(yajl_val a, size_t i)
{
	assert_true(YAJL_IS_ARRAY(a));
	assert_true(i < a->u.array.len);
	return a->u.array.values[i];
}

static yajl_val parse(const char *line)
{
	char err[128];
	yajl_val v = yajl_tree_parse(line, err, sizeof(err));

	if (!v)
		fail_msg("not JSON (%s): %s", err, line);
	return v;
}

/* A collector's fixed info outlives the snapshots that point at it, as a live collector's does. */
static struct collector_info sample_info = { .state = COLLECTOR_UNAVAILABLE };

static struct snapshot *sample_snapshot(void)
{
	struct model *m = model_new(0);
	struct sched_model *sm = sched_model_new();
	struct collector_status st = { .info = &sample_info };
	struct tracepoint_status *tp;
	struct ring_counters rc = fixture_ring("0000:03:00.0", "gfx_0.0.0", 12, 10, 9, 3000000);
	struct proc_counters pc = fixture_proc(4242, "we\"ird\n\\name", "0000:03:00.0",
					       "gfx_0.0.0", 12, 27000000);
	struct snapshot *s;

	collector_info_clear(&sample_info);
	tp = collector_info_add_tracepoint(&sample_info);
	assert_non_null(tp);
	snprintf(sample_info.name, sizeof(sample_info.name), "drm_sched");
	snprintf(sample_info.reason, sizeof(sample_info.reason), "no \"gpu_scheduler\" tracepoints");
	snprintf(tp->group, sizeof(tp->group), "gpu_scheduler");
	snprintf(tp->event, sizeof(tp->event), "drm_run_job");
	tp->state = TRACEPOINT_MISSING;
	assert_int_equal(collector_status_set_drop(&st, "done_without_run", 3), 0);
	model_set_host(m, "host", "6.1.0-test");
	model_tick_begin(m, 2 * SEC_NS);
	model_collector_status(m, &st);
	sched_model_ring(sm, &rc);
	sched_model_proc(sm, &pc);
	sched_model_publish(sm, m);
	s = model_tick_end(m);
	sched_model_free(sm);
	model_free(m);
	collector_status_clear(&st);
	return s;
}

static void snapshot_round_trips(void **state)
{
	struct snapshot *s = sample_snapshot();
	char *line = snapshot_to_json(s);
	yajl_val root, ring, proc, col, exec;

	(void)state;
	assert_non_null(line);
	assert_null(strchr(line, '\n')); /* one object per line */
	root = parse(line);
	assert_int_equal(YAJL_GET_INTEGER(get(root, "seq")), 1);
	assert_true(YAJL_IS_DOUBLE(get(root, "interval_s")) && !YAJL_IS_INTEGER(get(root, "interval_s")));
	assert_string_equal(YAJL_GET_STRING(get(get(root, "host"), "kernel")), "6.1.0-test");

	assert_int_equal(YAJL_GET_INTEGER(get(root, "format")), 3);
	ring = item(get(get(root, "tables"), "drm_sched.rings"), 0);
	assert_string_equal(YAJL_GET_STRING(get(ring, "name")), "gfx_0.0.0");
	assert_true(YAJL_IS_INTEGER(get(ring, "queued_total")));
	assert_int_equal(YAJL_GET_INTEGER(get(ring, "queued_total")), 12);
	assert_int_equal(YAJL_GET_INTEGER(get(ring, "queue_depth")), 2);
	assert_int_equal(YAJL_GET_INTEGER(get(ring, "in_flight")), 1);
	exec = get(ring, "exec_ns");
	assert_int_equal(YAJL_GET_INTEGER(get(exec, "count")), 9);
	assert_true(YAJL_GET_DOUBLE(get(exec, "p50")) > 2.6e6);
	assert_true(YAJL_GET_DOUBLE(get(exec, "p50")) < 3.4e6);

	proc = item(get(get(root, "tables"), "drm_sched.processes"), 0);
	assert_int_equal(YAJL_GET_INTEGER(get(proc, "pid")), 4242);
	assert_string_equal(YAJL_GET_STRING(get(proc, "comm")), "we\"ird\n\\name");
	assert_string_equal(YAJL_GET_STRING(get(proc, "ring_names")), "gfx_0.0.0");
	assert_int_equal(YAJL_GET_ARRAY(get(get(root, "tables"), "drm_sched.process_rings"))->len, 1);

	col = item(get(root, "collectors"), 0);
	assert_string_equal(YAJL_GET_STRING(get(col, "state")), "unavailable");
	assert_string_equal(YAJL_GET_STRING(get(col, "reason")), "no \"gpu_scheduler\" tracepoints");
	assert_string_equal(YAJL_GET_STRING(get(item(get(col, "tracepoints"), 0), "state")),
			    "missing");
	assert_int_equal(YAJL_GET_INTEGER(get(get(col, "drops"), "done_without_run")), 3);

	assert_true(YAJL_IS_OBJECT(get(root, "tables")));
	yajl_tree_free(root);
	free(line);
	snapshot_free(s);
}

static void error_object(void **state)
{
	char *line = json_error("needs \"root\"");
	yajl_val root;

	(void)state;
	root = parse(line);
	assert_string_equal(YAJL_GET_STRING(get(root, "error")), "needs \"root\"");
	yajl_tree_free(root);
	free(line);
}

/* Commas where members follow each other, escapes, and what cannot be written. */
static void writer_commas_escapes_and_limits(void **state)
{
	struct jsonw w;
	char *text;

	(void)state;
	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_str_member(&w, "a", "x\"\\/\t\x01\x7f\xc3\xa9");
	jsonw_key(&w, "b", 1);
	jsonw_array_begin(&w);
	jsonw_u64(&w, 18446744073709551615ULL);
	jsonw_double(&w, 2);
	jsonw_double(&w, 0.125);
	jsonw_double(&w, NAN);
	jsonw_double(&w, -INFINITY);
	jsonw_array_begin(&w);
	jsonw_array_end(&w);
	jsonw_object_begin(&w);
	jsonw_object_end(&w);
	jsonw_bool(&w, false);
	jsonw_null(&w);
	jsonw_array_end(&w);
	jsonw_double_member(&w, "c", 1e20);
	jsonw_object_end(&w);
	text = jsonw_finish(&w);
	assert_string_equal(text, "{\"a\":\"x\\\"\\\\/\\t\\u0001\x7f\xc3\xa9\","
				  "\"b\":[18446744073709551615,2.0,0.125,null,null,[],{},false,null],"
				  "\"c\":1e+20}");
	free(text);

	jsonw_init(&w); /* bytes that are not UTF-8 (a stray continuation, a cut sequence, Latin-1) */
	jsonw_str_member(&w, "n", "k\x80\xe2\x82\xacx\xe9\xe2\x82");
	text = jsonw_finish(&w);
	assert_string_equal(text, "\"n\":\"k\\ufffd\xe2\x82\xacx\\ufffd\\ufffd\\ufffd\"");
	free(text);

	jsonw_init(&w); /* a container left open is no JSON */
	jsonw_object_begin(&w);
	assert_null(jsonw_finish(&w));
	jsonw_init(&w); /* nested deeper than the writer holds */
	for (int i = 0; i <= JSONW_MAX_DEPTH; i++)
		jsonw_array_begin(&w);
	for (int i = 0; i <= JSONW_MAX_DEPTH; i++)
		jsonw_array_end(&w);
	assert_null(jsonw_finish(&w));
}

static void reader_inverts_writer(void **state)
{
	struct snapshot *s = sample_snapshot(), *back;
	char *line = snapshot_to_json(s), *again, err[256];
	const struct table *rings;
	int col;

	(void)state;
	back = snapshot_from_json(line, err, sizeof(err));
	assert_non_null(back);
	rings = snapshot_table(back, "drm_sched.rings");
	assert_int_equal(rings->nrows, 1);
	assert_string_equal(table_str(rings, 0, "name"), "gfx_0.0.0");
	assert_true(table_num(rings, 0, "completed_total") == 9);
	col = table_col(rings->desc, "exec_hist_total");
	assert_int_equal(histogram_count(table_cell(rings, 0, (unsigned int)col)->h), 9);
	assert_true(table_num(rings, 0, "exec_ns.p50") ==
		    table_num(snapshot_table(s, "drm_sched.rings"), 0, "exec_ns.p50"));
	assert_int_equal(snapshot_table(back, "drm_sched.processes")->nrows, 1);
	assert_string_equal(table_str(snapshot_table(back, "drm_sched.processes"), 0, "comm"),
			    "we\"ird\n\\name");
	assert_int_equal(snapshot_table(back, "drm_sched.process_rings")->nrows, 1);
	assert_int_equal(back->collectors[0].info->state, COLLECTOR_UNAVAILABLE);
	assert_ptr_equal(back->collectors[0].info, &back->infos[0]); /* the replay owns its copy */
	assert_int_equal(back->infos[0].ntracepoints, 1);
	assert_int_equal(back->collectors[0].drops[0].count, 3);
	again = snapshot_to_json(back); /* the same text, field for field */
	assert_string_equal(again, line);
	free(again);
	free(line);
	snapshot_free(back);
	snapshot_free(s);
	assert_null(snapshot_from_json("{\"seq\": 1", err, sizeof(err)));
	assert_non_null(strstr(err, "not JSON"));
	assert_null(snapshot_from_json("[1,2]", err, sizeof(err)));
	assert_non_null(strstr(err, "not a gputop-bpf snapshot"));
	assert_null(snapshot_from_json("{\"error\": \"x\"}", err, sizeof(err)));
}

/* A recording with a corrupt third line: two snapshots, then the error at line 3. */
static void replay_stops_at_the_bad_line(void **state)
{
	struct snapshot *s = sample_snapshot();
	char *line = snapshot_to_json(s), path[] = "/tmp/gputop-rec-XXXXXX", err[256];
	const struct snapshot *got;
	struct replay *r;
	struct feed feed;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fprintf(f, "%s\n\n%s\n{\"seq\": 3, \"rin\n%s\n", line, line, line);
	fclose(f);
	r = replay_open(path, false, 0, err, sizeof(err));
	assert_non_null(r);
	replay_feed(r, &feed);
	got = feed.ops->take(feed.impl, 0, 5000);
	assert_non_null(got);
	assert_int_equal(got->seq, 1);
	feed.ops->release(feed.impl, got);
	got = feed.ops->take(feed.impl, 1, 5000);
	assert_non_null(got);
	assert_int_equal(got->seq, 2);
	feed.ops->release(feed.impl, got);
	assert_null(feed.ops->take(feed.impl, 2, 5000));
	assert_true(feed.ops->finished(feed.impl));
	assert_non_null(strstr(feed.ops->error(feed.impl), ":4: not JSON"));
	replay_close(r);

	/* Truncated in the middle of the last line. */
	f = fopen(path, "w");
	fprintf(f, "%s\n%.*s", line, (int)strlen(line) / 2, line);
	fclose(f);
	r = replay_open(path, false, 0, err, sizeof(err));
	replay_feed(r, &feed);
	got = feed.ops->take(feed.impl, 0, 5000);
	assert_non_null(got);
	feed.ops->release(feed.impl, got);
	assert_null(feed.ops->take(feed.impl, 1, 5000));
	assert_non_null(strstr(feed.ops->error(feed.impl), ":2: not JSON"));
	assert_non_null(strstr(feed.ops->error(feed.impl), "(truncated last line)"));
	replay_close(r);
	unlink(path);
	assert_null(replay_open("/nonexistent/rec.jsonl", false, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot open recording"));
	free(line);
	snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(snapshot_round_trips),
		cmocka_unit_test(error_object),
		cmocka_unit_test(writer_commas_escapes_and_limits),
		cmocka_unit_test(reader_inverts_writer),
		cmocka_unit_test(replay_stops_at_the_bad_line),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
