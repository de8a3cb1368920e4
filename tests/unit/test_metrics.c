// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The metrics endpoint's pure parts: label escaping, histogram conversion,
 * names for every registered column (valid, unique, in base units), content
 * negotiation, and a snapshot written in both formats with the row cap.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/drm_sched/sched_tables.h"
#include "collectors/kit/stack_table.h"
#include "collectors/memory/memory_tables.h"
#include "model/histogram.h"
#include "output/metrics.h"

static void test_escape(void **state)
{
	char out[64];

	(void)state;
	metrics_escape_label("gfx_0.0.0", out, sizeof(out));
	assert_string_equal(out, "gfx_0.0.0");
	metrics_escape_label("a\"b\\c\nd", out, sizeof(out));
	assert_string_equal(out, "a\\\"b\\\\c\\nd");
	/* OSC 52 (sets the clipboard) from a comm: the escape and BEL go */
	metrics_escape_label("\x1b]52;c;aGk=\x07", out, sizeof(out));
	assert_string_equal(out, "?]52;c;aGk=?");
	/* C1 (U+009B, CSI) and invalid UTF-8 go; valid multibyte text stays */
	metrics_escape_label("\xc2\x9b" "x\xff\xc3\xa9\xe2\x82", out, sizeof(out));
	assert_string_equal(out, "?x?\xc3\xa9??");
	/* cut to the room there is, never inside an escape or a character */
	metrics_escape_label("ab\"", out, 4);
	assert_string_equal(out, "ab");
	metrics_escape_label("a\xc3\xa9", out, 3);
	assert_string_equal(out, "a");
}

static void test_seconds(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(metrics_ns_as_seconds(1024, b, sizeof(b)), "0.000001024");
	assert_string_equal(metrics_ns_as_seconds(1000000000ULL, b, sizeof(b)), "1");
	assert_string_equal(metrics_ns_as_seconds(1500000000ULL, b, sizeof(b)), "1.5");
	assert_string_equal(metrics_ns_as_seconds(1ULL << 40, b, sizeof(b)), "1099.511627776");
}

static void test_buckets(void **state)
{
	struct histogram h = { 0 };
	uint64_t le[METRICS_BUCKETS], cum[METRICS_BUCKETS];
	const uint64_t values[] = { 5, 1023, 1024, 1025, 2047, 2048, 1000000, 1ULL << 39,
				    (1ULL << 40) + 5 };

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		histogram_add(&h, values[i]);
	metrics_histogram_buckets(&h, le, cum);
	assert_int_equal(le[0], 1024);
	assert_int_equal(le[METRICS_BUCKETS - 1], 1ULL << HIST_MAX_LOG2);
	for (unsigned int b = 0; b < METRICS_BUCKETS; b++) { /* each bucket: the values below le */
		uint64_t below = 0;

		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
			below += values[i] < le[b];
		assert_int_equal(cum[b], below);
	}
	assert_int_equal(cum[0], 2); /* 5 and 1023; 1024 is the next bucket's */
	assert_int_equal(histogram_count(&h), 9); /* +Inf: beyond 2^40 too */
}

static void test_negotiate(void **state)
{
	(void)state;
	/* what Prometheus 2.x sends */
	assert_int_equal(metrics_negotiate("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
			 METRICS_OPENMETRICS);
	assert_int_equal(metrics_negotiate(NULL), METRICS_TEXT);
	assert_int_equal(metrics_negotiate("*/*"), METRICS_TEXT);
	assert_int_equal(metrics_negotiate("text/plain;version=0.0.4"), METRICS_TEXT);
	assert_int_equal(metrics_negotiate(" Application/OpenMetrics-Text ; version=1.0.0"),
			 METRICS_OPENMETRICS);
	assert_int_equal(metrics_negotiate("application/openmetrics-text;q=0"), METRICS_TEXT);
	assert_int_equal(metrics_negotiate("text/plain;q=0.5, application/openmetrics-text;q=0.4"),
			 METRICS_TEXT);
	assert_int_equal(metrics_negotiate("text/plain;q=0.5, application/openmetrics-text;q=0.6"),
			 METRICS_OPENMETRICS);
	assert_int_equal(metrics_negotiate(",,;;q=,application/openmetrics-text;q=nan"), METRICS_TEXT);
}

static bool valid_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == ':'))
			return false;
	return true;
}

