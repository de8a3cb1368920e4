// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collectors/kfd/kfd_tables.h"

static const struct col_desc proc_cols[KP_COLS] = {
	[KP_PID] = { "pid", "PID", "a process with /dev/kfd open (ROCm, HIP, OpenCL on amdgpu)", COL_U64,
		     UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[KP_GPU_ID] = { "gpu_id", "GPU ID", "the KFD's id of the GPU (topology gpu_id)", COL_U64,
			UNIT_NONE, 6, COL_KEY | COL_ASCENDING | COL_WIDE },
	[KP_DEV] = { "dev", "DEVICE", "its PCI address (topology domain and location_id), as the DRM tables name it",
		     COL_STR, UNIT_NONE, 13, COL_ASCENDING },
	[KP_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[KP_VRAM] = { "vram_bytes", "VRAM", "VRAM it allocated through the KFD on this GPU (vram_<gpu_id>)",
		      COL_U64, UNIT_BYTES, 9, COL_HISTORY },
	[KP_SDMA] = { "sdma_pct", "SDMA%",
		      "its SDMA (copy) queues' busy time over the interval, summed: past 100 with several (sdma_<gpu_id>)",
		      COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[KP_EVICTED] = { "evicted_pct", "EVICT%",
			 "share of the interval its queues were evicted (stats_<gpu_id>/evicted_ms)", COL_F64,
			 UNIT_PCT, 6, 0 },
	[KP_CU] = { "cu_occupancy", "CUs", "compute units its waves occupy now (stats_<gpu_id>/cu_occupancy)",
		    COL_U64, UNIT_COUNT, 5, 0 },
	[KP_QUEUES] = { "queues", "QUEUES", "its user-mode queues on this GPU (queues/)", COL_U64, UNIT_COUNT,
			6, 0 },
};

const struct table_desc kfd_processes = {
	.name = "kfd.processes",
	.title = "AMD compute processes (KFD)",
	.empty = "No process has /dev/kfd open (ROCm and HIP programs do).",
	.cols = proc_cols,
	.ncols = KP_COLS,
	.sort_col = KP_VRAM,
};
TABLE_REGISTER(kfd_processes);
