// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Collector tables: the descriptor-driven JSON writer and reader round trip of
 * every registered table (unknown cells as null), sorting and filtering, the
 * histories derived from a stream of snapshots, and the table widget's pure
 * parts (which columns fit, text cut with an ellipsis, word wrap).
 */
#include "tests/unit/cmocka_all.h"
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yajl/yajl_tree.h>
#include "model/histogram.h"
#include "model/histories.h"
#include "format/cell_format.h"
#include "output/json.h"
#include "recording/json_read.h"
#include "output/json_tables.h"
#include "output/json_writer.h"
#include "output/text.h"
#include "tui/table_fit.h"

/* A table of this test's own, registered like a collector's (it joins the round trip too). */
enum { T_PID, T_COMM, T_DEV, T_CRTC, T_ID, T_RATE, T_HZ, T_BYTES, T_NOTE, T_GPU, T_P50, T_P99,
       T_HIST, T_COLS };
static const struct col_desc test_cols[T_COLS] = {
	[T_PID] = { "pid", "PID", "process", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[T_COMM] = { "comm", "COMM", "name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[T_DEV] = { "dev", "DEVICE", "device", COL_STR, UNIT_NONE, 8, COL_KEY | COL_ASCENDING },
	[T_CRTC] = { "crtc", "CRTC", "pipe", COL_U64, UNIT_NONE, 4, COL_KEY | COL_ASCENDING },
	[T_ID] = { "client", "CLIENT", "id", COL_U64, UNIT_NONE, 6, COL_KEY | COL_DETAIL },
	[T_RATE] = { "events_per_s", "EVENTS/S", "rate", COL_F64, UNIT_PER_S, 8, 0 },
	[T_HZ] = { "refresh_hz", "HZ", "rate", COL_F64, UNIT_HZ, 7, COL_HISTORY },
	[T_BYTES] = { "bytes", "BYTES", "size", COL_U64, UNIT_BYTES, 8, 0 },
	[T_NOTE] = { "note", "NOTE", "detail only", COL_STR, UNIT_NONE, 20, COL_DETAIL },
	[T_GPU] = { "gpu", "GPU", "a flag", COL_BOOL, UNIT_NONE, 3, COL_DETAIL },
	[T_P50] = { "wait_ns.p50", "W p50", "nested", COL_F64, UNIT_NS, 8, COL_DETAIL },
	[T_P99] = { "wait_ns.p99", "W p99", "nested", COL_F64, UNIT_NS, 8, COL_DETAIL },
	[T_HIST] = { "wait_hist", "HIST", "a histogram", COL_HIST, UNIT_NS, 8, COL_DETAIL },
};
static const struct table_desc test_things = {
	.name = "test.things",
	.title = "Things",
	.cols = test_cols,
	.ncols = T_COLS,
	.sort_col = T_RATE,
};
TABLE_REGISTER(test_things);

/* Row r of a table of d: every cell set from r and its column, except the unknown ones. */
static void fill_row(const struct table_desc *d, struct cell *row, size_t r, bool some_unknown)
{
	for (unsigned int c = 0; c < d->ncols; c++) {
		char text[64];

		if (some_unknown && c % 3 == 2 && !(d->cols[c].flags & COL_KEY))
			continue;
		switch (d->cols[c].type) {
		case COL_STR:
			snprintf(text, sizeof(text), "%s-\"%zu\"\\\n", d->cols[c].key, r);
			cell_set_str(row, c, text);
			break;
		case COL_U64:
			cell_set_u64(row, c, 1000 * r + c + (c == 1 ? UINT64_MAX / 2 : 0));
			break;
		case COL_F64:
			cell_set_f64(row, c, (double)r * 1.25 + c / 8.0);
			break;
		case COL_BOOL:
			cell_set_u64(row, c, (r + c) & 1);
			break;
		case COL_HIST: {
			struct histogram h = { 0 };

			histogram_add(&h, 1000 * (r + 1));
			histogram_add(&h, 16666667);
			histogram_add(&h, UINT64_MAX); /* the top slot */
			cell_set_hist(row, c, &h);
			break;
		}
		}
	}
}

static struct snapshot *snapshot_of_every_table(void)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);
	struct snapshot *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->seq = 7;
	s->tables = calloc(n, sizeof(*s->tables));
	assert_non_null(s->tables);
	for (size_t i = 0; i < n; i++) {
		struct table *t = table_new(reg[i]);

		assert_non_null(t);
		for (size_t r = 0; r < 3; r++)
			fill_row(reg[i], table_row_add(t), r, r == 1);
		s->tables[s->ntables++] = t;
	}
	return s;
}

static void every_table_round_trips(void **state)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);
	struct snapshot *s = snapshot_of_every_table(), *back;
	char *line = snapshot_to_json(s), err[256] = "";

	(void)state;
	assert_true(n >= 1);
	assert_ptr_equal(table_desc_find("test.things"), &test_things);
	assert_non_null(line);
	back = snapshot_from_json(line, err, sizeof(err));
	assert_non_null(back);
	assert_int_equal(back->ntables, n);
	for (size_t i = 0; i < n; i++) {
		const struct table *a = snapshot_table(s, reg[i]->name);
		const struct table *b = snapshot_table(back, reg[i]->name);

		assert_non_null(b);
		assert_ptr_equal(b->desc, reg[i]);
		assert_int_equal(b->nrows, a->nrows);
		for (size_t r = 0; r < a->nrows; r++) {
			for (unsigned int c = 0; c < reg[i]->ncols; c++) {
				const struct cell *x = table_cell(a, r, c), *y = table_cell(b, r, c);

				assert_int_equal(x->known, y->known);
				if (!x->known)
					continue;
				if (reg[i]->cols[c].type == COL_STR)
					assert_string_equal(x->s, y->s);
				else if (reg[i]->cols[c].type == COL_HIST)
					assert_memory_equal(x->h, y->h, sizeof(*x->h));
				else if (reg[i]->cols[c].type == COL_U64 ||
					 reg[i]->cols[c].type == COL_BOOL)
					assert_true(x->u == y->u);
				else
					assert_true(fabs(x->f - y->f) < 1e-9);
			}
		}
	}
	snapshot_free(back);
	free(line);
	snapshot_free(s);
}

