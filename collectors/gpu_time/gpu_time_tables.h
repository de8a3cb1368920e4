/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The GPU time collector's table: one row per process, CUDA device, activity kind and kernel. */
#ifndef GPUTOP_GPU_TIME_TABLES_H
#define GPUTOP_GPU_TIME_TABLES_H

#include "bpf/cupti.h"
#include "model/table.h"

enum gpu_time_col {
	GT_PID,
	GT_COMM,
	GT_DEVICE,
	GT_KIND,
	GT_NAME,
	GT_COUNT,
	GT_TOTAL,
	GT_MEAN,
	GT_MAX,
	GT_QUEUE_MEAN,
	GT_QUEUE_MAX,
	GT_BYTES,
	GT_COLS
};

extern const struct table_desc nvidia_gpu_time;

/* An nvidia.gpu_time row: the BPF program's counts of one key, the kernel's name (or ""). */
void gpu_time_row(struct cell *row, const struct cupti_kernel_key *k, const struct cupti_kernel_val *v,
		  const char *comm, const char *name);

#endif
