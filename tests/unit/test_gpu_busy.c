// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nvidia.gpu_busy's BUSY%: the union's growth over the interval or, where
 * longer, over the GPU time its records spanned; never over 100 % when CUPTI
 * hands over more than an interval's worth at once.
 */
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include "collectors/gpu_time/gpu_time_tables.h"

#define MS 1000000ULL

/* BUSY% of one row: the union grew from before to now in interval_s. */
static double busy_pct_of(const struct cupti_busy_val *now, const struct cupti_busy_val *before, double interval_s)
{
	struct table *t = table_new(&nvidia_gpu_busy);
	struct cupti_busy_key k = { .tgid = 7, .device = 0 };
	double pct;

	assert_non_null(t);
	gpu_busy_row(table_row_add(t), &k, now, before, "train", 0, interval_s);
	pct = table_num(t, 0, "busy_pct");
	table_free(t);
	return pct;
}

static void busy_share_of_interval_or_records_span(void **state)
{
	/* 1.03 s of back-to-back kernels handed over in a 1 s interval: 100 %, not 103 % */
	struct cupti_busy_val before, now;

	(void)state;
	before = (struct cupti_busy_val){ .busy_ns = 0, .open_start = 1000 * MS, .open_end = 1500 * MS };
	now = (struct cupti_busy_val){ .busy_ns = 0, .open_start = 1000 * MS, .open_end = 2530 * MS };
	assert_true(fabs(busy_pct_of(&now, &before, 1.0) - 100.0) < 1e-9);
	/* half of those 1.03 s busy: 515 ms over the 1.03 s span, 50 % */
	now = (struct cupti_busy_val){ .busy_ns = 1000 * MS, .open_start = 2515 * MS, .open_end = 2530 * MS };
	before = (struct cupti_busy_val){ .busy_ns = 500 * MS, .open_start = 1500 * MS, .open_end = 1500 * MS };
	assert_true(fabs(busy_pct_of(&now, &before, 1.0) - 50.0) < 1e-9);
	/* a quiet program: 10 ms busy in a 1 s interval, 1 % (the short span does not count) */
	now = (struct cupti_busy_val){ .busy_ns = 0, .open_start = 1500 * MS, .open_end = 1510 * MS };
	before = (struct cupti_busy_val){ .busy_ns = 0, .open_start = 1500 * MS, .open_end = 1500 * MS };
	assert_true(fabs(busy_pct_of(&now, &before, 1.0) - 1.0) < 1e-9);
	/* its first records, 1.2 s of them in a 1 s interval, no end seen before: 100 % */
	now = (struct cupti_busy_val){ .busy_ns = 0, .open_start = 100 * MS, .open_end = 1300 * MS };
	before = (struct cupti_busy_val){ 0 };
	assert_true(fabs(busy_pct_of(&now, &before, 1.0) - 100.0) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(busy_share_of_interval_or_records_span),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
