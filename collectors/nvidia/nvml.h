/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NVIDIA's management library, loaded at run time when libnvidia-ml.so.1 is
 * there (never a build dependency): per GPU its name, PCI address, memory used
 * and total, utilisation, temperature and power, without any CUDA activity.
 */
#ifndef GPUTOP_NVML_H
#define GPUTOP_NVML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nvml;

struct nvml_gpu {
	char name[96];
	char bus_id[32]; /* "00000000:19:00.0" */
	bool mem_known, util_known, temp_known, power_known;
	uint64_t mem_used, mem_total; /* bytes */
	unsigned int util_gpu, util_mem; /* percent over the driver's last sample period */
	unsigned int temp_c;
	double power_w;
};

/* NULL with why filled when the library is missing, fails to start or cannot be loaded by this build. */
struct nvml *nvml_open(char *why, size_t size);
unsigned int nvml_count(const struct nvml *n);
/* Fills g for GPU i; false when the GPU cannot be read at all. */
bool nvml_read(struct nvml *n, unsigned int i, struct nvml_gpu *g);
void nvml_close(struct nvml *n);

#endif
