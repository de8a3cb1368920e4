/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which GPU a process's CUDA device ordinal is. The ordinal is the process's
 * own numbering (after CUDA_VISIBLE_DEVICES, in CUDA_DEVICE_ORDER): it names
 * NVML's GPU only where that is certain. The process asked for the device's
 * PCI bus id (cuDeviceGetPCIBusId, as NCCL does); or NVML sees one GPU only,
 * which every ordinal 0 is. Otherwise the GPU is unknown: the environment a
 * process started with is not enough (it may change its own before cuInit).
 */
#ifndef GPUTOP_CUDA_DEVICES_H
#define GPUTOP_CUDA_DEVICES_H

#include <stdint.h>

#define NV_GPUS_MAX 64 /* NVML GPUs a mapping looks at */

/* NVML's GPUs at this tick: their PCI bus ids by NVML index ("" unread). */
struct nv_gpu_list {
	unsigned int n;
	char bus[NV_GPUS_MAX][32];
};

/* Where a CUDA device of a process is. */
struct cuda_dev_where {
	int gpu; /* NVML's index; -1 unknown */
	char bus[32]; /* its PCI bus id; "" unknown */
	const char *how; /* how it is known; NULL when unknown */
};

/*
 * Device dev (NV_DEV_UNKNOWN: a call whose device was unknown) of a process
 * that asked for its bus id (asked, "" if it did not), among gpus.
 */
void cuda_dev_locate(const struct nv_gpu_list *gpus, uint32_t dev, const char *asked,
		     struct cuda_dev_where *w);

#endif
