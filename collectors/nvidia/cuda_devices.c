// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "collectors/nvidia/cuda_devices.h"
#include "core/pci.h"

static void place(const struct nv_gpu_list *gpus, int gpu, const char *how, struct cuda_dev_where *w)
{
	w->gpu = gpu;
	snprintf(w->bus, sizeof(w->bus), "%s", gpus->bus[gpu]);
	w->how = how;
}

/* NVML's GPU whose device file is /dev/nvidia<minor>; -1 if none. */
static int gpu_of_minor(const struct nv_gpu_list *gpus, unsigned int n, unsigned int minor)
{
	for (unsigned int i = 0; i < n; i++)
		if (gpus->minor_known[i] && gpus->minor[i] == minor)
			return (int)i;
	return -1;
}

/* NVML's GPUs in PCI bus order into order[n]. */
static void pci_order(const struct nv_gpu_list *gpus, unsigned int n, unsigned int *order)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int j = i;

		for (; j > 0 && strcasecmp(gpus->bus[order[j - 1]], gpus->bus[i]) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/* The GPU of ordinal dev from the devices the environment makes visible, checked against the files held. */
static int by_visible(const struct nv_gpu_list *gpus, unsigned int n, uint32_t dev, const struct cuda_proc_view *v)
{
	unsigned int order[NV_GPUS_MAX], visible[NV_GPUS_MAX], nvis = 0;
	uint64_t files = 0;

	if (!v->env_known || (v->visible_set && !v->visible_ints) || (!v->pci_order && !gpus->one_model))
		return -1;
	pci_order(gpus, n, order);
	for (unsigned int i = 0; i < (v->visible_set ? v->nvisible : n); i++) {
		unsigned int k = v->visible_set ? v->visible[i] : i;

		if (k >= n || !gpus->minor_known[order[k]] || gpus->minor[order[k]] >= 64 ||
		    files & (1ULL << gpus->minor[order[k]]))
			return -1; /* CUDA stops at such an entry: not followed here */
		files |= 1ULL << gpus->minor[order[k]];
		visible[nvis++] = order[k];
	}
	return files == v->held && dev < nvis ? (int)visible[dev] : -1;
}

void cuda_dev_locate(const struct nv_gpu_list *gpus, uint32_t dev, const char *asked, const struct cuda_proc_view *view,
		     struct cuda_dev_where *w)
{
	unsigned int n = gpus ? gpus->n : 0;
	int gpu;

	w->gpu = -1;
	w->bus[0] = '\0';
	w->how = NULL;
	if (n > NV_GPUS_MAX)
		n = NV_GPUS_MAX;
	/* one GPU file held: the one device it can see, that of every call, in a context seen or not */
	if (view && view->nheld == 1 && (dev == 0 || dev == NV_DEV_UNKNOWN) && (!asked || !asked[0]) &&
	    (gpu = gpu_of_minor(gpus, n, (unsigned int)__builtin_ctzll(view->held))) >= 0) {
		place(gpus, gpu, "held GPU file (one)", w);
		return;
	}
	if (dev == NV_DEV_UNKNOWN)
		return;
	if (asked && asked[0]) {
		w->how = "cuDeviceGetPCIBusId";
		snprintf(w->bus, sizeof(w->bus), "%s", asked);
		for (unsigned int i = 0; i < n; i++)
			if (pci_same(gpus->bus[i], asked)) {
				place(gpus, (int)i, w->how, w); /* as nvidia.gpus spells it */
				break;
			}
		return;
	}
	if (view && view->nheld > 1 && (gpu = by_visible(gpus, n, dev, view)) >= 0)
		place(gpus, gpu,
		      view->visible_set ? "CUDA_VISIBLE_DEVICES + held GPU files" : "held GPU files, PCI order", w);
	else if (n == 1 && dev == 0)
		place(gpus, 0, "only GPU", w);
}
