// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A stand-in for NVIDIA's libnvidia-ml.so.1 in the tests (tests/bpf/nvml.sh): the
 * NVML entry points gputop-bpf loads, with nvml.h's signatures and return codes,
 * answering fixed values the test knows. Two GPUs: GPU 0 cannot do MIG; GPU 1
 * is in MIG mode with two MIG devices, at indices 0 and 3 of its 7 (the indices
 * between have none: NVML_ERROR_NOT_FOUND). What an SXM board or MIG mode lacks
 * (fan, utilisation, PCIe counters) is NVML_ERROR_NOT_SUPPORTED, as on the real thing.
 * GPU 0 is minor 1 (/dev/nvidia1), GPU 1 minor 0: not their indices. GPU 0 has no
 * NVLink (NOT_SUPPORTED); GPU 1 has 4 active links of 18, whose data counters
 * grow by 4 KiB sent and 2 KiB received per millisecond of their timestamps.
 * Every value here is one tests/bpf/nvml.sh checks: change both together.
 * Built with -DFAKE_NVML_NO_MIG: a driver older than 450, without the MIG entry
 * points (and nvmlDeviceGetAttributes_v2): MIG mode and MIG devices are unknown.
 * FAKE_NVML_READ_US: each utilisation read takes that many microseconds more (a
 * slow driver: tests/bpf/cuda.sh's --duration trace, whose tick ends that late).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define API __attribute__((visibility("default")))

/* nvmlReturn_t */
#define SUCCESS 0
#define ERR_UNINITIALIZED 1
#define ERR_INVALID_ARGUMENT 2
#define ERR_NOT_SUPPORTED 3
#define ERR_NOT_FOUND 6
#define ERR_INSUFFICIENT_SIZE 7
#define ERR_ARGUMENT_VERSION_MISMATCH 25

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)
#define NONE (~0U) /* a reading this device does not support */
#define MAX_MIG 7 /* MIG device indices on GPU 1, as an H100's */

struct fake_dev {
	const char *name, *bus_id, *uuid;
	unsigned int bus;
	unsigned long long total, reserved, used; /* bytes, as nvmlMemory_v2_t */
	unsigned int util_gpu, util_mem, temp_c, power_mw, cap_mw, fan_pct;
	unsigned int clock_mhz[3]; /* graphics, SM, memory */
	unsigned long long reasons; /* clock event reasons */
	unsigned int pcie_kbs[2]; /* TX, RX in KB/s */
	unsigned int mig; /* 0 disabled, 1 enabled, NONE: the GPU cannot */
	int parent; /* a MIG device: its GPU's index; -1 for a GPU */
	unsigned int gi, ci, sm_count;
	unsigned int proc_pid; /* one process with a context on it (0: none) */
	unsigned long long proc_mem;
	unsigned int proc_sm, proc_mem_util; /* its utilisation sample, or NONE */
	unsigned int minor; /* /dev/nvidia<minor> */
	unsigned int nvlinks; /* links 0 .. nvlinks - 1 active; NONE: no NVLink */
	unsigned int nvlink_kib_ms[2]; /* KiB sent, received per millisecond */
};

