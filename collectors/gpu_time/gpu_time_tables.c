// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collectors/gpu_time/gpu_time_tables.h"

static const struct col_desc gpu_time_cols[GT_COLS] = {
	[GT_PID] = { "pid", "PID", "process ID", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[GT_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[GT_DEVICE] = { "cuda_device", "DEV", "CUDA device (CUPTI's device id)", COL_U64, UNIT_NONE, 3,
			COL_KEY | COL_ASCENDING },
	[GT_KIND] = { "kind", "KIND", "kernel, memcpy or memset", COL_STR, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[GT_NAME] = { "kernel", "KERNEL",
		      "the kernel's name as CUPTI gives it (mangled), up to 512 bytes, a longer one ending "
		      "\"...[cut]\"; [name N]: one the library has not sent since the monitor came; "
		      "empty for copies and sets",
		      COL_STR, UNIT_NONE, 40, COL_KEY | COL_ASCENDING | COL_LONG },
	[GT_COUNT] = { "count_total", "COUNT", "activities completed on the GPU since the monitor came", COL_U64,
		       UNIT_COUNT, 8, 0 },
	[GT_TOTAL] = { "gpu_ns_total", "GPU TIME", "their GPU time (end - start), summed", COL_U64, UNIT_NS, 9, 0 },
	[GT_MEAN] = { "mean_ns", "MEAN", "mean GPU time of one", COL_F64, UNIT_NS, 8, 0 },
	[GT_MAX] = { "max_ns", "MAX", "the longest one's GPU time", COL_U64, UNIT_NS, 8, 0 },
	[GT_QUEUE_MEAN] = { "queue_mean_ns", "QUEUE", "mean time from queued to start (CUPTI's latency timestamps)",
			    COL_F64, UNIT_NS, 8, COL_IF_KNOWN },
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
};
TABLE_REGISTER(nvidia_gpu_time);

static const char *const kinds
	[] = { [GPUTOP_CUPTI_KERNEL] = "kernel", [GPUTOP_CUPTI_MEMCPY] = "memcpy", [GPUTOP_CUPTI_MEMSET] = "memset" };

void gpu_time_row(struct cell *row, const struct cupti_kernel_key *k, const struct cupti_kernel_val *v,
		  const char *comm, const char *name)
{
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
	if (v->queued_count) {
		cell_set_f64(row, GT_QUEUE_MEAN, (double)v->queue_total_ns / (double)v->queued_count);
		cell_set_u64(row, GT_QUEUE_MAX, v->queue_max_ns);
	}
	cell_set_u64(row, GT_BYTES, v->bytes);
}
