// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Types and entry points as nvml.h declares them (facts of its ABI): every call
 * returns an nvmlReturn_t, 0 for success; devices are opaque handles.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/nvidia/nvml.h"

#define NVML_LIB "libnvidia-ml.so.1"
#define NVML_TEMPERATURE_GPU 0

typedef void *nvml_device;

struct nvml_memory {
	unsigned long long total, free, used;
};

struct nvml_utilization {
	unsigned int gpu, memory;
};

struct nvml_pci_info {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

struct nvml {
	void *lib;
	unsigned int count;
	int (*shutdown)(void);
	int (*by_index)(unsigned int, nvml_device *);
	int (*name)(nvml_device, char *, unsigned int);
	int (*pci)(nvml_device, struct nvml_pci_info *);
	int (*memory)(nvml_device, struct nvml_memory *);
	int (*utilization)(nvml_device, struct nvml_utilization *);
	int (*temperature)(nvml_device, int, unsigned int *);
	int (*power)(nvml_device, unsigned int *);
};

#ifdef GPUTOP_STATIC
struct nvml *nvml_open(char *why, size_t size)
{
	snprintf(why, size,
		 "this build is statically linked and cannot load " NVML_LIB
		 " (build with make or make PORTABLE=1)");
	return NULL;
}
#else
static void *sym(struct nvml *n, const char *name, bool *ok)
{
	void *f = dlsym(n->lib, name);

	*ok &= f != NULL;
	return f;
}

struct nvml *nvml_open(char *why, size_t size)
{
	struct nvml *n = calloc(1, sizeof(*n));
	int (*init)(void), (*count)(unsigned int *), err;
	bool ok = true;

	if (!n) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	n->lib = dlopen(NVML_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!n->lib) {
		snprintf(why, size, NVML_LIB " not found (no NVIDIA driver's user-space libraries)");
		free(n);
		return NULL;
	}
	init = sym(n, "nvmlInit_v2", &ok);
	count = sym(n, "nvmlDeviceGetCount_v2", &ok);
	n->shutdown = sym(n, "nvmlShutdown", &ok);
	n->by_index = sym(n, "nvmlDeviceGetHandleByIndex_v2", &ok);
	n->name = sym(n, "nvmlDeviceGetName", &ok);
	n->pci = sym(n, "nvmlDeviceGetPciInfo_v3", &ok);
	n->memory = sym(n, "nvmlDeviceGetMemoryInfo", &ok);
	n->utilization = sym(n, "nvmlDeviceGetUtilizationRates", &ok);
	n->temperature = sym(n, "nvmlDeviceGetTemperature", &ok);
	n->power = sym(n, "nvmlDeviceGetPowerUsage", &ok);
	if (!ok) {
		snprintf(why, size, NVML_LIB " lacks an entry point we use (older than driver 450?)");
		goto fail;
	}
	err = init();
	if (err) {
		snprintf(why, size, "nvmlInit failed with NVML error %d", err);
		goto fail;
	}
	if (count(&n->count)) {
		n->shutdown();
		snprintf(why, size, "nvmlDeviceGetCount failed");
		goto fail;
	}
	return n;
fail:
	dlclose(n->lib);
	free(n);
	return NULL;
}
#endif

unsigned int nvml_count(const struct nvml *n)
{
	return n ? n->count : 0;
}

bool nvml_read(struct nvml *n, unsigned int i, struct nvml_gpu *g)
{
	struct nvml_utilization u;
	struct nvml_memory mem;
	struct nvml_pci_info pci;
	unsigned int t, mw;
	nvml_device d;

	memset(g, 0, sizeof(*g));
	if (!n || n->by_index(i, &d))
		return false;
	if (n->name(d, g->name, sizeof(g->name)))
		snprintf(g->name, sizeof(g->name), "?");
	g->name[sizeof(g->name) - 1] = '\0';
	if (!n->pci(d, &pci)) {
		pci.bus_id[sizeof(pci.bus_id) - 1] = '\0';
		snprintf(g->bus_id, sizeof(g->bus_id), "%s", pci.bus_id);
	}
	if (!n->memory(d, &mem)) {
		g->mem_known = true;
		g->mem_used = mem.used;
		g->mem_total = mem.total;
	}
	if (!n->utilization(d, &u)) {
		g->util_known = true;
		g->util_gpu = u.gpu;
		g->util_mem = u.memory;
	}
	if (!n->temperature(d, NVML_TEMPERATURE_GPU, &t)) {
		g->temp_known = true;
		g->temp_c = t;
	}
	if (!n->power(d, &mw)) {
		g->power_known = true;
		g->power_w = mw / 1000.0;
	}
	return true;
}

void nvml_close(struct nvml *n)
{
	if (!n)
		return;
#ifndef GPUTOP_STATIC
	n->shutdown();
	dlclose(n->lib);
#endif
	free(n);
}
