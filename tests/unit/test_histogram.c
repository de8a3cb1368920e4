// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/cmocka_all.h"
#include <math.h>
#include <stdlib.h>
#include "model/histogram.h"
#include "model/history.h"

/* Every value lands in a slot whose bounds contain it, and slots grow with values. */
static void slot_bounds_contain_value(void **state)
{
	unsigned int prev = 0;

	(void)state;
	for (uint64_t v = 0; v < (1ULL << 41); v = v < 64 ? v + 1 : v + v / 7 + 1) {
		unsigned int s = hist_slot(v);

		assert_true(s < HIST_SLOTS);
		assert_true(s >= prev);
		prev = s;
		if (v < (1ULL << HIST_MAX_LOG2)) {
			assert_true(histogram_slot_low(s) <= v);
			assert_true(v < histogram_slot_high(s));
		} else {
			assert_int_equal(s, HIST_SLOTS - 1);
		}
	}
}

static void log2_matches_reference(void **state)
{
	(void)state;
	for (unsigned int b = 0; b < 64; b++) {
		assert_int_equal(hist_log2(1ULL << b), b);
		if (b > 1)
			assert_int_equal(hist_log2((1ULL << b) - 1), b - 1);
	}
}

/* Bucket width is at most 1/8 of the value: quantiles are within 12.5 %. */
static void quantiles_of_uniform_distribution(void **state)
{
	struct histogram h = { 0 };

	(void)state;
	for (uint64_t i = 0; i < 10000; i++)
		histogram_add(&h, 1000000 + i * 100); /* 1 ms .. 2 ms */
	assert_int_equal(histogram_count(&h), 10000);
	assert_true(fabs(histogram_quantile(&h, 0.5) - 1.5e6) < 1.5e6 * 0.125);
	assert_true(fabs(histogram_quantile(&h, 0.99) - 1.99e6) < 1.99e6 * 0.125);
	assert_true(histogram_quantile(&h, 0.0) >= 1e6 * 0.875);
}

static void quantiles_of_two_clusters(void **state)
{
	struct histogram h = { 0 };
	struct latency_summary sum;

	(void)state;
	for (int i = 0; i < 90; i++)
		histogram_add(&h, 2000000); /* 2 ms */
	for (int i = 0; i < 10; i++)
		histogram_add(&h, 50000000); /* 50 ms */
	histogram_summarize(&h, 90 * 2e6 + 10 * 50e6, 50e6, &sum);
	assert_int_equal(sum.count, 100);
	assert_true(fabs(sum.mean_ns - 6.8e6) < 1);
	assert_true(sum.p50_ns > 1.75e6 && sum.p50_ns < 2.25e6);
	assert_true(sum.p99_ns > 40e6 && sum.p99_ns <= 50e6);
	assert_true(sum.max_ns == 50e6);
}

/*
 * Random samples (seeded: the same every run): the interpolated quantiles are
 * ordered, never above the exact maximum, never above the sum of the values,
 * never below the smallest value's bucket, and one value is its own quantiles.
 */