/* Every registered column: a valid, unique family (its samples' names too), in base units. */
static void test_registry_names(void **state)
{
	size_t n, nnames = 0;
	const struct table_desc *const *reg = table_registry(&n);
	char(*names)[METRICS_NAME_MAX + 8] = calloc(4096, sizeof(*names));
	unsigned int exported = 0;

	(void)state;
	assert_non_null(names);
	for (size_t t = 0; t < n; t++) {
		char labels[32][METRICS_NAME_MAX];
		unsigned int nlabels = 0;

		for (unsigned int c = 0; c < reg[t]->ncols; c++) {
			struct metric_column m;
			const char *suffixes[4] = { "", NULL };

			if (!metrics_label_name(reg[t], c, labels[nlabels], sizeof(labels[0]))) {
				assert_true(valid_name(labels[nlabels]));
				assert_string_not_equal(labels[nlabels], "le");
				for (unsigned int k = 0; k < nlabels; k++) /* one label per name */
					assert_string_not_equal(labels[k], labels[nlabels]);
				nlabels++;
				assert_true(metrics_column(reg[t], c, &m)); /* a label is no metric */
				continue;
			}
			if (metrics_column(reg[t], c, &m))
				continue;
			exported++;
			assert_true(valid_name(m.family));
			assert_ptr_equal(strstr(m.family, "gputop_"), m.family);
			assert_null(strstr(m.family, "_ns")); /* base units */
			assert_null(strstr(m.family, "_pct"));
			assert_null(strstr(m.family, "_per_s_"));
			if (m.kind == METRIC_COUNTER)
				suffixes[0] = "_total";
			if (m.kind == METRIC_HISTOGRAM) {
				suffixes[0] = "_bucket";
				suffixes[1] = "_sum";
				suffixes[2] = "_count";
			}
			if (m.kind == METRIC_GAUGE)
				assert_false(strlen(m.family) > 6 &&
					     !strcmp(m.family + strlen(m.family) - 6, "_total"));
			if (reg[t]->cols[c].flags & COL_CUMULATIVE) /* a count since the start: a counter */
				assert_int_equal(m.kind, METRIC_COUNTER);
			for (unsigned int k = 0; suffixes[k]; k++) {
				assert_true(nnames < 4096);
				snprintf(names[nnames], sizeof(names[0]), "%s%s", m.family, suffixes[k]);
				for (size_t j = 0; j < nnames; j++)
					if (!strcmp(names[j], names[nnames]))
						fail_msg("two columns export %s (table %s)", names[j],
							 reg[t]->name);
				nnames++;
			}
		}
	}
	assert_true(exported > 100);
	free(names);
}

/* Whether name is a sample name some registered column exports. */
static bool exported_sample(const char *name)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);
	static const char *const self[] = { "gputop_build_info", "gputop_snapshots_total",
					    "gputop_snapshot_timestamp_seconds",
					    "gputop_snapshot_interval_seconds", "gputop_collector_up",
					    "gputop_collector_state", "gputop_collector_lost_events_total",
					    "gputop_device_info", "gputop_exporter_max_rows",
					    "gputop_exporter_rows_dropped_total" };

	for (size_t i = 0; i < sizeof(self) / sizeof(self[0]); i++)
		if (!strcmp(name, self[i]))
			return true;
	for (size_t t = 0; t < n; t++) {
		for (unsigned int c = 0; c < reg[t]->ncols; c++) {
			static const char *const hist[] = { "_bucket", "_sum", "_count" };
			struct metric_column m;
			char s[METRICS_NAME_MAX + 8];

			if (metrics_column(reg[t], c, &m))
				continue;
			snprintf(s, sizeof(s), "%s%s", m.family, m.kind == METRIC_COUNTER ? "_total" : "");
			if (m.kind != METRIC_HISTOGRAM && !strcmp(s, name))
				return true;
			for (int k = 0; m.kind == METRIC_HISTOGRAM && k < 3; k++) {
				snprintf(s, sizeof(s), "%s%s", m.family, hist[k]);
				if (!strcmp(s, name))
					return true;
			}
		}
	}
	return false;
}

