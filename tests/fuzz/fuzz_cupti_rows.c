// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: what the GPU time collector reads of the CUPTI library's records, all of it a user's
 * process's making (the BPF maps' counts, histograms and busy intervals, the name bytes it sent), made
 * into nvidia.gpu_time and nvidia.gpu_busy rows and written as JSON. A quantile past the measured
 * maximum, a BUSY% past 100 or a non-finite number written is a finding.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/gpu_time/gpu_time_tables.h"
#include "output/json_tables.h"
#include "output/json_writer.h"

/* The next len bytes of the input into out, zeros past its end. */
static void take(const uint8_t **data, size_t *size, void *out, size_t len)
{
	size_t n = *size < len ? *size : len;

	memset(out, 0, len);
	memcpy(out, *data, n);
	*data += n;
	*size -= n;
}

/* The quantiles of row, where known, within the maximum the row says (where it says one). */
static void quantiles_in_max(const struct cell *row, unsigned int p50, unsigned int p99, unsigned int max)
{
	for (unsigned int c = p50; c <= p99; c++)
		if (row[c].known && (!isfinite(row[c].f) || row[c].f < 0 ||
				     (row[max].known && row[max].u > 0 && row[c].f > (double)row[max].u + 0.5)))
			abort();
}

static void json_of(struct table *a, struct table *b)
{
	struct table *tables[2] = { a, b };
	struct snapshot s = { .tables = tables, .ntables = 2 };
	struct jsonw w;

	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_key(&w, "tables", 6);
	tables_write_json(&w, &s);
	jsonw_object_end(&w);
	free(jsonw_finish(&w));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cupti_hist_val h; /* 4.75 KiB: off the stack */
	struct cupti_kernel_key k;
	struct cupti_kernel_val v;
	struct cupti_name_val n;
	struct cupti_busy_key bk;
	struct cupti_busy_val now, before;
	uint8_t flags = size ? data[0] : 0;
	uint64_t device_delta;
	double interval;
	char name[GPUTOP_CUPTI_NAME_MAX + 32];
	struct table *t = table_new(&nvidia_gpu_time), *b = table_new(&nvidia_gpu_busy);
	struct cell *row;

	if (size)
		data++, size--;
	take(&data, &size, &k, sizeof(k));
	take(&data, &size, &v, sizeof(v));
	take(&data, &size, &n, sizeof(n));
	take(&data, &size, &bk, sizeof(bk));
	take(&data, &size, &now, sizeof(now));
	take(&data, &size, &before, sizeof(before));
	take(&data, &size, &device_delta, sizeof(device_delta));
	take(&data, &size, &interval, sizeof(interval));
	take(&data, &size, &h, sizeof(h));
	gpu_time_name(&k, flags & 1 ? &n : NULL, name, sizeof(name));
	if (t && (row = table_row_add(t))) {
		gpu_time_row(row, &k, &v, flags & 2 ? &h : NULL, "fuzz", name);
		quantiles_in_max(row, GT_P50, GT_P99, GT_MAX);
		quantiles_in_max(row, GT_QUEUE_P50, GT_QUEUE_P99, GT_QUEUE_MAX);
	}
	if (b && (row = table_row_add(b))) {
		gpu_busy_row(row, &bk, &now, &before, "fuzz", device_delta, isfinite(interval) ? interval : 0);
		if (row[GB_BUSY_PCT].known && !(row[GB_BUSY_PCT].f >= 0 && row[GB_BUSY_PCT].f <= 100.0 + 1e-9))
			abort();
	}
	json_of(t, b);
	table_free(t);
	table_free(b);
	return 0;
}
