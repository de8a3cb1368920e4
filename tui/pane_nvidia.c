// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The NVIDIA pane: GPUs (NVML) and their MIG devices above the CUDA processes, the Xid log,
 * the driver functions probed.
 */
#include "tui/panes.h"

static const struct pane_decl nvidia_pane = {
	.collector = "nvidia",
	.screen = 30,
	.title = "NVIDIA",
	.what = "per process CUDA launches (and per GPU kernel), device memory, time blocked in synchronisation (libcuda uprobes) and ioctls on /dev/nvidia*; Xid errors; memory and utilisation per GPU, memory per MIG device (NVML)",
	.tables = { "nvidia.gpus", "nvidia.mig", "nvidia.gpu_processes", "nvidia.processes",
		    "nvidia.kernels", "nvidia.xids", "nvidia.driver" }, /* PANE_MAX_TABLES: full */
	.side = SIDE_NONE,
};
PANE_REGISTER(nvidia_pane);