static void quantiles_within_the_exact_extremes(void **state)
{
	unsigned int seed = 12345;

	(void)state;
	for (int run = 0; run < 20000; run++) {
		struct histogram h = { 0 };
		struct latency_summary sum;
		int n = 1 + (int)(rand_r(&seed) % (run % 3 ? 40 : 2));
		double total = 0, max = 0, min = 1e300;

		for (int i = 0; i < n; i++) {
			double v = floor(exp(log(1e3) + (log(2e9) - log(1e3)) * rand_r(&seed) / (double)RAND_MAX));

			histogram_add(&h, (uint64_t)v);
			total += v;
			max = fmax(max, v);
			min = fmin(min, v);
		}
		histogram_summarize(&h, total, max, &sum);
		assert_true(sum.p50_ns <= sum.p90_ns && sum.p90_ns <= sum.p99_ns);
		assert_true(sum.p99_ns <= max);
		assert_true(sum.p99_ns <= total);
		assert_true(sum.p50_ns >= (double)histogram_slot_low(hist_slot((uint64_t)min)));
		if (n == 1)
			assert_true(sum.p50_ns == max && sum.p99_ns == max);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted values: the smallest with at least q of them at or below it. */
static double true_quantile(const double *v, int n, double q)
{
	int k = (int)ceil(q * n);

	return v[k < 1 ? 0 : k - 1];
}

/*
 * Clamped by the exact mean and deviation, a quantile never moves away from the
 * true one; equal values give that value (a bucket's interpolation does not).
 */
static void quantiles_clamped_by_mean_and_deviation(void **state)
{
	static const double qs[3] = { 0.50, 0.90, 0.99 };
	unsigned int seed = 777;

	(void)state;
	for (int run = 0; run < 5000; run++) {
		struct histogram h = { 0 };
		struct latency_summary raw, s;
		double v[64], total = 0, sq = 0, max = 0, mean, sd;
		int n = 2 + (int)(rand_r(&seed) % 60), kinds = 1 + (int)(rand_r(&seed) % 4);

		for (int i = 0; i < n; i++) { /* a few distinct values, as frame intervals are */
			v[i] = 1e6 * (16 + (double)(rand_r(&seed) % kinds) * (run % 2 ? 0.1 : 3));
			histogram_add(&h, (uint64_t)v[i]);
			total += v[i];
			sq += v[i] * v[i];
			max = fmax(max, v[i]);
		}
		qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
		mean = total / n;
		sd = sqrt(fmax(0, sq / n - mean * mean));
		histogram_summarize(&h, total, max, &raw);
		s = raw;
		latency_clamp_sd(&s, sd, 1.0);
		const double was[3] = { raw.p50_ns, raw.p90_ns, raw.p99_ns }, now[3] = { s.p50_ns, s.p90_ns, s.p99_ns };

		for (int k = 0; k < 3; k++) {
			double t = true_quantile(v, n, qs[k]);
			double before = fabs(was[k] - t), after = fabs(now[k] - t);

			assert_true(after <= before + 1e-6);
			if (kinds == 1)
				assert_true(after <= 1.0 + 1e-6);
		}
	}
}

/*
 * No quantile is below max - (max - mean) / q, a bound the true quantile keeps
 * too; equal values (a display's frame intervals) give that value for each.
 */
static void quantiles_at_least_the_bound_of_max_and_mean(void **state)
{
	static const double qs[3] = { 0.50, 0.90, 0.99 };
	unsigned int seed = 4242;

	(void)state;
	for (int run = 0; run < 5000; run++) {
		struct histogram h = { 0 };
		struct latency_summary s;
		double v[64], total = 0, max = 0, mean;
		int n = 1 + (int)(rand_r(&seed) % 60), kinds = 1 + (int)(rand_r(&seed) % 3);

		for (int i = 0; i < n; i++) {
			v[i] = 16665600 + (double)(rand_r(&seed) % kinds) * (run % 2 ? 1000 : 3e6);
			histogram_add(&h, (uint64_t)v[i]);
			total += v[i];
			max = fmax(max, v[i]);
		}
		qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
		mean = total / n;
		histogram_summarize(&h, total, max, &s);
		const double got[3] = { s.p50_ns, s.p90_ns, s.p99_ns };

		for (int k = 0; k < 3; k++) {
			double bound = max - (max - mean) / qs[k];

			assert_true(true_quantile(v, n, qs[k]) >= bound - 1e-6);
			assert_true(got[k] >= bound - 1e-6);
			if (kinds == 1 || v[0] == max)
				assert_true(got[k] == max);
		}
	}
}

static void empty_histogram_summarizes_to_zero(void **state)
{
	struct histogram h = { 0 };
	struct latency_summary sum = { .count = 7, .p50_ns = 3 };

	(void)state;
	histogram_summarize(&h, 0, 0, &sum);
	assert_int_equal(sum.count, 0);
	assert_true(sum.p50_ns == 0 && sum.max_ns == 0);
	assert_true(histogram_quantile(&h, 0.5) == 0);
}

static void delta_is_per_slot(void **state)
{
	struct histogram a = { 0 }, b = { 0 }, d;

	(void)state;
	histogram_add(&a, 100);
	b = a;
	histogram_add(&b, 100);
	histogram_add(&b, 5000);
	histogram_delta(&d, &b, &a);
	assert_int_equal(histogram_count(&d), 2);
	assert_int_equal(d.slots[hist_slot(100)], 1);
	assert_int_equal(d.slots[hist_slot(5000)], 1);
}

static void history_keeps_last_values_in_order(void **state)
{
	struct history h = { 0 };
	double out[HISTORY_LEN];
	size_t n;

	(void)state;
	assert_true(history_last(&h) == 0);
	for (int i = 0; i < HISTORY_LEN + 5; i++)
		history_push(&h, i);
	n = history_read(&h, out, HISTORY_LEN);
	assert_int_equal(n, HISTORY_LEN);
	assert_true(out[0] == 5 && out[HISTORY_LEN - 1] == HISTORY_LEN + 4);
	assert_true(history_last(&h) == HISTORY_LEN + 4);
	n = history_read(&h, out, 3);
	assert_int_equal(n, 3);
	assert_true(out[0] == HISTORY_LEN + 2 && out[2] == HISTORY_LEN + 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slot_bounds_contain_value),
		cmocka_unit_test(log2_matches_reference),
		cmocka_unit_test(quantiles_of_uniform_distribution),
		cmocka_unit_test(quantiles_of_two_clusters),
		cmocka_unit_test(quantiles_within_the_exact_extremes),
		cmocka_unit_test(quantiles_clamped_by_mean_and_deviation),
		cmocka_unit_test(quantiles_at_least_the_bound_of_max_and_mean),
		cmocka_unit_test(empty_histogram_summarizes_to_zero),
		cmocka_unit_test(delta_is_per_slot),
		cmocka_unit_test(history_keeps_last_values_in_order),
	};
	return cmocka_run_group_tests_name("histogram", tests, NULL, NULL);
}
