// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The NVIDIA pane: GPUs (NVML) above the CUDA processes, the Xid log, the driver functions probed. */
#include "panes.h"
#include "view.h"

static const struct pane_decl nvidia_pane = {
	.collector = "nvidia",
	.screen = SCREEN_NVIDIA,
	.tables = { "nvidia.gpus", "nvidia.processes", "nvidia.xids", "nvidia.driver" },
	.side = SIDE_NONE,
};
PANE_REGISTER(nvidia_pane);
