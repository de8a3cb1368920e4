/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The NVIDIA collector's tables: columns described once (model/table.h). */
#ifndef GPUTOP_NVIDIA_TABLES_H
#define GPUTOP_NVIDIA_TABLES_H

#include <stdint.h>
#include "bpf/nvidia.h"
#include "collectors/nvidia/cuda_devices.h"
#include "model/table.h"

enum nv_proc_col {
	NVP_PID, NVP_COMM, NVP_CGROUP, NVP_LAUNCH_PER_S, NVP_LAUNCHES, NVP_GRAPH_PER_S,
	NVP_GRAPH_LAUNCHES, NVP_MEM, NVP_ALLOCS, NVP_FREES, NVP_ALLOC_BYTES, NVP_FREED_BYTES,
	NVP_UNKNOWN_FREES, NVP_FAILED_ALLOCS, NVP_SYNC_PCT, NVP_SYNC_PER_S, NVP_SYNC_P50,
	NVP_SYNC_P99, NVP_SYNCS, NVP_SYNC_NS, NVP_IOCTL_PER_S, NVP_IOCTL_P50, NVP_IOCTL_P99,
	NVP_IOCTLS, NVP_UVM_IOCTLS, NVP_IOCTL_ERRORS, NVP_COLS,
};

enum nv_gpu_col {
	NVG_INDEX, NVG_NAME, NVG_BUS, NVG_MINOR, NVG_MEM_USED, NVG_MEM_TOTAL, NVG_MEM_PCT, NVG_UTIL,
	NVG_MEM_UTIL, NVG_TEMP, NVG_POWER, NVG_POWER_CAP, NVG_GFX_MHZ, NVG_SM_MHZ, NVG_MEM_MHZ,
	NVG_FAN, NVG_THROTTLE, NVG_PCIE_TX, NVG_PCIE_RX, NVG_NVLINK_TX, NVG_NVLINK_RX,
	NVG_MIG, NVG_COLS,
};

enum nv_mig_col {
	NVM_GPU, NVM_INDEX, NVM_GI, NVM_CI, NVM_SMS, NVM_MEM_USED, NVM_MEM_TOTAL, NVM_BUS, NVM_UUID,
	NVM_COLS,
};

enum nv_gpu_proc_col {
	NVQ_GPU, NVQ_PID, NVQ_COMM, NVQ_MEM, NVQ_SM, NVQ_MEM_UTIL, NVQ_ENC, NVQ_DEC, NVQ_COLS,
};

enum nv_xid_col {
	NVX_SEQ, NVX_TIME, NVX_DEV, NVX_CODE, NVX_MSG, NVX_USERS, NVX_PID, NVX_COMM, NVX_COLS,
};

enum nv_driver_col {
	NVD_FN, NVD_WHAT, NVD_VIA, NVD_CALLS, NVD_PER_S, NVD_COLS,
};

extern const struct table_desc nvidia_processes;
extern const struct table_desc nvidia_driver;
extern const struct table_desc nvidia_gpus;
extern const struct table_desc nvidia_mig;
extern const struct table_desc nvidia_gpu_processes;

enum nv_kernel_col { NVK_PID, NVK_COMM, NVK_KERNEL, NVK_HANDLES, NVK_PER_S, NVK_LAUNCHES, NVK_COLS };

extern const struct table_desc nvidia_kernels;
/* A row of nvidia.kernels: launches of one named kernel (handles merged), now and at the last read. */
void nvidia_kernel_row(struct cell *row, uint32_t pid, const char *comm, const char *kernel, uint64_t handles,
		       uint64_t now, uint64_t before, double interval_s);
extern const struct table_desc nvidia_xids;

enum nv_proc_gpu_col {
	NVPG_PID, NVPG_COMM, NVPG_DEV, NVPG_GPU, NVPG_BUS, NVPG_HOW, NVPG_LAUNCH_PER_S, NVPG_LAUNCHES,
	NVPG_GRAPH_LAUNCHES, NVPG_MEM, NVPG_ALLOCS, NVPG_FREES, NVPG_ALLOC_BYTES, NVPG_FREED_BYTES,
	NVPG_SYNC_PCT, NVPG_SYNCS, NVPG_SYNC_NS, NVPG_IOCTL_PER_S, NVPG_IOCTLS, NVPG_NVML_MEM, NVPG_COLS,
};

extern const struct table_desc nvidia_process_gpus;
/*
 * An nvidia.process_gpus row: process pid's calls to its CUDA device dev (w: which GPU that is). Its
 * ioctls and NVML memory there are joined from other tables by the model (model/process_gpu_join.h).
 */
void nvidia_proc_gpu_row(struct cell *row, uint32_t pid, const char *comm, uint32_t dev,
			 const struct cuda_dev_where *w, const struct nv_proc_gpu *now,
			 const struct nv_proc_gpu *before, double interval_s);

/* An nvidia.processes row from the BPF map's counters, now and at the last read. */
void nvidia_proc_row(struct cell *row, uint32_t pid, const char *comm, const char *cgroup,
		     const struct nv_proc *now, const struct nv_proc *before, double interval_s);
/* An nvidia.driver row: calls of one nvidia.ko function, now and at the last read. */
void nvidia_driver_row(struct cell *row, const char *fn, const char *what, const char *via,
		       uint64_t calls, uint64_t calls_before, double interval_s);

#endif