static const struct fake_dev devs[] = {
	{ .name = "NVIDIA Fake A10 (gputop-bpf test)", .bus_id = "00000000:17:00.0",
	  .uuid = "GPU-00000000-1111-2222-3333-444444444444", .bus = 0x17,
	  .total = 24 * GIB, .reserved = 384 * MIB, .used = 1 * GIB, .util_gpu = 35, .util_mem = 10,
	  .temp_c = 45, .power_mw = 123456, .cap_mw = 150000, .fan_pct = 30,
	  .clock_mhz = { 1695, 1694, 6251 }, .reasons = 0x4 | 0x20, .pcie_kbs = { 1000, 2000 },
	  .mig = NONE, .parent = -1, .proc_pid = 1, .proc_mem = 256 * MIB, .proc_sm = 25,
	  .proc_mem_util = 5, .minor = 1, .nvlinks = NONE },
	{ .name = "NVIDIA Fake H100 MIG (gputop-bpf test)", .bus_id = "00000000:3B:00.0",
	  .uuid = "GPU-55555555-6666-7777-8888-999999999999", .bus = 0x3b,
	  .total = 80 * GIB, .reserved = 512 * MIB, .used = 4 * GIB, .util_gpu = NONE,
	  .temp_c = 38, .power_mw = 98765, .cap_mw = 700000, .fan_pct = NONE,
	  .clock_mhz = { 1980, 1979, 2619 }, .reasons = 0x1, .pcie_kbs = { NONE, NONE }, .mig = 1,
	  .parent = -1, .proc_pid = 1, .proc_mem = 512 * MIB, .proc_sm = NONE, .minor = 0, .nvlinks = 4,
	  .nvlink_kib_ms = { 4, 2 } },
	/* GPU 1's MIG devices: index 0, then index 3 */
	{ .name = "NVIDIA Fake H100 MIG 1g.10gb",
	  .uuid = "MIG-0a1b2c3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d",
	  .total = 9728 * MIB, .reserved = 32 * MIB, .used = 1536 * MIB, .util_gpu = NONE,
	  .fan_pct = NONE, .mig = NONE, .parent = 1, .gi = 9, .ci = 0, .sm_count = 16 },
	{ .name = "NVIDIA Fake H100 MIG 2g.20gb",
	  .uuid = "MIG-5e6f7a8b-9c0d-5e1f-a2b3-c4d5e6f7a8b9",
	  .total = 19456 * MIB, .reserved = 32 * MIB, .used = 3 * GIB, .util_gpu = NONE,
	  .fan_pct = NONE, .mig = NONE, .parent = 1, .gi = 5, .ci = 1, .sm_count = 32 },
};
#define NGPUS 2

static int inits;

/* nvml.h's types, written for this file */
typedef const struct fake_dev *nvmlDevice_t;

struct memory {
	unsigned long long total, free, used;
};

struct memory_v2 {
	unsigned int version;
	unsigned long long total, reserved, free, used;
};

struct utilization {
	unsigned int gpu, memory;
};

struct pci_info {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

struct process_info { /* nvmlProcessInfo_v2_t */
	unsigned int pid;
	unsigned long long used_gpu_memory;
	unsigned int gpu_instance_id, compute_instance_id;
};

struct process_sample {
	unsigned int pid;
	unsigned long long time_stamp;
	unsigned int sm_util, mem_util, enc_util, dec_util;
};

struct sample { /* nvmlSample_t */
	unsigned long long time_stamp;
	union {
		double d;
		unsigned int ui;
		unsigned long long ull;
	} value;
};

#ifdef FAKE_NVML_NO_MIG
#define NO_SAMPLES 1
#else
#define NO_SAMPLES 0
#endif

struct attributes { /* nvmlDeviceAttributes_t */
	unsigned int multiprocessor_count, shared_copy_engines, shared_decoders, shared_encoders,
		shared_jpegs, shared_ofas, gpu_instance_slices, compute_instance_slices;
	unsigned long long memory_size_mib;
};

/* SUCCESS when d is one of ours (and NVML started), else why not. */
static int check(nvmlDevice_t d, const void *out)
{
	uintptr_t first = (uintptr_t)devs, p = (uintptr_t)d;

	if (!inits)
		return ERR_UNINITIALIZED;
	if (!out || p < first || p >= first + sizeof(devs) || (p - first) % sizeof(devs[0]))
		return ERR_INVALID_ARGUMENT;
	return SUCCESS;
}

/* SUCCESS and *out = v, or ERR_NOT_SUPPORTED when v is NONE. */
static int answer(nvmlDevice_t d, unsigned int *out, unsigned int v)
{
	int err = check(d, out);

	if (err)
		return err;
	if (v == NONE)
		return ERR_NOT_SUPPORTED;
	*out = v;
	return SUCCESS;
}

API int nvmlInit_v2(void)
{
	inits++;
	return SUCCESS;
}

API int nvmlShutdown(void)
{
	if (!inits)
		return ERR_UNINITIALIZED;
	inits--;
	return SUCCESS;
}

API int nvmlDeviceGetCount_v2(unsigned int *count)
{
	if (!inits)
		return ERR_UNINITIALIZED;
	if (!count)
		return ERR_INVALID_ARGUMENT;
	*count = NGPUS;
	return SUCCESS;
}

API int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
	if (!inits)
		return ERR_UNINITIALIZED;
	if (index >= NGPUS || !device)
		return ERR_INVALID_ARGUMENT;
	*device = &devs[index];
	return SUCCESS;
}

