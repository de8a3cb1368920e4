/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which GPU a process's CUDA device ordinal is. The ordinal is the process's
 * own numbering (after CUDA_VISIBLE_DEVICES, in CUDA_DEVICE_ORDER): it names
 * NVML's GPU only where that is certain, in this order:
 * - the process asked for the device's PCI bus id (cuDeviceGetPCIBusId, as
 *   NCCL does);
 * - it holds one GPU's device file open (/dev/nvidiaN; CUDA opens those of
 *   every device it can see): its ordinal 0 is that GPU, and so are its calls
 *   in contexts not seen (made current before the monitor started);
 * - it holds several: the devices its environment makes visible
 *   (CUDA_VISIBLE_DEVICES as integers, else all), in PCI bus order (CUDA's
 *   with CUDA_DEVICE_ORDER=PCI_BUS_ID, or with GPUs all of one model), must
 *   be exactly the files it holds: then ordinal i is the i-th of them (the
 *   environment it started with is checked against its files, since it may
 *   change its own before cuInit);
 * - NVML sees one GPU only, which every ordinal 0 is.
 * Otherwise the GPU is unknown.
 */
#ifndef GPUTOP_CUDA_DEVICES_H
#define GPUTOP_CUDA_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NV_GPUS_MAX 64 /* NVML GPUs a mapping looks at */

/* NVML's GPUs at this tick: their PCI bus ids by NVML index ("" unread). */
struct nv_gpu_list {
	unsigned int n;
	char bus[NV_GPUS_MAX][32];
	bool minor_known[NV_GPUS_MAX];
	unsigned int minor[NV_GPUS_MAX]; /* its device file is /dev/nvidia<minor> */
	bool one_model; /* every GPU has the same name: CUDA's default order is then PCI's */
};

/* What a process's procfs says of its GPUs (cuda_proc_read). */
struct cuda_proc_view {
	uint64_t held; /* bit N: it holds /dev/nvidiaN open (N < 64) */
	unsigned int nheld;
	bool env_known; /* its environment was read whole */
	bool visible_set; /* CUDA_VISIBLE_DEVICES is in it */
	bool visible_ints; /* ... and is a list of integers, in visible[nvisible] */
	unsigned int nvisible;
	unsigned int visible[NV_GPUS_MAX];
	bool pci_order; /* CUDA_DEVICE_ORDER=PCI_BUS_ID */
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
void cuda_dev_locate(const struct nv_gpu_list *gpus, uint32_t dev, const char *asked, const struct cuda_proc_view *view,
		     struct cuda_dev_where *w);
/* Its /dev/nvidiaN files and CUDA's variables in its environment into v (procfs as root). */
void cuda_proc_read(uint32_t pid, struct cuda_proc_view *v);
/* CUDA's variables in an environment (len bytes, NUL-separated, as /proc/PID/environ) into v. */
void cuda_environ_scan(const char *env, size_t len, struct cuda_proc_view *v);

#endif
