// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GPU time pane: each process's busy time per CUDA device, then its kernels', copies' and
 * sets' GPU time, from the CUPTI records of the programs that load libgputop-cupti.so.
 */
#include "tui/panes.h"

static const struct pane_decl gpu_time_pane = {
	.collector = "gpu_time",
	.screen = 70,
	.title = "GPU time",
	.what = "GPU time per process and device, and per kernel, copy and set, from CUPTI's records of the "
		"programs started with CUDA_INJECTION64_PATH naming libgputop-cupti.so",
	.tables = { "nvidia.gpu_busy", "nvidia.gpu_time" },
	.side = SIDE_NONE,
};
PANE_REGISTER(gpu_time_pane);
