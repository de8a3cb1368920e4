/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NVIDIA's management library, loaded at run time when libnvidia-ml.so.1 is
 * there (never a build dependency): per GPU its name, PCI address, memory used
 * and total, utilisation, temperature, power and its limit, clocks, fan, the
 * reasons its clocks are held down, PCIe and NVLink throughput, MIG mode, its
 * minor number (its device file /dev/nvidiaN); per process on a
 * GPU its memory and utilisation; per MIG device of a GPU in MIG mode its
 * instances, memory and SMs. Entry points a driver lacks leave their values unknown.
 */
#ifndef GPUTOP_NVML_H
#define GPUTOP_NVML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nvml;

/* A GPU's MIG mode now (not the one pending a reset); unknown where NVML cannot say. */
enum nvml_mig_mode { NVML_MIG_UNKNOWN, NVML_MIG_UNSUPPORTED, NVML_MIG_DISABLED, NVML_MIG_ENABLED };

struct nvml_gpu {
	char name[96];
	char bus_id[32]; /* "00000000:19:00.0" */
	bool mem_known, util_known, temp_known, power_known;
	uint64_t mem_used, mem_total; /* bytes */
	/* percent: the mean of the driver's samples since the last read, else over its last sample period */
	double util_gpu, util_mem;
	unsigned int temp_c;
	double power_w;
	bool cap_known, fan_known, throttle_known, pcie_known;
	double cap_w;
	unsigned int fan_pct; /* of the fan's maximum speed */
	bool clock_known[3];
	unsigned int clock_mhz[3]; /* enum nvml_clock */
	uint64_t throttle; /* nvmlClocksEventReason* bits */
	uint64_t pcie_tx, pcie_rx; /* bytes per second, over the driver's last 20 ms */
	enum nvml_mig_mode mig;
	bool minor_known, nvlink_known;
	unsigned int minor; /* the driver's minor number: its device file is /dev/nvidia<minor> */
	double nvlink_tx, nvlink_rx; /* bytes per second over all its links, since the last read */
};

enum nvml_clock { NVML_GFX, NVML_SM, NVML_MEM };

/* A process on a GPU: NVML's compute and graphics lists, its utilisation samples. */
struct nvml_proc {
	uint32_t pid;
	bool mem_known, util_known;
	uint64_t mem_bytes;
	/* percent: the mean of its samples of the driver's last second (see nvml_processes) */
	double sm_pct, mem_pct, enc_pct, dec_pct;
	unsigned int nsamples; /* those samples */
};

/* A MIG device (a compute instance of a GPU instance) of a GPU in MIG mode. */
struct nvml_mig {
	unsigned int index; /* NVML's index of it on its GPU */
	bool gi_known, ci_known, used_known, total_known, sm_known;
	unsigned int gpu_instance, compute_instance; /* their IDs */
	char uuid[96]; /* "MIG-..."; empty when unknown */
	uint64_t mem_used, mem_total; /* bytes: its GPU instance's memory */
	unsigned int sm_count; /* streaming multiprocessors */
};

/* "power cap, thermal (software)": the names of the bits set in throttle (mask), into out. */
void nvml_throttle_names(uint64_t throttle, char *out, size_t size);

/*
 * The library loaded, not started (no call to the driver yet); NULL with why
 * filled when it is missing or cannot be loaded by this build.
 */
struct nvml *nvml_open(char *why, size_t size);
/* nvmlInit and the GPU count: the driver's first calls (ioctls); false with why filled on failure. */
bool nvml_start(struct nvml *n, char *why, size_t size);
unsigned int nvml_count(const struct nvml *n);
/* Fills g for GPU i; false when the GPU cannot be read at all. */
bool nvml_read(struct nvml *n, unsigned int i, struct nvml_gpu *g);
/*
 * The processes on GPU i into out (at most max, by PID); how many, 0 when none
 * or unknown. Their utilisation: the mean of their samples in the second before
 * the GPU's newest sample (nvml_read first), else since the last read.
 */
size_t nvml_processes(struct nvml *n, unsigned int i, struct nvml_proc *out, size_t max);
/* The MIG devices of GPU i into out (at most max, by index); how many: 0 when MIG is off or unknown. */
size_t nvml_migs(struct nvml *n, unsigned int i, struct nvml_mig *out, size_t max);
/* "enabled", "disabled", "unsupported"; NULL when unknown. */
const char *nvml_mig_mode_name(enum nvml_mig_mode mode);
void nvml_close(struct nvml *n);

#endif