API int nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int length)
{
	int err = check(d, name);

	if (err)
		return err;
	if (strlen(d->name) >= length)
		return ERR_INSUFFICIENT_SIZE;
	snprintf(name, length, "%s", d->name);
	return SUCCESS;
}

API int nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int length)
{
	int err = check(d, uuid);

	if (err)
		return err;
	if (strlen(d->uuid) >= length)
		return ERR_INSUFFICIENT_SIZE;
	snprintf(uuid, length, "%s", d->uuid);
	return SUCCESS;
}

API int nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, struct pci_info *pci)
{
	int err = check(d, pci);

	if (err)
		return err;
	if (d->parent >= 0)
		return ERR_NOT_SUPPORTED; /* a MIG device: its GPU's */
	memset(pci, 0, sizeof(*pci));
	snprintf(pci->bus_id, sizeof(pci->bus_id), "%s", d->bus_id);
	snprintf(pci->bus_id_legacy, sizeof(pci->bus_id_legacy), "0000:%02x:00.0", d->bus);
	pci->bus = d->bus;
	pci->pci_device_id = 0x233010de;
	return SUCCESS;
}

/* The old call: used counts what the driver reserves. */
API int nvmlDeviceGetMemoryInfo(nvmlDevice_t d, struct memory *m)
{
	int err = check(d, m);

	if (err)
		return err;
	m->total = d->total;
	m->used = d->used + d->reserved;
	m->free = d->total - m->used;
	return SUCCESS;
}

API int nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, struct memory_v2 *m)
{
	int err = check(d, m);

	if (err)
		return err;
	if (m->version != (unsigned int)(sizeof(*m) | (2u << 24)))
		return ERR_ARGUMENT_VERSION_MISMATCH;
	m->total = d->total;
	m->reserved = d->reserved;
	m->used = d->used;
	m->free = d->total - d->reserved - d->used;
	return SUCCESS;
}

API int nvmlDeviceGetUtilizationRates(nvmlDevice_t d, struct utilization *u)
{
	const char *slow = getenv("FAKE_NVML_READ_US");
	int err = check(d, u);

	if (slow)
		usleep((useconds_t)strtoul(slow, NULL, 10));

	if (err)
		return err;
	if (d->util_gpu == NONE)
		return ERR_NOT_SUPPORTED; /* MIG mode */
	u->gpu = d->util_gpu * 6 / 5; /* a reading apart from the samples': a test tells which was read */
	u->memory = d->util_mem * 6 / 5;
	return SUCCESS;
}

API int nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *temp)
{
	return sensor ? ERR_INVALID_ARGUMENT : answer(d, temp, d->parent < 0 ? d->temp_c : NONE);
}

API int nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw)
{
	return answer(d, mw, d->parent < 0 ? d->power_mw : NONE);
}

API int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int *mw)
{
	return answer(d, mw, d->parent < 0 ? d->cap_mw : NONE);
}

API int nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
	if (type < 0 || type > 3)
		return ERR_INVALID_ARGUMENT;
	return answer(d, mhz, type < 3 && d->parent < 0 ? d->clock_mhz[type] : NONE);
}

API int nvmlDeviceGetFanSpeed(nvmlDevice_t d, unsigned int *pct)
{
	return answer(d, pct, d->fan_pct);
}

API int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *reasons)
{
	int err = check(d, reasons);

	if (err)
		return err;
	*reasons = d->reasons;
	return SUCCESS;
}

