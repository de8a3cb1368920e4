// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <bpf/bpf.h>
#include "collectors/gpu_time/gpu_time_tables.h"
#include "symbols/demangle.h"
#include "collectors/kit/cells.h"
#include "core/counter.h"

static const struct col_desc gpu_time_cols[GT_COLS] = {
	[GT_PID] = { "pid", "PID", "process ID", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[GT_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[GT_DEVICE] = { "cuda_device", "DEV", "CUDA device (CUPTI's device id)", COL_U64, UNIT_NONE, 3,
			COL_KEY | COL_ASCENDING },
	[GT_KIND] = { "kind", "KIND", "kernel, memcpy or memset", COL_STR, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[GT_NAME] = { "kernel", "KERNEL",
		      "the kernel's name as CUPTI gives it (mangled), up to 512 bytes, a longer one ending "
		      "\"...[cut]\"; [name N]: one the library has not sent since the monitor started; "
		      "empty for copies and sets",
		      COL_STR, UNIT_NONE, 20, COL_KEY | COL_ASCENDING | COL_LONG }, /* wider where room is left */
	[GT_COUNT] = { "count_total", "COUNT", "activities completed on the GPU since the monitor started", COL_U64,
		       UNIT_COUNT, 8, 0 },
	[GT_TOTAL] = { "gpu_ns_total", "GPU TIME", "their GPU time (end - start), summed", COL_U64, UNIT_NS, 9, 0 },
	[GT_MEAN] = { "mean_ns", "MEAN", "mean GPU time of one", COL_F64, UNIT_NS, 8, COL_WIDE },
	[GT_P50] = { "p50_ns", "p50",
		     "median GPU time of one since the monitor started (a log-linear histogram's, "
		     "within 12.5 %; never past MAX)",
		     COL_F64, UNIT_NS, 8, COL_WIDE },
	[GT_P99] = { "p99_ns", "p99", "99th percentile of their GPU times, as p50", COL_F64, UNIT_NS, 8, COL_WIDE },
	[GT_MAX] = { "max_ns", "MAX", "the longest one's GPU time", COL_U64, UNIT_NS, 8, COL_WIDE },
	[GT_QUEUE_MEAN] = { "queue_mean_ns", "QUEUE",
			    "mean time from launch to start: from queued (the launch put it in the stream) to its "
			    "start on the GPU (CUPTI's latency timestamps)",
			    COL_F64, UNIT_NS, 8, COL_IF_KNOWN | COL_WIDE },
	[GT_QUEUE_P50] = { "queue_p50_ns", "Q p50", "median time from launch to start, as p50", COL_F64, UNIT_NS, 8,
			   COL_IF_KNOWN | COL_WIDE },
	[GT_QUEUE_P99] = { "queue_p99_ns", "Q p99", "99th percentile of the times from launch to start, as p50",
			   COL_F64, UNIT_NS, 8, COL_IF_KNOWN | COL_WIDE },
	[GT_QUEUE_MAX] = { "queue_max_ns", "QMAX", "the longest time from queued to start", COL_U64, UNIT_NS, 8,
			   COL_IF_KNOWN | COL_WIDE },
	[GT_BYTES] = { "bytes_total", "BYTES", "bytes copied or set", COL_U64, UNIT_BYTES, 8, COL_WIDE },
};

const struct table_desc nvidia_gpu_time = {
	.name = "nvidia.gpu_time",
	.title = "GPU time (CUPTI, through libgputop-cupti.so)",
	.empty = "No GPU time: no process runs with the CUPTI library. Start one with "
		 "CUDA_INJECTION64_PATH=/usr/lib/gputop-bpf/libgputop-cupti.so (docs/gpu-time.md).",
	.cols = gpu_time_cols,
	.ncols = GT_COLS,
	.sort_col = GT_TOTAL,
	.collector = "gpu_time",
};
TABLE_REGISTER(nvidia_gpu_time);

static const struct col_desc gpu_busy_cols[GB_COLS] = {
	[GB_PID] = { "pid", "PID", "process ID", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[GB_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[GB_DEVICE] = { "cuda_device", "DEV", "CUDA device (CUPTI's device id)", COL_U64, UNIT_NONE, 3,
			COL_KEY | COL_ASCENDING },
	[GB_KERNEL_NS] = { "kernel_ns_total", "KERNELS",
			   "its kernels' GPU time (end - start), summed, since the monitor started", COL_U64, UNIT_NS,
			   9, 0 },
	[GB_COPY_NS] = { "copy_ns_total", "COPIES", "its copies' and sets' GPU time, summed", COL_U64, UNIT_NS, 9, 0 },
	[GB_BUSY_NS] = { "busy_ns_total", "BUSY",
			 "how long the device ran any of its kernels, copies or sets: the union of their intervals "
			 "(overlaps counted once)",
			 COL_U64, UNIT_NS, 9, 0 },
	[GB_BUSY_PCT] = { "busy_pct", "BUSY%",
			  "that in this interval (beside NVML's sampled SM %), as a share of the interval or, where "
			  "longer, of the GPU time its records spanned: CUPTI hands them over in buffers, so an "
			  "interval may bring more than its length of GPU time",
			  COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[GB_SHARE_PCT] = { "kernel_share_pct", "SHARE",
			   "its kernels' GPU time this interval, of all processes' on the device", COL_F64, UNIT_PCT, 6,
			   0 },
	[GB_DISORDERED] = { "disordered_total", "DISORD",
			    "activities CUPTI handed over before one that began earlier: where not 0, BUSY may count "
			    "an overlap twice",
			    COL_U64, UNIT_COUNT, 6, COL_WIDE },
};

const struct table_desc nvidia_gpu_busy = {
	.name = "nvidia.gpu_busy",
	.title = "GPU time per process (CUPTI, through libgputop-cupti.so)",
	.empty = "No GPU time: no process runs with the CUPTI library. Start one with "
		 "CUDA_INJECTION64_PATH=/usr/lib/gputop-bpf/libgputop-cupti.so (docs/gpu-time.md).",
	.cols = gpu_busy_cols,
	.ncols = GB_COLS,
	.sort_col = GB_KERNEL_NS,
	.collector = "gpu_time",
};
TABLE_REGISTER(nvidia_gpu_busy);

static const char *const kinds
	[] = { [GPUTOP_CUPTI_KERNEL] = "kernel", [GPUTOP_CUPTI_MEMCPY] = "memcpy", [GPUTOP_CUPTI_MEMSET] = "memset" };

void gpu_time_name(const struct cupti_kernel_key *k, const struct cupti_name_val *v, char *buf, size_t size)
{
	if (k->kind != GPUTOP_CUPTI_KERNEL)
		snprintf(buf, size, "%s", "");
	else if (!v)
		snprintf(buf, size, "[name %u]", k->name_id);
	else /* the process's bytes as they are, to a NUL: the screen and JSON make them text */
		snprintf(buf, size, "%.*s%s", (int)(v->len <= GPUTOP_CUPTI_NAME_MAX ? v->len : 0), v->name,
			 v->cut ? "...[cut]" : "");
}

void gpu_time_kernel_name(int names_fd, struct name_cache *names, const struct cupti_kernel_key *k, char *out,
			  size_t size)
{
	struct cupti_name_key nk = { .tgid = k->tgid, .id = k->name_id };
	bool named = k->kind == GPUTOP_CUPTI_KERNEL && k->name_id;
	const char *kept = named ? name_cache_get(names, k->tgid, k->name_id) : NULL;
	char raw[GPUTOP_CUPTI_NAME_MAX + 16];
	struct cupti_name_val v;

	if (kept) {
		snprintf(out, size, "%s", kept);
		return;
	}
	named = named && !bpf_map_lookup_elem(names_fd, &nk, &v);
	gpu_time_name(k, named ? &v : NULL, raw, sizeof(raw));
	demangle(raw, out, size); /* as it is where it is no C++ name */
	if (named) /* else asked again next time */
		name_cache_put(names, k->tgid, k->name_id, out);
}

void gpu_time_row(struct cell *row, const struct cupti_kernel_key *k, const struct cupti_kernel_val *v,
		  const struct cupti_hist_val *h, const char *comm, const char *name)
{
	static const __u64 none[HIST_SLOTS];

	cell_set_u64(row, GT_PID, k->tgid);
	cell_set_str(row, GT_COMM, comm);
	cell_set_u64(row, GT_DEVICE, k->device);
	cell_set_str(row, GT_KIND, k->kind < sizeof(kinds) / sizeof(kinds[0]) && kinds[k->kind] ? kinds[k->kind] : "?");
	cell_set_long_str(row, GT_NAME, name);
	cell_set_u64(row, GT_COUNT, v->count);
	cell_set_u64(row, GT_TOTAL, v->total_ns);
	if (v->count)
		cell_set_f64(row, GT_MEAN, (double)v->total_ns / (double)v->count);
	cell_set_u64(row, GT_MAX, v->max_ns);
	if (h) /* since the start: the histograms against none */
		cells_set_quantiles(row, GT_P50, GT_P99, h->gpu, none, v->total_ns, 0, (double)v->max_ns, NULL);
	if (v->queued_count) {
		cell_set_f64(row, GT_QUEUE_MEAN, (double)v->queue_total_ns / (double)v->queued_count);
		cell_set_u64(row, GT_QUEUE_MAX, v->queue_max_ns);
		if (h)
			cells_set_quantiles(row, GT_QUEUE_P50, GT_QUEUE_P99, h->queue, none, v->queue_total_ns, 0,
					    (double)v->queue_max_ns, NULL);
	}
	cell_set_u64(row, GT_BYTES, v->bytes);
}

/*
 * The union's growth over the interval or, where longer, over the span of GPU time the records it
 * brought covered (from the last end seen before to the last now; the growth itself where no end
 * was seen before): never over 100 %, though a buffer brings more than an interval's worth.
 */
static double busy_pct(const struct cupti_busy_val *now, const struct cupti_busy_val *before, double interval_s)
{
	uint64_t grew = counter_delta(cupti_busy_union_ns(now), cupti_busy_union_ns(before));
	double span = interval_s * 1e9;

	if (before->open_end && now->open_end > before->open_end && (double)(now->open_end - before->open_end) > span)
		span = (double)(now->open_end - before->open_end);
	if ((double)grew > span)
		span = (double)grew;
	return span > 0 ? 100.0 * (double)grew / span : 0;
}

void gpu_busy_row(struct cell *row, const struct cupti_busy_key *k, const struct cupti_busy_val *now,
		  const struct cupti_busy_val *before, const char *comm, uint64_t device_kernel_delta,
		  double interval_s)
{
	uint64_t kernel_delta = counter_delta(now->kernel_ns, before->kernel_ns);

	cell_set_u64(row, GB_PID, k->tgid);
	cell_set_str(row, GB_COMM, comm);
	cell_set_u64(row, GB_DEVICE, k->device);
	cell_set_u64(row, GB_KERNEL_NS, now->kernel_ns);
	cell_set_u64(row, GB_COPY_NS, now->copy_ns);
	cell_set_u64(row, GB_BUSY_NS, cupti_busy_union_ns(now));
	if (interval_s > 0)
		cell_set_f64(row, GB_BUSY_PCT, busy_pct(now, before, interval_s));
	if (device_kernel_delta)
		cell_set_f64(row, GB_SHARE_PCT, 100.0 * (double)kernel_delta / (double)device_kernel_delta);
	cell_set_u64(row, GB_DISORDERED, now->disordered);
}
