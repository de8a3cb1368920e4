// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "collectors/nvidia/cuda_devices.h"
#include "core/pci.h"

void cuda_dev_locate(const struct nv_gpu_list *gpus, uint32_t dev, const char *asked,
		     struct cuda_dev_where *w)
{
	unsigned int n = gpus ? gpus->n : 0;

	w->gpu = -1;
	w->bus[0] = '\0';
	w->how = NULL;
	if (dev == NV_DEV_UNKNOWN)
		return;
	if (n > NV_GPUS_MAX)
		n = NV_GPUS_MAX;
	if (asked && asked[0]) {
		w->how = "cuDeviceGetPCIBusId";
		snprintf(w->bus, sizeof(w->bus), "%s", asked);
		for (unsigned int i = 0; i < n; i++)
			if (pci_same(gpus->bus[i], asked)) {
				w->gpu = (int)i;
				snprintf(w->bus, sizeof(w->bus), "%s", gpus->bus[i]); /* as nvidia.gpus spells it */
				break;
			}
		return;
	}
	if (n == 1 && dev == 0) {
		w->gpu = 0;
		snprintf(w->bus, sizeof(w->bus), "%s", gpus->bus[0]);
		w->how = "the only GPU";
	}
}