API int nvmlDeviceGetPcieThroughput(nvmlDevice_t d, int counter, unsigned int *kbs)
{
	if (counter < 0 || counter > 1)
		return ERR_INVALID_ARGUMENT;
	return answer(d, kbs, d->parent < 0 ? d->pcie_kbs[counter] : NONE);
}

/* Its one process (when it has one): nvmlProcessInfo_v2_t, the count asked for first. */
API int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
						  struct process_info *infos)
{
	int err = check(d, count);
	unsigned int n;

	if (err)
		return err;
	n = d->proc_pid ? 1 : 0;
	if (*count < n || (n && !infos)) {
		*count = n;
		return ERR_INSUFFICIENT_SIZE;
	}
	*count = n;
	if (n)
		infos[0] = (struct process_info){ d->proc_pid, d->proc_mem, d->mig == 1 ? 9 : ~0U,
						  d->mig == 1 ? 0 : ~0U };
	return SUCCESS;
}

API int nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
						   struct process_info *infos)
{
	int err = check(d, count);

	(void)infos;
	if (err)
		return err;
	*count = 0;
	return SUCCESS;
}

/*
 * Samples as the H100's driver keeps them (tests/gpu/evidence/h100-samples):
 * the GPU's every 200 ms, a process's once a second, stamped on those marks of
 * the real-time clock, the last HISTORY of them kept. Those after last_seen
 * go into out (oldest first, at most max; more: INSUFFICIENT_SIZE).
 */
#define GPU_PERIOD_US 200000ULL
#define PROC_PERIOD_US 1000000ULL
#define HISTORY 50

static int stamps_after(unsigned long long period_us, unsigned long long last_seen_us,
			unsigned long long *out, unsigned int max, unsigned int *count)
{
	struct timespec ts;
	unsigned long long now_us, newest;
	unsigned int n = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	now_us = (unsigned long long)ts.tv_sec * 1000000 + (unsigned long long)ts.tv_nsec / 1000;
	newest = now_us / period_us * period_us;
	for (int j = HISTORY - 1; j >= 0; j--) {
		unsigned long long t = newest - (unsigned long long)j * period_us;

		if (t <= last_seen_us)
			continue;
		if (out && n < max)
			out[n] = t;
		n++;
	}
	*count = n;
	return !out || n > max ? ERR_INSUFFICIENT_SIZE : SUCCESS;
}

/* Its process's samples: proc_sm and proc_mem_util, once a second. */
API int nvmlDeviceGetProcessUtilization(nvmlDevice_t d, struct process_sample *samples,
					unsigned int *count, unsigned long long last_seen_us)
{
	unsigned long long t[HISTORY];
	unsigned int max;
	int err = check(d, count);

	if (err)
		return err;
	if (!d->proc_pid || d->proc_sm == NONE)
		return ERR_NOT_SUPPORTED;
	max = *count < HISTORY ? *count : HISTORY;
	err = stamps_after(PROC_PERIOD_US, last_seen_us, samples ? t : NULL, max, count);
	for (unsigned int k = 0; !err && k < *count; k++)
		samples[k] = (struct process_sample){ d->proc_pid, t[k], d->proc_sm, d->proc_mem_util, 0, 0 };
	return err;
}

/*
 * nvmlDeviceGetSamples of GPU and memory utilisation, util_gpu and util_mem
 * every 200 ms. The old driver's build has none (NOT_SUPPORTED, as some boards
 * answer).
 */
API int nvmlDeviceGetSamples(nvmlDevice_t d, int type, unsigned long long last_seen_us, int *value_type,
			     unsigned int *count, struct sample *samples)
{
	unsigned long long t[HISTORY];
	unsigned int v, max;
	int err = check(d, count);

	if (err)
		return err;
	v = type == 1 ? d->util_gpu : type == 2 ? d->util_mem : NONE;
	if (v == NONE || NO_SAMPLES)
		return ERR_NOT_SUPPORTED;
	max = *count < HISTORY ? *count : HISTORY;
	err = stamps_after(GPU_PERIOD_US, last_seen_us, samples ? t : NULL, max, count);
	*value_type = 1; /* unsigned int */
	for (unsigned int k = 0; !err && k < *count; k++) {
		samples[k].time_stamp = t[k];
		samples[k].value.ui = v;
	}
	return err;
}

