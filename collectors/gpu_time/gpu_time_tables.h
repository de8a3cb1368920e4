/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The GPU time collector's tables: nvidia.gpu_time, one row per process, CUDA device, activity kind
 * and kernel; nvidia.gpu_busy, one per process and device (no kernel name: metrics' labels).
 */
#ifndef GPUTOP_GPU_TIME_TABLES_H
#define GPUTOP_GPU_TIME_TABLES_H

#include "bpf/cupti.h"
#include "collectors/kit/name_cache.h"
#include "model/table.h"

enum gpu_time_col {
	GT_PID,
	GT_COMM,
	GT_DEVICE,
	GT_KIND,
	GT_COUNT,
	GT_TOTAL,
	GT_MEAN,
	GT_P50,
	GT_P99,
	GT_MAX,
	GT_QUEUE_MEAN,
	GT_QUEUE_P50,
	GT_QUEUE_P99,
	GT_QUEUE_MAX,
	GT_BYTES,
	GT_NAME, /* last: the numbers first where the width runs out, the name the rest of the line */
	GT_COLS
};

enum gpu_busy_col {
	GB_PID,
	GB_COMM,
	GB_DEVICE,
	GB_KERNEL_NS,
	GB_COPY_NS,
	GB_BUSY_NS,
	GB_BUSY_PCT,
	GB_SHARE_PCT,
	GB_DISORDERED,
	GB_COLS
};

extern const struct table_desc nvidia_gpu_time;
extern const struct table_desc nvidia_gpu_busy;

/*
 * The kernel's name of key k, from the name its process sent (v; NULL: none since the monitor started:
 * "[name N]"), a longer one cut marked "...[cut]"; "" for copies and sets. v's bytes are the process's.
 */
void gpu_time_name(const struct cupti_kernel_key *k, const struct cupti_name_val *v, char *buf, size_t size);
/*
 * A kernel's name in its process, demangled: from names (a cache) where kept, else from the names
 * map names_fd through gpu_time_name (kept then, when the map has it).
 */
void gpu_time_kernel_name(int names_fd, struct name_cache *names, const struct cupti_kernel_key *k, char *out,
			  size_t size);
/*
 * An nvidia.gpu_time row: the BPF program's counts of one key, its histograms (NULL: none kept, the
 * quantiles unknown), the kernel's name (or "").
 */
void gpu_time_row(struct cell *row, const struct cupti_kernel_key *k, const struct cupti_kernel_val *v,
		  const struct cupti_hist_val *h, const char *comm, const char *name);

/*
 * An nvidia.gpu_busy row: the counts of one key now and at the read before (zeros: new), all processes'
 * kernel time on the device this interval (counter_delta's, summed), the interval (s).
 */
void gpu_busy_row(struct cell *row, const struct cupti_busy_key *k, const struct cupti_busy_val *now,
		  const struct cupti_busy_val *before, const char *comm, uint64_t device_kernel_delta,
		  double interval_s);

#endif
