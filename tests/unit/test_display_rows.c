// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A CRTC's row from two reads of its counters: the refresh rate comes from
 * consecutive vblanks only, so an interval in which the vblank interrupt came
 * back on and the counter jumped (the kernel's estimate from the time) does not
 * bend it; jitter and the longest interval as the counters say.
 */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdlib.h>
#include <linux/types.h>
#include "bpf/display.h"
#include "collectors/display/display_tables.h"
#include "model/histogram.h"

#define PERIOD_NS 16665600ULL /* vkms' 1024x768 mode: 65 MHz over 1344 x 806, 60.004 Hz */

static double cell_f64(const struct cell *row, unsigned int col)
{
	assert_true(row[col].known);
	return row[col].f;
}

/* n intervals of one frame into a BPF-side histogram's slots */
static void add_intervals(__u64 *slots, unsigned int n)
{
	struct histogram h = { 0 };

	for (unsigned int i = 0; i < n; i++)
		histogram_add(&h, PERIOD_NS);
	for (unsigned int i = 0; i < HIST_SLOTS; i++)
		slots[i] = h.slots[i];
}

static void refresh_ignores_a_counter_jump(void **state)
{
	struct crtc_stats *before = calloc(1, sizeof(*before)), *now = calloc(1, sizeof(*now));
	struct table *t = table_new(&display_crtcs);
	struct cell *row;

	(void)state;
	assert_non_null(before);
	assert_non_null(now);
	assert_non_null(t);
	before->vblanks = 100, before->intervals = 99, before->interval_sum_ns = 99 * PERIOD_NS;
	/* 56 vblanks: 55 consecutive, and one after the interrupt came back with the counter 5 on */
	*now = *before;
	now->vblanks += 56, now->intervals += 55, now->interval_sum_ns += 55 * PERIOD_NS, now->gaps = 4;
	now->interval_max_ns = PERIOD_NS;
	now->interval_sq_us = 154 * (PERIOD_NS / 1000) * (PERIOD_NS / 1000);
	before->interval_sq_us = 99 * (PERIOD_NS / 1000) * (PERIOD_NS / 1000);
	add_intervals(before->interval_hist, 99);
	add_intervals(now->interval_hist, 154);
	row = table_row_add(t);
	assert_non_null(row);
	display_crtc_row(row, 0, 1, now, before, 1.0);
	assert_true(fabs(cell_f64(row, CRTC_HZ) - 1e9 / (double)PERIOD_NS) < 1e-9);
	assert_true(cell_f64(row, CRTC_JITTER) < 1.0);
	assert_true(cell_f64(row, CRTC_INT_MAX) == (double)PERIOD_NS);
	/* equal intervals: the quantiles are the interval (within the 1 us of the squares), not a bucket's guess */
	assert_true(fabs(cell_f64(row, CRTC_INT_P50) - (double)PERIOD_NS) <= 1000);
	assert_true(fabs(cell_f64(row, CRTC_INT_P99) - (double)PERIOD_NS) <= 1000);
	assert_true(row[CRTC_GAPS].known && row[CRTC_GAPS].u == 4);

	/* an interval with no consecutive vblanks at all: no rate, not a guess */
	*before = *now;
	now->vblanks += 1, now->gaps += 3;
	row = table_row_add(t);
	assert_non_null(row);
	display_crtc_row(row, 0, 1, now, before, 1.0);
	assert_false(row[CRTC_HZ].known);
	table_free(t);
	free(before);
	free(now);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(refresh_ignores_a_counter_jump) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