API int nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned int *minor)
{
	return answer(d, minor, d->parent < 0 ? d->minor : NONE);
}

#define NVLINK_MAX_LINKS 18

API int nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned int link, unsigned int *active)
{
	int err = check(d, active);

	if (err)
		return err;
	if (d->parent >= 0 || d->nvlinks == NONE)
		return ERR_NOT_SUPPORTED;
	if (link >= NVLINK_MAX_LINKS)
		return ERR_INVALID_ARGUMENT;
	*active = link < d->nvlinks; /* NVML_FEATURE_ENABLED: 1 */
	return SUCCESS;
}

struct field_value { /* nvmlFieldValue_t */
	unsigned int field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, ret;
	union {
		double d;
		unsigned long long ull;
	} value;
};

#define FI_NVLINK_DATA_TX 138
#define FI_NVLINK_DATA_RX 139

/* The NVLink data counters (all links, scope UINT_MAX), stamped on the millisecond; others NOT_SUPPORTED. */
API int nvmlDeviceGetFieldValues(nvmlDevice_t d, int count, struct field_value *values)
{
	struct timespec ts;
	long long ms;
	int err = check(d, values);

	if (err)
		return err;
	clock_gettime(CLOCK_REALTIME, &ts);
	ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	for (int k = 0; k < count; k++) {
		struct field_value *f = &values[k];
		unsigned int dir = f->field_id - FI_NVLINK_DATA_TX;

		f->timestamp = ms * 1000;
		f->latency_us = 0;
		f->ret = ERR_NOT_SUPPORTED;
		if (f->field_id != FI_NVLINK_DATA_TX && f->field_id != FI_NVLINK_DATA_RX)
			continue;
		if (d->parent >= 0 || d->nvlinks == NONE || f->scope_id != ~0U)
			continue;
		f->ret = SUCCESS;
		f->value_type = 3; /* unsigned long long */
		f->value.ull = (unsigned long long)ms * d->nvlink_kib_ms[dir];
	}
	return SUCCESS;
}

#ifndef FAKE_NVML_NO_MIG
static const int mig_at[MAX_MIG] = { 2, -1, -1, 3, -1, -1, -1 }; /* GPU 1's index -> devs[] */

API int nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *current, unsigned int *pending)
{
	int err = check(d, current);

	if (err || !pending)
		return err ? err : ERR_INVALID_ARGUMENT;
	if (d->mig == NONE)
		return ERR_NOT_SUPPORTED;
	*current = *pending = d->mig;
	return SUCCESS;
}

API int nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t d, unsigned int *count)
{
	return answer(d, count, d->mig == 1 ? MAX_MIG : d->mig == NONE ? NONE : 0);
}

API int nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t d, unsigned int index, nvmlDevice_t *mig)
{
	int err = check(d, mig);

	if (err)
		return err;
	if (d->mig != 1 || index >= MAX_MIG)
		return ERR_INVALID_ARGUMENT; /* not in MIG mode, or past its count */
	if (mig_at[index] < 0)
		return ERR_NOT_FOUND;
	*mig = &devs[mig_at[index]];
	return SUCCESS;
}

API int nvmlDeviceGetGpuInstanceId(nvmlDevice_t d, unsigned int *id)
{
	return answer(d, id, d->parent >= 0 ? d->gi : NONE);
}

API int nvmlDeviceGetComputeInstanceId(nvmlDevice_t d, unsigned int *id)
{
	return answer(d, id, d->parent >= 0 ? d->ci : NONE);
}

API int nvmlDeviceGetAttributes_v2(nvmlDevice_t d, struct attributes *a)
{
	int err = check(d, a);

	if (err)
		return err;
	if (d->parent < 0)
		return ERR_NOT_SUPPORTED; /* this stand-in knows MIG devices' only */
	memset(a, 0, sizeof(*a));
	a->multiprocessor_count = d->sm_count;
	a->memory_size_mib = d->total / MIB;
	return SUCCESS;
}
#endif /* FAKE_NVML_NO_MIG */