/* The Grafana dashboard queries only metrics that exist. */
static void test_dashboard_names(void **state)
{
	FILE *f = fopen("dist/grafana/gputop-bpf.json", "r");
	char *text = calloc(1, 1 << 20);
	unsigned int found = 0;
	size_t len;

	(void)state;
	assert_non_null(f);
	assert_non_null(text);
	len = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	text[len] = 0;
	for (char *p = strstr(text, "gputop_"); p; p = strstr(p + 1, "gputop_")) {
		char name[METRICS_NAME_MAX];
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");

		if (p > text && (p[-1] == '-' || p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
			continue; /* part of another word ("gputop-bpf" is not a metric) */
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (!exported_sample(name))
			fail_msg("the dashboard queries %s, which no column exports", name);
		found++;
	}
	assert_true(found >= 20);
	free(text);
}

/* Three rings; the hostile name tests escaping; the histogram has a known sum. */
static struct snapshot *rings_snapshot(void)
{
	static struct snapshot s;
	static struct table *tables[1];
	struct table *t = table_new(&sched_rings_table);
	const char *names[3] = { "gfx", "comp\"\n\x1b]52;c;x\x07", "sdma" };
	const double per_s[3] = { 50, 10, 1 };

	assert_non_null(t);
	for (int r = 0; r < 3; r++) {
		struct cell *row = table_row_add(t);
		struct histogram h = { 0 };

		cell_set_str(row, RING_NAME, names[r]);
		cell_set_str(row, RING_DEV, "card0");
		cell_set_u64(row, RING_QUEUE, 7 + (uint64_t)r);
		cell_set_u64(row, RING_DONE, 1000 + (uint64_t)r);
		cell_set_f64(row, RING_DONE_PER_S, per_s[r]);
		cell_set_f64(row, RING_BUSY, 12.5);
		cell_set_f64(row, RING_EXEC_P50, 2500000);
		histogram_add(&h, 1023);
		histogram_add(&h, 1024);
		histogram_add(&h, 3000000);
		cell_set_hist(row, RING_EXEC_HIST, &h);
		cell_set_u64(row, RING_EXEC_TOTAL + LAT_COUNT, 3);
		cell_set_f64(row, RING_EXEC_TOTAL + LAT_MEAN, (1023.0 + 1024 + 3000000) / 3);
	}
	tables[0] = t;
	s.seq = 42;
	s.interval_s = 1;
	s.tables = tables;
	s.ntables = 1;
	return &s;
}

static char *write_to_string(const struct snapshot *s, enum metrics_format f,
			     const struct metrics_export *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(metrics_write(out, s, f, d), 0);
	fclose(out);
	return buf;
}

static void test_write(void **state)
{
	struct snapshot *s = rings_snapshot();
	struct metrics_export d = { .max_rows = 2 };
	char *text, *om;

	(void)state;
	assert_int_equal(metrics_count_drops(s, &d), 0);
	text = write_to_string(s, METRICS_TEXT, &d);
	om = write_to_string(s, METRICS_OPENMETRICS, &d);
	/* counters: the text format's family has _total, OpenMetrics' has not */
	assert_non_null(strstr(text, "# TYPE gputop_drm_sched_rings_completed_total counter\n"));
	assert_non_null(strstr(om, "# TYPE gputop_drm_sched_rings_completed counter\n"));
	assert_non_null(strstr(text, "\ngputop_drm_sched_rings_completed_total{ring=\"gfx\",device=\"card0\"} 1000\n"));
	/* escaped labels; no control character anywhere */
	assert_non_null(strstr(text, "{ring=\"comp\\\"\\n?]52;c;x?\",device=\"card0\"} 1001\n"));
	for (const char *p = text; *p; p++)
		assert_true(*p == '\n' || (unsigned char)*p >= 0x20);
	/* gauges in base units */
	assert_non_null(strstr(text, "\ngputop_drm_sched_rings_queue_depth{ring=\"gfx\",device=\"card0\"} 7\n"));
	assert_non_null(strstr(text, "\ngputop_drm_sched_rings_busy_ratio{ring=\"gfx\",device=\"card0\"} 0.125\n"));
	assert_non_null(strstr(text, "\ngputop_drm_sched_rings_exec_p50_seconds{ring=\"gfx\",device=\"card0\"} 0.0025\n"));
	/* the rate is left out: its counter is there */
	assert_null(strstr(text, "completed_per_second"));
	/* the histogram: 1023 below 1.024 us, 1024 in the next bucket, +Inf, sum from the mean */
	assert_non_null(strstr(text, "# TYPE gputop_drm_sched_rings_exec_seconds histogram\n"));
	assert_non_null(strstr(text, "exec_seconds_bucket{ring=\"gfx\",device=\"card0\",le=\"0.000001024\"} 1\n"));
	assert_non_null(strstr(text, "exec_seconds_bucket{ring=\"gfx\",device=\"card0\",le=\"0.000002048\"} 2\n"));
	assert_non_null(strstr(text, "exec_seconds_bucket{ring=\"gfx\",device=\"card0\",le=\"0.004194304\"} 3\n"));
	assert_non_null(strstr(text, "exec_seconds_bucket{ring=\"gfx\",device=\"card0\",le=\"+Inf\"} 3\n"));
	assert_non_null(strstr(text, "exec_seconds_count{ring=\"gfx\",device=\"card0\"} 3\n"));
	assert_non_null(strstr(text, "exec_seconds_sum{ring=\"gfx\",device=\"card0\"} 0.003002047\n"));
	/* the cap: the two busiest rings; the third counted as left out */
	assert_null(strstr(text, "ring=\"sdma\""));
	assert_non_null(strstr(text, "gputop_exporter_rows_dropped_total{table=\"drm_sched.rings\"} 1\n"));
	assert_non_null(strstr(text, "gputop_snapshots_total 42\n"));
	/* OpenMetrics ends with # EOF; the text format has none */
	assert_int_equal(strcmp(om + strlen(om) - 6, "# EOF\n"), 0);
	assert_null(strstr(text, "# EOF"));
	free(text);
	free(om);
	/* counted once per snapshot, summed over snapshots */
	assert_int_equal(metrics_count_drops(s, &d), 0);
	text = write_to_string(s, METRICS_TEXT, &d);
	assert_non_null(strstr(text, "gputop_exporter_rows_dropped_total{table=\"drm_sched.rings\"} 2\n"));
	free(text);
	/* no cap: every ring */
	d.max_rows = 0;
	text = write_to_string(s, METRICS_TEXT, &d);
	assert_non_null(strstr(text, "ring=\"sdma\""));
	free(text);
	metrics_export_free(&d);
	table_free(s->tables[0]);
}

/* The stacks tables (keyed by a call stack no label could hold whole) are not exported. */
static void test_stacks_not_exported(void **state)
{
	struct snapshot *s = rings_snapshot();
	struct table *stacks = table_new(&nvidia_stacks_table), *tables[2] = { s->tables[0], stacks };
	struct metrics_export d = { .max_rows = 0 };
	struct cell *row = table_row_add(stacks);
	char *text;

	(void)state;
	cell_set_u64(row, STACK_PID, 7);
	cell_set_str(row, STACK_COMM, "python3");
	cell_set_str(row, STACK_SOURCE, "launch");
	cell_set_long_str(row, STACK_LEAF, "kernel_a()");
	cell_set_long_str(row, STACK_FRAMES, "_start;main;cuLaunchKernel");
	cell_set_u64(row, STACK_COUNT, 40);
	s->tables = tables;
	s->ntables = 2;
	assert_int_equal(metrics_count_drops(s, &d), 0);
	text = write_to_string(s, METRICS_TEXT, &d);
	assert_non_null(strstr(text, "gputop_drm_sched_rings_queue_depth"));
	assert_null(strstr(text, "gputop_nvidia_stacks"));
	assert_null(strstr(text, "cuLaunchKernel"));
	assert_non_null(strstr(text, "gputop_exporter_rows_dropped_total{table=\"nvidia.stacks\"} 0\n"));
	free(text);
	metrics_export_free(&d);
	table_free(stacks);
	table_free(s->tables[0]);
}

/* Process 100 is the viewer's (uid 1000), 200 another user's; others are gone. */
static int fake_owner(uint32_t pid, uint32_t *uid)
{
	if (pid != 100 && pid != 200)
		return -1;
	*uid = pid == 100 ? 1000 : 0;
	return 0;
}

/* --metrics-private: other users' command names and containers stay out; pids and numbers stay. */
static void test_private_names(void **state)
{
	struct table *procs = table_new(&sched_procs_table), *boxes = table_new(&memory_containers);
	struct table *tables[2] = { procs, boxes };
	struct snapshot s = { .seq = 1, .interval_s = 1, .tables = tables, .ntables = 2 };
	struct metrics_export x = { .private_names = true, .viewer_uid = 1000, .owner = fake_owner };
	uint32_t pids[3] = { 100, 200, 300 };
	char *text;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct cell *row = table_row_add(procs);
		char comm[16];

		snprintf(comm, sizeof(comm), "app%u", pids[i]);
		cell_set_u64(row, PROC_PID, pids[i]);
		cell_set_str(row, PROC_COMM, comm);
		cell_set_u64(row, PROC_JOBS, 5);
	}
	cell_set_str(table_row_add(boxes), MK_CGROUP, "docker:4f3a9c2b1d0e");
	cell_set_u64(table_row(boxes, 0), MK_PROCS, 2);
	text = write_to_string(&s, METRICS_TEXT, &x);
	assert_non_null(strstr(text, "gputop_drm_sched_processes_jobs_total{pid=\"100\",comm=\"app100\"} 5\n"));
	assert_non_null(strstr(text, "gputop_drm_sched_processes_jobs_total{pid=\"200\"} 5\n"));
	assert_non_null(strstr(text, "gputop_drm_sched_processes_jobs_total{pid=\"300\"} 5\n"));
	assert_null(strstr(text, "app200"));
	assert_null(strstr(text, "app300")); /* gone: whose it was is unknown */
	assert_null(strstr(text, "docker:")); /* a container's row: no process owns it */
	free(text);
	x.private_names = false;
	text = write_to_string(&s, METRICS_TEXT, &x);
	assert_non_null(strstr(text, "comm=\"app200\""));
	assert_non_null(strstr(text, "container=\"docker:4f3a9c2b1d0e\""));
	free(text);
	table_free(procs);
	table_free(boxes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_private_names),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_negotiate),
		cmocka_unit_test(test_registry_names),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_stacks_not_exported),
		cmocka_unit_test(test_dashboard_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