static void unknown_is_null_and_bad_cells_are_unknown(void **state)
{
	const struct table_desc *d = &test_things;
	int hz = T_HZ, crtc = T_CRTC, dev = T_DEV;
	struct snapshot *s = calloc(1, sizeof(*s)), *back;
	struct cell *row;
	char *line, err[256];
	const char *hz_path[] = { "tables", "test.things", NULL }, *key[] = { NULL, NULL };
	yajl_val root, r0, v;
	char bad[512];

	(void)state;
	s->tables = calloc(1, sizeof(*s->tables));
	s->tables[s->ntables++] = table_new(d);
	row = table_row_add(s->tables[0]);
	cell_set_u64(row, (unsigned int)crtc, 0);
	cell_set_f64(row, (unsigned int)hz, NAN); /* not finite: unknown */
	line = snapshot_to_json(s);
	root = yajl_tree_parse(line, err, sizeof(err));
	assert_non_null(root);
	v = yajl_tree_get(root, hz_path, yajl_t_array);
	assert_non_null(v);
	assert_true(v->u.array.len == 1);
	r0 = v->u.array.values[0];
	key[0] = "refresh_hz";
	v = yajl_tree_get(r0, key, yajl_t_any);
	assert_true(v && YAJL_IS_NULL(v)); /* present, and null */
	key[0] = "crtc";
	v = yajl_tree_get(r0, key, yajl_t_any);
	assert_true(v && YAJL_IS_INTEGER(v) && YAJL_GET_INTEGER(v) == 0); /* a known zero stays a zero */
	key[0] = "wait_ns"; /* "wait_ns.p50" nests */
	v = yajl_tree_get(r0, key, yajl_t_object);
	assert_non_null(v);
	key[0] = "p99";
	v = yajl_tree_get(v, key, yajl_t_any);
	assert_true(v && YAJL_IS_NULL(v));
	yajl_tree_free(root);

	/* Wrong types, negative counts and unknown tables from a hostile recording. */
	snprintf(bad, sizeof(bad),
		 "{\"seq\":1,\"format\":3,\"tables\":{\"nosuch.table\":[{\"a\":1}],"
		 "\"test.things\":[{\"crtc\":-1,\"refresh_hz\":\"60\",\"dev\":7},{\"crtc\":2,"
		 "\"refresh_hz\":59.9,\"dev\":\"card0\"}, 5]}}");
	back = snapshot_from_json(bad, err, sizeof(err));
	assert_non_null(back);
	assert_int_equal(back->ntables, 1);
	assert_int_equal(back->tables[0]->nrows, 2);
	assert_false(table_cell(back->tables[0], 0, (unsigned int)crtc)->known);
	assert_false(table_cell(back->tables[0], 0, (unsigned int)hz)->known);
	assert_false(table_cell(back->tables[0], 0, (unsigned int)dev)->known);
	assert_true(table_cell(back->tables[0], 1, (unsigned int)hz)->known);
	assert_string_equal(table_cell(back->tables[0], 1, (unsigned int)dev)->s, "card0");
	snapshot_free(back);

	/* A recording from a newer format says which version made it. */
	back = snapshot_from_json("{\"seq\":1,\"rings\":[],\"format\":99,\"version\":\"9.9\"}", err,
				  sizeof(err));
	assert_null(back);
	assert_non_null(strstr(err, "format 99"));
	assert_non_null(strstr(err, "9.9"));
	free(line);
	snapshot_free(s);
}

/* A hostile recording: numbers out of range, lines of tiny values, more rows than bytes, duplicates. */
static void hostile_recordings_are_bounded(void **state)
{
	const struct table *t;
	struct snapshot *s;
	char err[256], *big;
	size_t n = 900 * 1024, len;

	(void)state;
	/* 1e300 and -1.5 into counts, 1e400 (infinite) into rates, a timestamp of 1e17, a huge interval */
	s = snapshot_from_json("{\"seq\":1e300,\"format\":3,\"timestamp\":1e17,\"interval_s\":-1e400,"
			       "\"tables\":{\"test.things\":[{\"pid\":1,\"dev\":\"a\",\"crtc\":1e300,"
			       "\"bytes\":-1.5,\"refresh_hz\":1e400,\"events_per_s\":-1e999}]}}",
			       err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->seq, 0);
	assert_int_equal(s->wall.tv_sec, 0);
	assert_true(s->interval_s == 0);
	t = snapshot_table(s, "test.things");
	assert_false(table_cell(t, 0, T_CRTC)->known);
	assert_false(table_cell(t, 0, T_BYTES)->known);
	assert_false(table_cell(t, 0, T_HZ)->known);
	assert_false(table_cell(t, 0, T_RATE)->known);
	snapshot_free(s);

	/* NaN and Infinity are not JSON (gputop-bpf never writes them): the line is refused */
	assert_null(snapshot_from_json("{\"seq\":1,\"format\":3,\"tables\":{\"test.things\":[{\"pid\":1,"
				       "\"refresh_hz\":NaN}]}}",
				       err, sizeof(err)));
	assert_non_null(strstr(err, "not JSON"));

	/* 900 KB of {} ring objects: refused once they take more than the line's budget */
	big = malloc(n + 64);
	assert_non_null(big);
	len = (size_t)snprintf(big, 64, "{\"seq\":1,\"rings\":[");
	while (len + 4 < n)
		len += (size_t)snprintf(big + len, 4, "{},");
	snprintf(big + len - 1, 8, "]}");
	s = snapshot_from_json(big, err, sizeof(err));
	assert_null(s);
	assert_non_null(strstr(err, "more rows than a line of"));

	/* 900 KB of tracepoints in one collector: a collector has tens, never hundreds */
	len = (size_t)snprintf(big, 64, "{\"seq\":1,\"rings\":[],\"collectors\":[{\"tracepoints\":[");
	while (len + 4 < n)
		len += (size_t)snprintf(big + len, 4, "{},");
	snprintf(big + len - 1, 8, "]}]}");
	s = snapshot_from_json(big, err, sizeof(err));
	assert_null(s);
	assert_non_null(strstr(err, "more tracepoints in a collector than"));

	/* rows of one small key each: more cells than 8 bytes per byte of the line allows */
	len = (size_t)snprintf(big, 64, "{\"seq\":1,\"format\":3,\"tables\":{\"test.things\":[");
	for (unsigned int pid = 1; len + 32 < n; pid++)
		len += (size_t)snprintf(big + len, 32, "{\"pid\":%u},", pid);
	snprintf(big + len - 1, 8, "]}}");
	s = snapshot_from_json(big, err, sizeof(err));
	assert_null(s);
	assert_non_null(strstr(err, "more rows than a line of"));
	free(big);

	/* one row per key: a repeated key keeps its first row */
	s = snapshot_from_json("{\"seq\":1,\"format\":3,\"tables\":{\"test.things\":["
			       "{\"pid\":7,\"dev\":\"a\",\"crtc\":0,\"comm\":\"first\"},"
			       "{\"pid\":7,\"dev\":\"a\",\"crtc\":0,\"comm\":\"again\"},"
			       "{\"pid\":7,\"dev\":\"b\",\"crtc\":0,\"comm\":\"other\"}]}}",
			       err, sizeof(err));
	assert_non_null(s);
	t = snapshot_table(s, "test.things");
	assert_int_equal(t->nrows, 2);
	assert_string_equal(table_cell(t, 0, T_COMM)->s, "first");
	assert_string_equal(table_cell(t, 1, T_COMM)->s, "other");
	snapshot_free(s);
}

