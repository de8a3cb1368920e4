// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --trace's counters from snapshots: the series name real columns; unknown is no sample. */
#include "tests/unit/cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include "output/trace_counters.h"

/* Every series names a registered table, its columns, and a number to sample. */
static void series_name_real_columns(void **state)
{
	size_t n;
	const struct trace_series *se = trace_series_list(&n);

	(void)state;
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		const struct table_desc *d = table_desc_find(se[i].table);
		int col;

		if (!d)
			fail_msg("series %zu: no table %s", i, se[i].table);
		col = table_col(d, se[i].col);
		if (col < 0 || table_col(d, se[i].group) < 0 ||
		    (se[i].part && table_col(d, se[i].part) < 0))
			fail_msg("series %zu: %s lacks a column it names", i, se[i].table);
		assert_true(d->cols[col].type == COL_U64 || d->cols[col].type == COL_F64);
	}
}

/* A snapshot of one ring: queue depth known, jobs in flight unknown, busy % known. */
static struct snapshot *ring_snapshot(uint64_t depth, double busy)
{
	const struct table_desc *d = table_desc_find("drm_sched.rings");
	struct snapshot *s = calloc(1, sizeof(*s));
	struct cell *row;

	assert_non_null(s);
	s->tables = calloc(1, sizeof(*s->tables));
	assert_non_null(s->tables);
	s->tables[0] = table_new(d);
	s->ntables = 1;
	row = table_row_add(s->tables[0]);
	assert_non_null(row);
	cell_set_str(row, (unsigned int)table_col(d, "dev"), "gpu0");
	cell_set_str(row, (unsigned int)table_col(d, "name"), "gfx");
	cell_set_u64(row, (unsigned int)table_col(d, "queue_depth"), depth);
	cell_set_f64(row, (unsigned int)table_col(d, "busy_pct"), busy);
	s->wall.tv_sec = 1;
	return s;
}

static void unknown_is_no_sample_and_tracks_described_once(void **state)
{
	struct trace_counters tc;
	struct snapshot *s1 = ring_snapshot(3, 12.5), *s2 = ring_snapshot(0, 0.0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(trace_counters_init(&tc, f, 1 << 20), 0);
	assert_int_equal(trace_counters_add(&tc, s1), 0);
	assert_int_equal(tc.samples, 2); /* in flight unknown: no sample */
	assert_int_equal(tc.w.packets, 1 + 2 + 2); /* the GPU's track, two counter tracks */
	assert_int_equal(trace_counters_add(&tc, s2), 0);
	assert_int_equal(tc.samples, 4); /* a zero is a sample */
	assert_int_equal(tc.w.packets, 5 + 2); /* no track described again */
	assert_int_equal(tc.w.dropped, 0);
	assert_int_equal(trace_counters_finish(&tc), 0);
	fclose(f);
	assert_non_null(memmem(buf, len, "GPU gpu0", 8));
	assert_non_null(memmem(buf, len, "gfx queue depth", 15));
	assert_non_null(memmem(buf, len, "gfx busy %", 10));
	assert_null(memmem(buf, len, "in flight", 9));
	free(buf);
	snapshot_free(s1);
	snapshot_free(s2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_name_real_columns),
		cmocka_unit_test(unknown_is_no_sample_and_tracks_described_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