/* The event reader: numbers exactly as written, the last of a repeated key, nesting, old formats. */
static void reader_reads_values_exactly(void **state)
{
	static const char *const rates[] = {
		"0.1",	   "123.456e-3", "-2.5E+3", "1e22", "1e23", "0.30000000000000004", "4503599627370497.5",
		"1.7976931348623157e308", "5e-324", "0.0", "-0.0", "123456789012345", "0.000000000000000000000001",
		"9602.761321599149", "6261879.2023759228" /* where a 16- or 17-digit fast path rounds twice */
	};
	const size_t nrates = sizeof(rates) / sizeof(rates[0]);
	char line[4096], err[256];
	const struct table *t;
	struct snapshot *s;
	size_t len;

	(void)state;
	len = (size_t)snprintf(line, sizeof(line), "{\"seq\":1,\"format\":3,\"tables\":{\"test.things\":[");
	for (unsigned int i = 0; i < nrates; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "{\"pid\":%u,\"events_per_s\":%s},", i + 1,
					rates[i]);
	snprintf(line + len, sizeof(line) - len,
		 "{\"pid\":100,\"bytes\":18446744073709551615,\"crtc\":-0,\"comm\":\"one\",\"comm\":\"two\","
		 "\"wait_ns\":{\"p50\":1.5,\"p99\":2,\"deeper\":{\"p50\":9}},\"wait_hist\":[[1000,3],[2000000,-1],"
		 "[5,\"x\"],[7],[64,1.5],[300,4,4]],\"note\":[\"an\",\"array\"],\"gpu\":true,"
		 "\"client\":18446744073709551616,\"%s\":1,\"pid\\u0000x\":5,"
		 "\"dev\":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}]}}",
		 "a-key-longer-than-any-column-key-the-reader-keeps-sixty-four-bytes-and-more");
	s = snapshot_from_json(line, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	t = snapshot_table(s, "test.things");
	assert_non_null(t);
	assert_int_equal(t->nrows, nrates + 1);
	for (unsigned int i = 0; i < nrates; i++) {
		const struct cell *c = table_cell(t, i, T_RATE);
		double want = strtod(rates[i], NULL);

		assert_true(c->known);
		if (memcmp(&c->f, &want, sizeof(want))) /* the same bits as strtod's */
			fail_msg("%s read as %.17g, strtod says %.17g", rates[i], c->f, want);
	}
	assert_true(table_cell(t, nrates, T_BYTES)->u == UINT64_MAX);
	assert_true(table_cell(t, nrates, T_CRTC)->known); /* -0 is 0, a count */
	assert_int_equal(table_cell(t, nrates, T_CRTC)->u, 0);
	assert_string_equal(table_cell(t, nrates, T_COMM)->s, "two");
	assert_true(table_cell(t, nrates, T_P50)->f == 1.5);
	assert_true(table_cell(t, nrates, T_P99)->f == 2);
	assert_true(table_cell(t, nrates, T_HIST)->known);
	assert_int_equal(histogram_count(table_cell(t, nrates, T_HIST)->h), 3); /* only [1000,3] counts */
	assert_false(table_cell(t, nrates, T_NOTE)->known);
	assert_true(table_cell(t, nrates, T_GPU)->known);
	assert_false(table_cell(t, nrates, T_ID)->known); /* 2^64 is no count */
	assert_false(table_cell(t, nrates, T_DEV)->known);
	assert_int_equal(table_cell(t, nrates, T_PID)->u, 100);
	snapshot_free(s);

	/* format 2: each process's rings, its pid written after them; a process without a pid has none */
	s = snapshot_from_json("{\"format\":2,\"seq\":1,\"rings\":[{\"name\":\"gfx\",\"dev\":\"d\"}],"
			       "\"processes\":[{\"comm\":\"a\",\"rings\":[{\"name\":\"gfx\",\"dev\":\"d\"},"
			       "{\"name\":\"sdma\",\"dev\":\"d\",\"pid\":9}],\"pid\":42},"
			       "{\"comm\":\"b\",\"rings\":[{\"name\":\"gfx\",\"dev\":\"d\"}]}]}",
			       err, sizeof(err));
	assert_non_null(s);
	t = snapshot_table(s, "drm_sched.process_rings");
	assert_non_null(t);
	assert_int_equal(t->nrows, 2);
	assert_true(table_num(t, 0, "pid") == 42);
	assert_true(table_num(t, 1, "pid") == 42); /* the process's pid, not the ring's own */
	t = snapshot_table(s, "drm_sched.processes");
	assert_int_equal(t->nrows, 2);
	assert_string_equal(table_str(t, 0, "ring_names"), "gfx,sdma");
	assert_int_equal(snapshot_table(s, "drm_sched.rings")->nrows, 1);
	snapshot_free(s);

	/* format 3 has no such arrays: they are not read */
	s = snapshot_from_json("{\"format\":3,\"seq\":1,\"rings\":[{\"name\":\"gfx\",\"dev\":\"d\"}]}", err,
			       sizeof(err));
	assert_non_null(s);
	assert_null(snapshot_table(s, "drm_sched.rings"));
	snapshot_free(s);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A snapshot of procs processes on procs / 10 rings, as the drm_sched collector makes them. */
static struct snapshot *scheduler_snapshot(size_t procs)
{
	static const char *const names[] = { "drm_sched.rings", "drm_sched.processes",
					     "drm_sched.process_rings" };
	struct snapshot *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->seq = 1;
	s->tables = calloc(3, sizeof(*s->tables));
	assert_non_null(s->tables);
	for (size_t i = 0; i < 3; i++) {
		struct table *t = table_new(table_desc_find(names[i]));

		assert_non_null(t);
		for (size_t r = 0; r < (i ? procs : procs / 10); r++)
			fill_row(t->desc, table_row_add(t), r, false);
		s->tables[s->ntables++] = t;
	}
	return s;
}

/* s written, read back and printed: the time it took. */
static double round_trip_ms(const struct snapshot *s, FILE *devnull)
{
	double t0 = now_ms();
	char *line = snapshot_to_json(s), err[256];
	struct snapshot *back = line ? snapshot_from_json(line, err, sizeof(err)) : NULL;

	assert_non_null(back);
	snapshot_print_text(devnull, back, &(struct text_settings){ .programs = true });
	t0 = now_ms() - t0;
	snapshot_free(back);
	free(line);
	return t0;
}

/* Writing, reading and printing grow with the rows, not with processes x rings (2 s per snapshot once). */
static void large_snapshots_cost_in_proportion(void **state)
{
	struct snapshot *small = scheduler_snapshot(2000), *large = scheduler_snapshot(16000);
	FILE *devnull = fopen("/dev/null", "w");
	double a = 1e9, b = 1e9;

	(void)state;
	assert_non_null(devnull);
	for (int k = 0; k < 5; k++) { /* the best of five, taken in turns: the machine's noise is not ours */
		a = fmin(a, round_trip_ms(small, devnull));
		b = fmin(b, round_trip_ms(large, devnull));
	}
	printf("2,000 processes: %.1f ms; 16,000: %.1f ms (x%.1f; linear is x8, quadratic x64)\n", a, b, b / a);
	/* x8 to x10 measured, x28 with a naive duplicate check */
	assert_true(b < 20 * a);
	fclose(devnull);
	snapshot_free(small);
	snapshot_free(large);
}

/* The JSON writer's doubles: the bytes of "%.15g" (and json-c's ".0" on whole numbers) for every value tried. */
static void doubles_written_as_printf_writes_them(void **state)
{
	unsigned long long seed = 88172645463325252ULL;
	char got[48], want[48];

	(void)state;
	for (unsigned int i = 0; i < 2000000; i++) {
		double v;
		int n;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17; /* xorshift64 */
		switch (i % 5) {
		case 0: /* any magnitude from 1e-6 to 1e16 */
			v = (double)(seed >> 11) / 9007199254740992.0 * pow(10, (double)(seed % 23) - 6);
			break;
		case 1: /* few decimals: rates and times as the collectors make them */
			v = (double)(seed % 100000000) / pow(10, (double)(seed % 9));
			break;
		case 2: /* whole */
			v = (double)(seed % 2000000000000000ULL);
			break;
		case 3: /* 15 digits and a half: a tie in decimal, rarely in binary */
			v = ((double)(seed % 900000000000000ULL + 100000000000000ULL) + 0.5) /
			    pow(10, (double)(seed % 19));
			break;
		default: /* any bits that make a finite double */
			memcpy(&v, &seed, sizeof(v));
			if (!isfinite(v))
				v = 1.0 / 3;
		}
		if (i & 1)
			v = -v;
		n = snprintf(want, sizeof(want), "%.15g", v);
		if (!strpbrk(want, ".e") && strcmp(want, "-nan") && strcmp(want, "nan"))
			snprintf(want + n, sizeof(want) - (size_t)n, ".0");
		got[json_format_double(got, v)] = '\0';
		if (strcmp(got, want))
			fail_msg("%.17g written as %s, printf says %s", v, got, want);
	}
}

/* 0.1.0 recordings (format 1) kept interrupt lines in "interrupts": they replay into irq.lines. */
static void format1_interrupts_replay_as_a_table(void **state)
{
	const char *v1 = "{\"version\":\"0.1.0\",\"seq\":3,\"rings\":[],\"interrupts\":[{\"irq\":40,"
			 "\"name\":\"amdgpu\",\"gpu\":true,\"total\":5,\"per_s\":1.5,\"handler_pct\":0.1}]}";
	const char *v2 = "{\"format\":2,\"seq\":3,\"rings\":[],\"interrupts\":[{\"irq\":40}]}";
	struct snapshot *s;
	const struct table *t;
	char err[256];

	(void)state;
	s = snapshot_from_json(v1, err, sizeof(err));
	assert_non_null(s);
	t = snapshot_table(s, "irq.lines");
	assert_non_null(t);
	assert_int_equal(t->nrows, 1);
	assert_int_equal(table_cell(t, 0, (unsigned int)table_col(t->desc, "irq"))->u, 40);
	assert_string_equal(table_cell(t, 0, (unsigned int)table_col(t->desc, "name"))->s, "amdgpu");
	assert_true(table_cell(t, 0, (unsigned int)table_col(t->desc, "gpu"))->known);
	assert_int_equal(table_cell(t, 0, (unsigned int)table_col(t->desc, "gpu"))->u, 1);
	assert_true(cell_number(t->desc, table_row(t, 0), (unsigned int)table_col(t->desc, "per_s")) ==
		    1.5);
	snapshot_free(s);
	s = snapshot_from_json(v2, err, sizeof(err)); /* format 2 has no such array */
	assert_non_null(s);
	assert_null(snapshot_table(s, "irq.lines"));
	snapshot_free(s);
}

static void cells_format_by_unit(void **state)
{
	struct col_desc ns = { "x", "X", "", COL_F64, UNIT_NS, 8, 0 };
	struct col_desc bytes = { "b", "B", "", COL_U64, UNIT_BYTES, 8, 0 };
	struct col_desc text = { "t", "T", "", COL_STR, UNIT_NONE, 8, 0 };
	struct col_desc hex = { "cmd", "CMD", "", COL_U64, UNIT_NONE, 10, COL_HEX };
	struct cell c[1] = { 0 }, t[1] = { 0 };
	char buf[64];

	(void)state;
	assert_string_equal(cell_format(&ns, c, buf, sizeof(buf)), "-");
	cell_set_f64(c, 0, 0);
	assert_string_equal(cell_format(&ns, c, buf, sizeof(buf)), "0ns");
	cell_set_f64(c, 0, 16.67e6);
	assert_string_equal(cell_format(&ns, c, buf, sizeof(buf)), "16.67ms");
	c[0].known = false;
	cell_set_u64(c, 0, 1536 * 1024);
	assert_string_equal(cell_format(&bytes, c, buf, sizeof(buf)), "1.5MiB");
	cell_set_str(t, 0, "a\x1b]52;c;x\x07z\xff");
	assert_string_equal(cell_format(&text, t, buf, sizeof(buf)), "a?]52;c;x?z?");
	free(t[0].s);
	cell_set_str(t, 0, ""); /* known but empty: "-" as on screen, never a blank cell */
	assert_string_equal(cell_format(&text, t, buf, sizeof(buf)), "-");
	free(t[0].s);
	cell_set_u64(c, 0, 3223340586u); /* an ioctl command: in hex, as the kernel headers write it */
	assert_string_equal(cell_format(&hex, c, buf, sizeof(buf)), "0xC020462A");
}

/* What cell_format wrote before its fast paths: printf's bytes, the reference for every unit. */
static void printf_reference(const struct col_desc *col, double v, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned int u = 0;

	switch (col->unit) {
	case UNIT_NS:
		if (v < 1e3)
			snprintf(buf, size, "%.0fns", v);
		else if (v < 1e6)
			snprintf(buf, size, "%.1fus", v / 1e3);
		else if (v < 1e9)
			snprintf(buf, size, "%.2fms", v / 1e6);
		else
			snprintf(buf, size, "%.2fs", v / 1e9);
		break;
	case UNIT_BYTES:
		while (v >= 1024 && u + 1 < 6) {
			v /= 1024;
			u++;
		}
		snprintf(buf, size, u ? "%.1f%s" : "%.0f%s", v, units[u]);
		break;
	case UNIT_BYTES_PER_S:
		while (v >= 1024 && u + 1 < 6) {
			v /= 1024;
			u++;
		}
		snprintf(buf, size, u ? "%.1f%s/s" : "%.0f%s/s", v, units[u]);
		break;
	case UNIT_PER_S:
		if (v >= 1e6)
			snprintf(buf, size, "%.1fM", v / 1e6);
		else if (v >= 1e4)
			snprintf(buf, size, "%.1fk", v / 1e3);
		else
			snprintf(buf, size, "%.1f", v);
		break;
	case UNIT_PCT:
		snprintf(buf, size, "%.1f", v);
		break;
	case UNIT_HZ:
		snprintf(buf, size, "%.2f", v);
		break;
	case UNIT_WATTS:
		snprintf(buf, size, "%.1f", v);
		break;
	default:
		snprintf(buf, size, "%.0f", v);
		break;
	}
}

/* Numbers by hand, byte for byte as printf: ties, -0, huge, tiny, unit edges, short buffers. */
static void numbers_formatted_as_printf_formats_them(void **state)
{
	static const enum col_unit unit[] = { UNIT_NS,	  UNIT_BYTES,	UNIT_PER_S, UNIT_PCT, UNIT_HZ,
					      UNIT_COUNT, UNIT_CELSIUS, UNIT_WATTS, UNIT_MHZ, UNIT_RPM,
					      UNIT_BYTES_PER_S };
	static const double edges[] = { 0.05, 0.25, 0.5, 1.5, 2.5, 0.125, 999.5, 999.49999, 9999.95, 1e4 - 0.05,
					 999999.5, 1e6, 1e9 - 5e3, 1023.95, 1e15, 1e15 - 0.5, 1e20, -0.0,
					 -0.04, -2.5, 5e-324, 4503599627370495.5 };
	unsigned long long seed = 2463534242ULL;
	char got[64], want[64];

	(void)state;
	for (unsigned int i = 0; i < 3000000; i++) {
		struct col_desc col = { "x", "X", "", COL_F64, unit[i % (sizeof(unit) / sizeof(unit[0]))], 8, 0 };
		struct cell c = { 0 };
		size_t size = i % 97 ? sizeof(got) : 2 + i % 7; /* now and then, a buffer too short */
		double v;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17; /* xorshift64 */
		switch (i / 10 % 4) {
		case 0: /* any magnitude from 1e-3 to 1e16 */
			v = (double)(seed >> 11) / 9007199254740992.0 * pow(10, (double)(seed % 20) - 3);
			break;
		case 1: /* a tie in decimal at 0, 1 or 2 decimals, scaled as the units scale */
			v = ((double)(seed % 100000) + 0.5) / pow(10, (double)(seed % 3)) *
			    pow(1000, (double)(seed >> 8 & 3));
			break;
		case 2: /* quarters and eighths: ties in binary too */
			v = (double)(seed % 100000) / 8 * pow(1024, (double)(seed >> 8 & 3));
			break;
		default:
			v = edges[seed % (sizeof(edges) / sizeof(edges[0]))];
			break;
		}
		cell_set_f64(&c, 0, v);
		printf_reference(&col, v, want, size);
		assert_string_equal(cell_format(&col, &c, got, size), want);
		if (col.unit == UNIT_COUNT && v >= 0 && v < 1.8e19) { /* a u64 column: "%llu" */
			col.type = COL_U64;
			cell_set_u64(&c, 0, (uint64_t)v);
			snprintf(want, size, "%llu", (unsigned long long)(uint64_t)v);
			assert_string_equal(cell_format(&col, &c, got, size), want);
		}
	}
}

static void rows_sort_filter_and_keys(void **state)
{
	const struct table_desc *d = &test_things;
	struct table *t = table_new(d);
	struct table_state ts = { 0 };
	const char *comms[] = { "weston", "kwin_wayland", "game" };
	double rates[] = { 60, 144, 30 };
	size_t rows[3], n;
	char key[64];

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct cell *row = table_row_add(t);

		cell_set_u64(row, (unsigned int)table_col(d, "pid"), 100 + i);
		cell_set_str(row, (unsigned int)table_col(d, "comm"), comms[i]);
		cell_set_f64(row, (unsigned int)table_col(d, "events_per_s"), rates[i]);
	}
	n = table_rows(t, &ts, "", rows); /* default: events/s, largest first */
	assert_int_equal(n, 3);
	assert_int_equal(rows[0], 1);
	assert_int_equal(rows[2], 2);
	ts.reverse = true;
	table_rows(t, &ts, NULL, rows);
	assert_int_equal(rows[0], 2);
	ts = (struct table_state){ .sort_set = true, .sort_col = (unsigned int)table_col(d, "comm") };
	table_rows(t, &ts, NULL, rows); /* names A to Z */
	assert_int_equal(rows[0], 2);
	assert_int_equal(rows[1], 1);
	assert_int_equal(table_rows(t, &ts, "WAY", rows), 1); /* case-insensitive text */
	assert_int_equal(rows[0], 1);
	assert_int_equal(table_rows(t, &ts, "102", rows), 1); /* a key column's number */
	assert_int_equal(rows[0], 2);
	table_row_key(t, 0, key, sizeof(key));
	assert_string_equal(key, "100/-/-/-"); /* pid, dev, crtc, client: unknown shown as - */
	table_free(t);
}

/* Rows equal in the sort column: by their totals (a rate's own), then by their key columns ascending. */
static void ties_by_total_then_key(void **state)
{
	enum { C_PID, C_RATE, C_TOTAL, C_PCT, C_COLS };
	static const struct col_desc cols[C_COLS] = {
		[C_PID] = { "pid", "PID", "process", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
		[C_RATE] = { "calls_per_s", "CALLS/S", "rate", COL_F64, UNIT_PER_S, 8, 0 },
		[C_TOTAL] = { "calls_total", "CALLS", "count", COL_U64, UNIT_COUNT, 8, 0 },
		[C_PCT] = { "time_pct", "TIME%", "share", COL_F64, UNIT_PCT, 6, 0 },
	};
	static const struct table_desc d = { .name = "test.ties", .title = "Ties", .cols = cols, .ncols = C_COLS };
	/* pid, calls/s, calls: the 210-call row came last, two rows alike but their PIDs */
	const double rows_in[][3] = { { 9, 0, 1 }, { 7, 0, 1 }, { 8, 5, 3 }, { 3, 0, 210 }, { 5, 0, 1 } };
	const size_t want[] = { 2, 3, 4, 1, 0 }, want_rev[] = { 4, 1, 0, 3, 2 }, by_pct[] = { 3, 2, 4, 1, 0 };
	struct table *t = table_new(&d);
	size_t order[5];

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		struct cell *row = table_row_add(t);

		cell_set_u64(row, C_PID, (uint64_t)rows_in[i][0]);
		cell_set_f64(row, C_RATE, rows_in[i][1]);
		cell_set_u64(row, C_TOTAL, (uint64_t)rows_in[i][2]);
		cell_set_f64(row, C_PCT, 0);
	}
	table_sort(t, C_RATE, false, order);
	assert_memory_equal(order, want, sizeof(want));
	table_sort(t, C_RATE, true, order); /* reversed: totals too, the PIDs still ascending */
	assert_memory_equal(order, want_rev, sizeof(want_rev));
	table_sort(t, C_PCT, false, order); /* not a rate: the table's count, then the PIDs */
	assert_memory_equal(order, by_pct, sizeof(by_pct));
	table_free(t);
}

/* Keys longer than TABLE_KEY_MAX alike in their first bytes (C++ kernels' names): apart, by their hash. */
static void long_keys_stay_apart(void **state)
{
	enum { C_PID, C_NAME, C_COLS };
	static const struct col_desc cols[C_COLS] = {
		[C_PID] = { "pid", "PID", "process", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
		[C_NAME] = { "kernel", "KERNEL", "name", COL_STR, UNIT_NONE, 8, COL_KEY | COL_ASCENDING | COL_LONG },
	};
	static const struct table_desc d = { .name = "test.long_keys", .title = "Long", .cols = cols, .ncols = C_COLS };
	struct table *t = table_new(&d);
	char name[300], a[TABLE_KEY_MAX], b[TABLE_KEY_MAX], c[TABLE_KEY_MAX];

	(void)state;
	memset(name, 'k', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	for (int i = 0; i < 3; i++) {
		struct cell *row = table_row_add(t);

		cell_set_u64(row, C_PID, 924);
		name[sizeof(name) - 2] = (char)('a' + i);
		cell_set_long_str(row, C_NAME, i == 2 ? "short" : name);
	}
	table_row_key(t, 0, a, sizeof(a));
	table_row_key(t, 1, b, sizeof(b));
	table_row_key(t, 2, c, sizeof(c));
	assert_int_equal(strlen(a), TABLE_KEY_MAX - 1);
	assert_string_not_equal(a, b); /* alike for 298 bytes: their hashes differ */
	assert_memory_equal(a, "924/kkk", 7);
	assert_int_equal(a[TABLE_KEY_MAX - 18], '#');
	assert_string_equal(c, "924/short"); /* one that fits: as it is */
	assert_int_equal(table_find_row(t, b), 1);
	table_free(t);
}

/* Ties in a column not a rate: by the total of the table's default order, not a count before it (GPU kernels' handles). */
static void ties_by_default_orders_total(void **state)
{
	enum { C_PID, C_NAME, C_HANDLES, C_RATE, C_TOTAL, C_COLS };
	static const struct col_desc cols[C_COLS] = {
		[C_PID] = { "pid", "PID", "process", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
		[C_NAME] = { "kernel", "KERNEL", "name", COL_STR, UNIT_NONE, 8, COL_KEY | COL_ASCENDING },
		[C_HANDLES] = { "handles", "HANDLES", "handles", COL_U64, UNIT_COUNT, 4, COL_CUMULATIVE },
		[C_RATE] = { "launches_per_s", "LAUNCH/S", "rate", COL_F64, UNIT_PER_S, 8, 0 },
		[C_TOTAL] = { "launches_total", "LAUNCHES", "count", COL_U64, UNIT_COUNT, 8, 0 },
	};
	static const struct table_desc d = {
		.name = "test.kernel_ties", .title = "Kernel ties", .cols = cols, .ncols = C_COLS, .sort_col = C_RATE
	};
	/* one PID; names a, b, c with 488, 976 and 488 launches, one handle each */
	const char *names[] = { "a", "b", "c" };
	const uint64_t launches[] = { 488, 976, 488 };
	const size_t want[] = { 1, 0, 2 };
	struct table *t = table_new(&d);
	size_t order[3];

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct cell *row = table_row_add(t);

		cell_set_u64(row, C_PID, 924);
		cell_set_str(row, C_NAME, names[i]);
		cell_set_u64(row, C_HANDLES, 1);
		cell_set_f64(row, C_RATE, 0);
		cell_set_u64(row, C_TOTAL, launches[i]);
	}
	table_sort(t, C_PID, false, order);
	assert_memory_equal(order, want, sizeof(want));
	table_free(t);
}

static struct snapshot *one_crtc(uint64_t seq, unsigned int crtc, double hz)
{
	const struct table_desc *d = &test_things;
	struct snapshot *s = calloc(1, sizeof(*s));
	struct cell *row;

	s->seq = seq;
	s->tables = calloc(1, sizeof(*s->tables));
	s->tables[s->ntables++] = table_new(d);
	row = table_row_add(s->tables[0]);
	cell_set_u64(row, (unsigned int)table_col(d, "crtc"), crtc);
	cell_set_f64(row, (unsigned int)table_col(d, "refresh_hz"), hz);
	return s;
}

static void histories_follow_rows(void **state)
{
	const struct table_desc *d = &test_things;
	unsigned int hz = T_HZ;
	struct histories *h = histories_new();
	struct snapshot *s[4] = { one_crtc(1, 0, 60), one_crtc(2, 0, 59), one_crtc(3, 1, 144),
				  one_crtc(4, 1, 120) };
	double vals[HISTORY_LEN];
	const struct history *got;

	(void)state;
	histories_update(h, s[0]);
	histories_update(h, s[1]);
	histories_update(h, s[1]); /* the same snapshot twice counts once */
	got = histories_get(h, s[1]->tables[0], 0, hz);
	assert_non_null(got);
	assert_int_equal(history_read(got, vals, HISTORY_LEN), 2);
	assert_true(vals[0] == 60 && vals[1] == 59);
	assert_null(histories_get(h, s[1]->tables[0], 0, (unsigned int)table_col(d, "crtc")));
	histories_update(h, s[2]); /* CRTC 0 gone, CRTC 1 new */
	histories_update(h, s[3]);
	assert_null(histories_get(h, s[1]->tables[0], 0, hz));
	got = histories_get(h, s[3]->tables[0], 0, hz);
	assert_int_equal(history_read(got, vals, HISTORY_LEN), 2);
	assert_true(vals[0] == 144 && vals[1] == 120);
	for (int i = 0; i < 4; i++)
		snapshot_free(s[i]);
	histories_free(h);
}

static void columns_fit_whole_and_spark_takes_the_rest(void **state)
{
	const struct table_desc *d = &test_things;
	struct table_fit f;
	int used = 0;

	(void)state;
	table_fit_columns(d, NULL, 78, NULL, &f);
	assert_int_equal(f.ncols, 7); /* every column but the two detail ones */
	for (unsigned int i = 0; i < f.ncols; i++) {
		assert_false(d->cols[f.cols[i]].flags & COL_DETAIL);
		used += d->cols[f.cols[i]].width + (i ? 1 : 0);
	}
	assert_true(used <= 78);
	table_fit_columns(d, NULL, 300, NULL, &f);
	assert_true(f.spark_col >= 0);
	assert_true(d->cols[f.spark_col].flags & COL_HISTORY);
	assert_int_equal(f.spark_x + f.spark_w, 300);
	used = f.spark_x - 1; /* the columns' cells: a sparkline only with room for its title's short form */
	table_fit_columns(d, NULL, used + 1 + TABLE_FIT_SPARK_KEEP - 1, NULL, &f);
	assert_int_equal(f.spark_col, -1);
	table_fit_columns(d, NULL, used + 1 + TABLE_FIT_SPARK_KEEP, NULL, &f);
	assert_int_equal(f.spark_w, TABLE_FIT_SPARK_KEEP);
	table_fit_columns(d, NULL, 12, NULL, &f); /* PID (7) fits, COMM (15) and DEVICE (8) not, CRTC (4) does */
	assert_int_equal(f.ncols, 2);
	assert_int_equal(f.cols[1], T_CRTC);
	assert_int_equal(f.spark_col, -1);
}

/* Sorted by a column that does not fit in order: it is taken first and the others fit around it. */
static void sorted_column_kept_where_narrow(void **state)
{
	const struct table_desc *d = &test_things;
	struct table_fit f;
	int used = 0;
	bool has_bytes = false;

	(void)state;
	table_fit_columns(d, NULL, 30, NULL, &f); /* PID COMM CRTC: BYTES has no room in order */
	for (unsigned int i = 0; i < f.ncols; i++)
		assert_int_not_equal(f.cols[i], T_BYTES);
	table_fit_sorted(d, NULL, 30, NULL, T_BYTES, &f);
	for (unsigned int i = 0; i < f.ncols; i++) {
		has_bytes |= f.cols[i] == T_BYTES;
		used += f.widths[i] + (i ? 1 : 0);
		if (i)
			assert_true(f.cols[i] > f.cols[i - 1]); /* still in descriptor order */
	}
	assert_true(has_bytes);
	assert_true(used <= 30);
	assert_int_equal(f.cols[0], T_PID);
	table_fit_sorted(d, NULL, 30, NULL, T_COMM, &f); /* one that fits in order: as before */
	assert_int_equal(f.ncols, 3);
	assert_int_equal(f.cols[1], T_COMM);
}

/* The sparkline draws a history some row knows: USED% where no region reports TOTAL (sysfs-only memory). */
static void spark_of_a_known_history(void **state)
{
	const struct table_desc *d = table_desc_find("memory.devices");
	int total = table_col(d, "total_bytes"), used = table_col(d, "used_pct");
	struct table *t;
	struct cell *row;
	struct table_fit f;

	(void)state;
	assert_true(total >= 0 && used >= 0);
	t = table_new(d);
	row = table_row_add(t);
	cell_set_f64(row, (unsigned int)used, 31.0);
	table_fit_columns(d, t, 200, NULL, &f);
	assert_int_equal(f.spark_col, used);
	cell_set_u64(row, (unsigned int)total, 1 << 20);
	table_fit_columns(d, t, 200, NULL, &f);
	assert_int_equal(f.spark_col, total); /* known: the table's own */
	table_free(t);
	/* a COL_SPARK history unknown now stays: its history says when it was known (python3's GPU%) */
	d = table_desc_find("gpu.processes");
	t = table_new(d);
	row = table_row_add(t);
	cell_set_u64(row, (unsigned int)table_col(d, "mem_bytes"), 1 << 20);
	table_fit_columns(d, t, 200, NULL, &f);
	assert_int_equal(f.spark_col, table_col(d, "gpu_pct"));
	table_free(t);
}

/* Wide columns give way to the sparkline; with room enough everything shows. */
static void wide_columns_last(void **state)
{
	const struct table_desc *d = table_desc_find("drm_sched.rings");
	int dev = table_col(d, "dev"), p99 = table_col(d, "exec_ns.p99"), spark;
	struct table_fit f;
	bool has_dev = false, has_p99 = false;

	(void)state;
	assert_non_null(d);
	spark = table_col(d, "busy_pct");
	table_fit_columns(d, NULL, 80, NULL, &f);
	for (unsigned int i = 0; i < f.ncols; i++)
		has_dev |= (int)f.cols[i] == dev;
	assert_false(has_dev);
	assert_int_equal(f.spark_col, spark); /* the one marked COL_SPARK, not the first history */
	assert_true(f.spark_w >= TABLE_FIT_SPARK_KEEP);
	table_fit_columns(d, NULL, 200, NULL, &f);
	for (unsigned int i = 0; i < f.ncols; i++) {
		has_dev |= (int)f.cols[i] == dev;
		has_p99 |= (int)f.cols[i] == p99;
	}
	assert_true(has_dev && has_p99);
	for (unsigned int i = 1; i < f.ncols; i++)
		assert_true(f.cols[i] > f.cols[i - 1]); /* descriptor order */
}

/* A limit shows only beside its value: at no width CAP W without POWER W. */
static void limit_only_beside_its_value(void **state)
{
	static const char *const names[] = { "nvidia.gpus", "sensors.gpus" };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		const struct table_desc *d = table_desc_find(names[k]);
		int power = table_col(d, "power_w"), cap = table_col(d, "power_cap_w");

		assert_non_null(d);
		assert_true(power >= 0 && cap == power + 1);
		for (int w = 20; w <= 260; w++) {
			struct table_fit f;
			bool has_power = false, has_cap = false;

			table_fit_columns(d, NULL, w, NULL, &f);
			for (unsigned int i = 0; i < f.ncols; i++) {
				has_power |= (int)f.cols[i] == power;
				has_cap |= (int)f.cols[i] == cap;
			}
			assert_false(has_cap && !has_power);
		}
	}
}

static void text_fits_with_an_ellipsis(void **state)
{
	char out[64];

	(void)state;
	setlocale(LC_CTYPE, "C.UTF-8");
	assert_int_equal(text_fit("short", 8, true, out, sizeof(out)), 5);
	assert_string_equal(out, "short");
	assert_int_equal(text_fit("exactly8", 8, true, out, sizeof(out)), 8);
	assert_string_equal(out, "exactly8");
	assert_int_equal(text_fit("much-too-long", 8, true, out, sizeof(out)), 8);
	assert_string_equal(out, "much-to\xe2\x80\xa6");
	text_fit("much-too-long", 8, false, out, sizeof(out));
	assert_string_equal(out, "much-to~");
	/* Wide characters take two cells; escapes are neutralised. */
	assert_int_equal(text_fit("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2", 5, true, out, sizeof(out)), 5);
	assert_string_equal(out, "\xe6\xbc\xa2\xe5\xad\x97\xe2\x80\xa6");
	text_fit("\x1b[31mred", 10, true, out, sizeof(out));
	assert_string_equal(out, "?[31mred");
	/* Word wrap breaks at spaces, never mid-word when a space fits. */
	assert_int_equal(wrap_line("the gpu_sched module is not loaded", 22), 20);
	assert_int_equal(wrap_line("short", 22), 5);
	assert_int_equal(wrap_line("unbreakableword", 5), 5);
	/* a word longer than the line: after its last joint that fits, or before a capital of a part */
	assert_int_equal(wrap_line("cuLaunchCooperativeKernel(fn,grid)", 30), 29); /* "...Kernel(fn," */
	assert_int_equal(wrap_line("cuLaunchCooperativeKernel", 24), 19); /* "cuLaunchCooperative" */
	assert_int_equal(wrap_line("nvidia0,nvidia1,nvidia2", 12), 8); /* "nvidia0," */
	assert_int_equal(wrap_line("moves into VRAM 1.0 MiB/s", 20),
			 15); /* "moves into VRAM": the number with its unit */
	assert_int_equal(wrap_line("busy 64 % now", 9), 4); /* "busy" */
}

/* Two names alike further than the width shows: each cut to show where it differs, from that word on. */
static void names_alike_are_cut_apart(void **state)
{
	const char *a = "void kernel<4, at::native::FillFunctor<float>, 1ul>(int)";
	const char *b = "void kernel<4, at::native::CUDAFunctorOnSelf_add<float>, 2ul>(int)";
	size_t from = 0;
	char out[128], other[128];

	(void)state;
	setlocale(LC_CTYPE, "C.UTF-8");
	while (a[from] == b[from])
		from++;
	assert_int_equal(text_fit_apart(a, from, 0, 24, true, out, sizeof(out)), 24);
	assert_string_equal(out, "void ker\xe2\x80\xa6" "FillFunctor<fl\xe2\x80\xa6");
	text_fit_apart(b, from, 0, 24, true, other, sizeof(other));
	assert_string_equal(other, "void ker\xe2\x80\xa6" "CUDAFunctorOnS\xe2\x80\xa6");
	/* the tail fits: no second ellipsis */
	assert_int_equal(text_fit_apart(a, strlen(a) - 8, 0, 24, false, out, sizeof(out)), 18);
	assert_string_equal(out, "void ker~1ul>(int)");
	/* a difference within what text_fit shows: text_fit's cut */
	text_fit_apart(a, 3, 0, 24, true, out, sizeof(out));
	text_fit(a, 24, true, other, sizeof(other));
	assert_string_equal(out, other);
}

/* Four names that differ at two places far apart (cuBLAS's kernels): each cut to show both. */
static void names_alike_twice_are_cut_apart(void **state)
{
	const char *names[] = {
		"sm80_xmma_gemm_f32f32_nn_n_tilesize64x64x8_stage3_warpsize2x2x1_execute_kernel_cublas",
		"sm80_xmma_gemm_f32f32_nn_n_tilesize64x64x8_stage3_warpsize2x2x1_execute_split_k_kernel",
		"sm80_xmma_gemm_f32f32_tn_n_tilesize64x64x8_stage3_warpsize2x2x1_execute_kernel_cublas",
		"sm80_xmma_gemm_f32f32_tn_n_tilesize64x64x8_stage3_warpsize2x2x1_execute_split_k_kernel"
	};
	size_t near = strlen("sm80_xmma_gemm_f32f32_"), far = strlen(names[0]) - strlen("kernel_cublas");
	char out[4][128];

	(void)state;
	setlocale(LC_CTYPE, "C.UTF-8");
	for (int i = 0; i < 4; i++) {
		assert_true(text_fit_apart(names[i], near, far, 32, false, out[i], sizeof(out[i])) <= 32);
		for (int k = 0; k < i; k++)
			assert_string_not_equal(out[i], out[k]);
	}
	assert_string_equal(out[0], "sm80_xmm~nn_n_tiles~kernel_cubl~");
}

/* A list cut at a comma with the count of the items left out, never mid-name; long hex ids cut as docker does. */
static void lists_are_cut_at_items(void **state)
{
	char out[256];

	(void)state;
	setlocale(LC_CTYPE, "C.UTF-8");
	assert_int_equal(text_fit_list("nvidia0,nvidia1", 13, true, out, sizeof(out)), 10);
	assert_string_equal(out, "nvidia0 +1");
	assert_int_equal(text_fit_list("nvidia0,nvidia1,nvidia2", 18, true, out, sizeof(out)), 18);
	assert_string_equal(out, "nvidia0,nvidia1 +1");
	/* fits whole: as it is */
	assert_int_equal(text_fit_list("card0,card1", 11, true, out, sizeof(out)), 11);
	assert_string_equal(out, "card0,card1");
	/* no item fits beside its count, or no list: text_fit's cut */
	text_fit_list("nvidia0,nvidia1", 8, true, out, sizeof(out));
	assert_string_equal(out, "nvidia0\xe2\x80\xa6");
	text_fit_list("a name, with spaces", 8, false, out, sizeof(out));
	assert_string_equal(out, "a name,~");
	/* ids of 32 hex or more, whole components, cut to 12 as docker shows them; shorter ones kept */
	text_short_ids("/process_api/4b8bac99558e25ac6038c499b576acff", out, sizeof(out));
	assert_string_equal(out, "/process_api/4b8bac99558e");
	text_short_ids(
		"/kubepods/pod1234/cri-containerd-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
		out, sizeof(out));
	assert_string_equal(out, "/kubepods/pod1234/cri-containerd-0123456789ab.scope");
	text_short_ids("/user.slice/deadbeef/x0123456789abcdef0123456789abcdef", out, sizeof(out));
	assert_string_equal(out, "/user.slice/deadbeef/x0123456789abcdef0123456789abcdef");
}

/* docs/json.md (read from the top of the tree, where make runs the tests) lists every table. */
static void every_table_is_documented(void **state)
{
	FILE *f = fopen("docs/json.md", "r");
	char *doc = calloc(1, 1 << 20), name[128];
	size_t n, len;
	const struct table_desc *const *reg = table_registry(&n);

	(void)state;
	if (!f)
		fail_msg("docs/json.md: cannot open it (run the tests from the top of the tree)");
	assert_non_null(doc);
	len = fread(doc, 1, (1 << 20) - 1, f);
	fclose(f);
	doc[len] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(reg[i]->name, "test.", 5))
			continue; /* this file's own */
		snprintf(name, sizeof(name), "| `%s` |", reg[i]->name);
		if (!strstr(doc, name))
			fail_msg("docs/json.md lists no table %s (a row '| `%s` | ... |')", reg[i]->name,
				 reg[i]->name);
	}
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_table_is_documented),
		cmocka_unit_test(every_table_round_trips),
		cmocka_unit_test(unknown_is_null_and_bad_cells_are_unknown),
		cmocka_unit_test(format1_interrupts_replay_as_a_table),
		cmocka_unit_test(hostile_recordings_are_bounded),
		cmocka_unit_test(reader_reads_values_exactly),
		cmocka_unit_test(large_snapshots_cost_in_proportion),
		cmocka_unit_test(doubles_written_as_printf_writes_them),
		cmocka_unit_test(cells_format_by_unit),
		cmocka_unit_test(numbers_formatted_as_printf_formats_them),
		cmocka_unit_test(rows_sort_filter_and_keys),
		cmocka_unit_test(ties_by_total_then_key),
		cmocka_unit_test(long_keys_stay_apart),
		cmocka_unit_test(ties_by_default_orders_total),
		cmocka_unit_test(histories_follow_rows),
		cmocka_unit_test(columns_fit_whole_and_spark_takes_the_rest),
		cmocka_unit_test(sorted_column_kept_where_narrow),
		cmocka_unit_test(spark_of_a_known_history),
		cmocka_unit_test(wide_columns_last),
		cmocka_unit_test(limit_only_beside_its_value),
		cmocka_unit_test(text_fits_with_an_ellipsis),
		cmocka_unit_test(names_alike_are_cut_apart),
		cmocka_unit_test(names_alike_twice_are_cut_apart),
		cmocka_unit_test(lists_are_cut_at_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
