// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Types and entry points as nvml.h declares them (facts of its ABI): every call
 * returns an nvmlReturn_t, 0 for success; devices are opaque handles.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/nvidia/nvml.h"
#include "core/counter.h"

#define NVML_LIB "libnvidia-ml.so.1"
#define NVML_TEMPERATURE_GPU 0
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_DEVICE_MIG_DISABLE 0
#define NVML_DEVICE_MIG_ENABLE 1
#define NVML_VALUE_NOT_AVAILABLE (~0ULL)
#define NVML_PCIE_UTIL_TX_BYTES 0
#define NVML_PCIE_UTIL_RX_BYTES 1
#define NVML_GPU_UTILIZATION_SAMPLES 1 /* nvmlSamplingType_t */
#define NVML_MEMORY_UTILIZATION_SAMPLES 2
#define MAX_GPUS 64
#define MAX_SAMPLES 256
#define MAX_UTIL_SAMPLES 4096 /* a GPU's samples read at once: 13 minutes of the H100's, one each 200 ms */
#define WINDOW_US 1000000ULL /* the shortest window read: the driver samples a process once a second */
#define MAX_MIG_INDEX 64 /* MIG device indices tried per GPU at most (7 on an A100 or H100) */
#define NVML_NVLINK_MAX_LINKS 18 /* links per GPU (18 on an H100) */
#define NVML_FEATURE_ENABLED 1 /* nvmlEnableState_t: a link is active */
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX 138 /* KiB sent, all links at scope UINT_MAX */
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX 139
#define NVML_SCOPE_ALL_LINKS 0xffffffffu

typedef void *nvml_device;

struct nvml_memory {
	unsigned long long total, free, used;
};

/* nvmlMemory_v2_t: used leaves out what the driver reserves, as nvidia-smi shows it */
struct nvml_memory_v2 {
	unsigned int version;
	unsigned long long total, reserved, free, used;
};
#define NVML_MEMORY_V2 ((unsigned int)(sizeof(struct nvml_memory_v2) | (2u << 24)))

struct nvml_utilization {
	unsigned int gpu, memory;
};

struct nvml_pci_info {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

/* nvmlProcessInfo_t of the _v3 entry points (driver 510 and later) */
struct nvml_process_info {
	unsigned int pid;
	unsigned long long used_gpu_memory;
	unsigned int gpu_instance_id, compute_instance_id;
};

/* nvmlDeviceAttributes_t of nvmlDeviceGetAttributes_v2 */
struct nvml_attributes {
	unsigned int sm_count, shared_copy_engines, shared_decoders, shared_encoders, shared_jpegs,
		shared_ofas, gpu_instance_slices, compute_instance_slices;
	unsigned long long memory_mib;
};

struct nvml_process_sample {
	unsigned int pid;
	unsigned long long time_stamp; /* microseconds */
	unsigned int sm_util, mem_util, enc_util, dec_util;
};

/* nvmlValueType_t and nvmlValue_t of nvmlSample_t */
enum nvml_value_type {
	NVML_VALUE_DOUBLE, NVML_VALUE_UINT, NVML_VALUE_ULONG, NVML_VALUE_ULLONG, NVML_VALUE_SLLONG,
	NVML_VALUE_SINT,
};

struct nvml_sample {
	unsigned long long time_stamp; /* microseconds */
	union {
		double d;
		int si;
		unsigned int ui;
		unsigned long ul;
		unsigned long long ull;
		long long sll;
	} value;
};

/* nvmlFieldValue_t */
struct nvml_field_value {
	unsigned int field_id, scope_id;
	long long timestamp_us, latency_us;
	int value_type, ret;
	union {
		double d;
		unsigned int ui;
		unsigned long ul;
		unsigned long long ull;
		long long sll;
	} value;
};

/* A GPU's NVLink data counters at its last read. */
struct nvlink_read {
	bool known;
	unsigned long long kib[2]; /* sent, received */
	long long ts_us;
};

typedef int (*nvml_proc_list_fn)(nvml_device, unsigned int *, struct nvml_process_info *);

struct nvml {
	void *lib;
	unsigned int count;
	unsigned long long last_sample[MAX_GPUS]; /* per GPU: the newest process sample seen */
	unsigned long long last_util[MAX_GPUS][2]; /* per GPU: the newest GPU and memory sample seen */
	unsigned long long window[MAX_GPUS]; /* per GPU: its last read's window began after this (0: none) */
	struct nvlink_read nvlink[MAX_GPUS];
	struct nvml_process_sample samples[MAX_SAMPLES]; /* scratch */
	struct nvml_sample util_samples[MAX_UTIL_SAMPLES]; /* scratch */
	bool started; /* nvmlInit succeeded: nvmlShutdown at the end */
	int (*init)(void);
	int (*get_count)(unsigned int *);
	int (*shutdown)(void);
	int (*by_index)(unsigned int, nvml_device *);
	int (*name)(nvml_device, char *, unsigned int);
	int (*pci)(nvml_device, struct nvml_pci_info *);
	int (*memory)(nvml_device, struct nvml_memory *);
	int (*memory_v2)(nvml_device, struct nvml_memory_v2 *); /* driver 510 and later */
	int (*utilization)(nvml_device, struct nvml_utilization *);
	int (*temperature)(nvml_device, int, unsigned int *);
	int (*power)(nvml_device, unsigned int *);
	/* optional: NULL where the driver lacks them */
	int (*clock)(nvml_device, int, unsigned int *);
	int (*fan)(nvml_device, unsigned int *);
	int (*cap)(nvml_device, unsigned int *);
	int (*throttle)(nvml_device, unsigned long long *);
	int (*pcie)(nvml_device, int, unsigned int *);
	nvml_proc_list_fn compute_procs, graphics_procs;
	int (*proc_util)(nvml_device, struct nvml_process_sample *, unsigned int *, unsigned long long);
	int (*get_samples)(nvml_device, int type, unsigned long long last_seen, int *value_type,
			   unsigned int *count, struct nvml_sample *samples);
	int (*mig_mode)(nvml_device, unsigned int *current, unsigned int *pending);
	int (*mig_count)(nvml_device, unsigned int *); /* the most MIG devices it may have */
	int (*mig_by_index)(nvml_device, unsigned int, nvml_device *);
	int (*gpu_instance)(nvml_device, unsigned int *); /* of a MIG device */
	int (*compute_instance)(nvml_device, unsigned int *);
	int (*uuid)(nvml_device, char *, unsigned int);
	int (*attributes)(nvml_device, struct nvml_attributes *);
	int (*minor)(nvml_device, unsigned int *);
	int (*link_state)(nvml_device, unsigned int link, unsigned int *active);
	int (*field_values)(nvml_device, int count, struct nvml_field_value *);
};

#ifdef GPUTOP_STATIC
struct nvml *nvml_open(char *why, size_t size)
{
	snprintf(why, size,
		 "this build is statically linked and cannot load " NVML_LIB
		 " (build with make or make PORTABLE=1)");
	return NULL;
}

bool nvml_start(struct nvml *n, char *why, size_t size)
{
	(void)n;
	snprintf(why, size, "this build cannot load " NVML_LIB);
	return false;
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
	int (*init)(void), (*count)(unsigned int *);
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
	n->memory_v2 = dlsym(n->lib, "nvmlDeviceGetMemoryInfo_v2");
	n->clock = dlsym(n->lib, "nvmlDeviceGetClockInfo");
	n->fan = dlsym(n->lib, "nvmlDeviceGetFanSpeed");
	n->cap = dlsym(n->lib, "nvmlDeviceGetEnforcedPowerLimit");
	n->throttle = dlsym(n->lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!n->throttle) /* its name before driver 535 */
		n->throttle = dlsym(n->lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	n->pcie = dlsym(n->lib, "nvmlDeviceGetPcieThroughput");
	n->compute_procs = dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses_v3");
	n->graphics_procs = dlsym(n->lib, "nvmlDeviceGetGraphicsRunningProcesses_v3");
	n->proc_util = dlsym(n->lib, "nvmlDeviceGetProcessUtilization");
	n->get_samples = dlsym(n->lib, "nvmlDeviceGetSamples");
	/* the MIG entry points: driver 450 and later */
	n->mig_mode = dlsym(n->lib, "nvmlDeviceGetMigMode");
	n->mig_count = dlsym(n->lib, "nvmlDeviceGetMaxMigDeviceCount");
	n->mig_by_index = dlsym(n->lib, "nvmlDeviceGetMigDeviceHandleByIndex");
	n->gpu_instance = dlsym(n->lib, "nvmlDeviceGetGpuInstanceId");
	n->compute_instance = dlsym(n->lib, "nvmlDeviceGetComputeInstanceId");
	n->uuid = dlsym(n->lib, "nvmlDeviceGetUUID");
	n->attributes = dlsym(n->lib, "nvmlDeviceGetAttributes_v2");
	n->minor = dlsym(n->lib, "nvmlDeviceGetMinorNumber");
	n->link_state = dlsym(n->lib, "nvmlDeviceGetNvLinkState");
	n->field_values = dlsym(n->lib, "nvmlDeviceGetFieldValues");
	n->init = init;
	n->get_count = count;
	return n;
fail:
	dlclose(n->lib);
	free(n);
	return NULL;
}

bool nvml_start(struct nvml *n, char *why, size_t size)
{
	int err = n->init();

	if (err) {
		snprintf(why, size, "nvmlInit failed with NVML error %d", err);
		return false;
	}
	n->started = true;
	if (n->get_count(&n->count)) {
		snprintf(why, size, "nvmlDeviceGetCount failed");
		return false;
	}
	return true;
}
#endif

unsigned int nvml_count(const struct nvml *n)
{
	return n ? n->count : 0;
}

/* What only some drivers and boards have (an SXM board has no fan). */
static void read_optional(struct nvml *n, nvml_device d, struct nvml_gpu *g)
{
	static const int clock_type[] = { [NVML_GFX] = 0, [NVML_SM] = 1, [NVML_MEM] = 2 };
	unsigned long long reasons;
	unsigned int v, tx, rx, pending;
	int err;

	for (int k = 0; n->clock && k < 3; k++)
		if (!n->clock(d, clock_type[k], &v)) {
			g->clock_known[k] = true;
			g->clock_mhz[k] = v;
		}
	if (n->fan && !n->fan(d, &v) && v <= 100)
		g->fan_known = true, g->fan_pct = v;
	if (n->cap && !n->cap(d, &v))
		g->cap_known = true, g->cap_w = v / 1000.0;
	if (n->throttle && !n->throttle(d, &reasons))
		g->throttle_known = true, g->throttle = reasons;
	if (n->pcie && !n->pcie(d, NVML_PCIE_UTIL_TX_BYTES, &tx) && !n->pcie(d, NVML_PCIE_UTIL_RX_BYTES, &rx)) {
		g->pcie_known = true;
		g->pcie_tx = (uint64_t)tx * 1024; /* KB/s */
		g->pcie_rx = (uint64_t)rx * 1024;
	}
	err = n->mig_mode ? n->mig_mode(d, &v, &pending) : -1;
	if (err == NVML_ERROR_NOT_SUPPORTED)
		g->mig = NVML_MIG_UNSUPPORTED;
	else if (!err && (v == NVML_DEVICE_MIG_ENABLE || v == NVML_DEVICE_MIG_DISABLE))
		g->mig = v == NVML_DEVICE_MIG_ENABLE ? NVML_MIG_ENABLED : NVML_MIG_DISABLED;
}

const char *nvml_mig_mode_name(enum nvml_mig_mode mode)
{
	switch (mode) {
	case NVML_MIG_UNSUPPORTED:
		return "unsupported";
	case NVML_MIG_DISABLED:
		return "disabled";
	case NVML_MIG_ENABLED:
		return "enabled";
	default:
		return NULL;
	}
}

void nvml_throttle_names(uint64_t throttle, char *out, size_t size)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} reasons[] = {
		{ 0x1, "idle" },	    { 0x2, "application clocks" }, { 0x4, "power cap" },
		{ 0x8, "hardware slowdown" }, { 0x10, "sync boost" },	     { 0x20, "thermal (software)" },
		{ 0x40, "thermal (hardware)" }, { 0x80, "power brake" },   { 0x100, "display clocks" },
	};
	uint64_t known = 0;
	size_t used = 0;
	char other[32];

	out[0] = 0;
	for (size_t i = 0; i <= sizeof(reasons) / sizeof(reasons[0]); i++) {
		const char *name;
		size_t len;

		if (i < sizeof(reasons) / sizeof(reasons[0])) {
			known |= reasons[i].bit;
			if (!(throttle & reasons[i].bit))
				continue;
			name = reasons[i].name;
		} else {
			if (!(throttle & ~known))
				break;
			snprintf(other, sizeof(other), "other (0x%llx)",
				 (unsigned long long)(throttle & ~known));
			name = other;
		}
		len = strlen(name) + (used ? 2 : 0);
		if (used + len >= size)
			break; /* only whole names */
		snprintf(out + used, size - used, "%s%s", used ? ", " : "", name);
		used += len;
	}
	if (!throttle)
		snprintf(out, size, "none");
}

/* Memory used and total of a GPU or MIG device: _v2's used (less what the driver reserves) where there. */
static bool read_memory(struct nvml *n, nvml_device d, uint64_t *used, uint64_t *total)
{
	struct nvml_memory mem;
	struct nvml_memory_v2 mem2 = { .version = NVML_MEMORY_V2 };

	if (n->memory_v2 && !n->memory_v2(d, &mem2)) {
		*used = mem2.used;
		*total = mem2.total;
		return true;
	}
	if (n->memory(d, &mem))
		return false;
	*used = mem.used; /* counts what the driver reserves */
	*total = mem.total;
	return true;
}

static double sample_value(int type, const struct nvml_sample *s)
{
	switch (type) {
	case NVML_VALUE_DOUBLE: return s->value.d;
	case NVML_VALUE_UINT: return s->value.ui;
	case NVML_VALUE_ULONG: return (double)s->value.ul;
	case NVML_VALUE_ULLONG: return (double)s->value.ull;
	case NVML_VALUE_SLLONG: return (double)s->value.sll;
	case NVML_VALUE_SINT: return s->value.si;
	default: return NAN;
	}
}

/*
 * The window a read averages over: since the previous read's newest sample,
 * or the last WINDOW_US before this read's newest where that is longer (the
 * driver samples a process once a second: a shorter window may hold none).
 * The GPU's samples and its processes' are read over the same window.
 */
static unsigned long long window_start(unsigned long long before, unsigned long long newest)
{
	unsigned long long floor = newest > WINDOW_US ? newest - WINDOW_US : 0;

	return before && before < floor ? before : floor;
}

/*
 * The mean of GPU i's samples of kind (0: GPU, 1: memory utilisation) in the
 * read's window (window_start); NAN when there are none (or no such entry
 * point). The GPU's kind sets the window its processes are read over.
 */
static double util_mean(struct nvml *n, nvml_device d, unsigned int i, int kind)
{
	static const int type[2] = { NVML_GPU_UTILIZATION_SAMPLES, NVML_MEMORY_UTILIZATION_SAMPLES };
	unsigned long long *last = &n->last_util[i][kind], before = *last, from;
	unsigned int count = MAX_UTIL_SAMPLES, used = 0;
	double sum = 0;
	int value_type;

	/* from a window before the last read's newest: a short interval looks back that far */
	if (!n->get_samples ||
	    n->get_samples(d, type[kind], before > WINDOW_US ? before - WINDOW_US : 0, &value_type, &count,
			   n->util_samples) ||
	    !count || count > MAX_UTIL_SAMPLES)
		return NAN;
	for (unsigned int k = 0; k < count; k++)
		if (n->util_samples[k].time_stamp > *last)
			*last = n->util_samples[k].time_stamp;
	from = window_start(before, *last);
	if (kind == 0)
		n->window[i] = from;
	for (unsigned int k = 0; k < count; k++)
		if (n->util_samples[k].time_stamp > from) {
			sum += sample_value(value_type, &n->util_samples[k]);
			used++;
		}
	return !used || isnan(sum) || sum < 0 ? NAN : sum / used;
}

/* GPU and memory utilisation: over the window from the driver's samples, else its last period. */
static void read_utilization(struct nvml *n, nvml_device d, unsigned int i, struct nvml_gpu *g)
{
	struct nvml_utilization u;
	double gpu = util_mean(n, d, i, 0), mem = util_mean(n, d, i, 1);

	if (!isnan(gpu) && !isnan(mem)) {
		g->util_known = true;
		g->util_gpu = fmin(gpu, 100);
		g->util_mem = fmin(mem, 100);
	} else if (!n->utilization(d, &u)) {
		g->util_known = true;
		g->util_gpu = u.gpu;
		g->util_mem = u.memory;
	}
}

static bool has_nvlink(struct nvml *n, nvml_device d)
{
	unsigned int active;

	for (unsigned int l = 0; n->link_state && l < NVML_NVLINK_MAX_LINKS; l++)
		if (!n->link_state(d, l, &active) && active == NVML_FEATURE_ENABLED)
			return true;
	return false;
}

/*
 * NVLink data sent and received per second, all links, from NVML's counters of
 * KiB and their own timestamps since the last read: unknown at the first read,
 * and where the GPU has no active link (not 0) or NVML cannot say.
 */
static void read_nvlink(struct nvml *n, nvml_device d, unsigned int i, struct nvml_gpu *g)
{
	struct nvml_field_value f[2] = { { .field_id = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX,
					   .scope_id = NVML_SCOPE_ALL_LINKS },
					 { .field_id = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX,
					   .scope_id = NVML_SCOPE_ALL_LINKS } };
	struct nvlink_read *before = &n->nvlink[i], now = { .known = true };
	double s;

	if (!n->field_values || !has_nvlink(n, d) || n->field_values(d, 2, f) || f[0].ret || f[1].ret ||
	    f[0].value_type != NVML_VALUE_ULLONG || f[1].value_type != NVML_VALUE_ULLONG) {
		before->known = false;
		return;
	}
	now.kib[0] = f[0].value.ull;
	now.kib[1] = f[1].value.ull;
	now.ts_us = f[0].timestamp_us;
	s = (double)(now.ts_us - before->ts_us) / 1e6;
	if (before->known && s > 0) {
		g->nvlink_known = true;
		g->nvlink_tx = (double)counter_delta(now.kib[0], before->kib[0]) * 1024 / s;
		g->nvlink_rx = (double)counter_delta(now.kib[1], before->kib[1]) * 1024 / s;
	}
	*before = now;
}

bool nvml_read(struct nvml *n, unsigned int i, struct nvml_gpu *g)
{
	struct nvml_pci_info pci;
	unsigned int t, mw;
	nvml_device d;

	memset(g, 0, sizeof(*g));
	if (!n || i >= MAX_GPUS || n->by_index(i, &d))
		return false;
	if (n->name(d, g->name, sizeof(g->name)))
		snprintf(g->name, sizeof(g->name), "?");
	g->name[sizeof(g->name) - 1] = '\0';
	if (!n->pci(d, &pci)) {
		pci.bus_id[sizeof(pci.bus_id) - 1] = '\0';
		snprintf(g->bus_id, sizeof(g->bus_id), "%s", pci.bus_id);
	}
	g->mem_known = read_memory(n, d, &g->mem_used, &g->mem_total);
	read_utilization(n, d, i, g);
	if (!n->temperature(d, NVML_TEMPERATURE_GPU, &t)) {
		g->temp_known = true;
		g->temp_c = t;
	}
	if (!n->power(d, &mw)) {
		g->power_known = true;
		g->power_w = mw / 1000.0;
	}
	read_optional(n, d, g);
	if (n->minor && !n->minor(d, &g->minor))
		g->minor_known = true;
	read_nvlink(n, d, i, g);
	return true;
}

static struct nvml_proc *proc_slot(struct nvml_proc *out, size_t *n, size_t max, uint32_t pid)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i].pid == pid)
			return &out[i];
	if (*n >= max)
		return NULL;
	memset(&out[*n], 0, sizeof(out[0]));
	out[*n].pid = pid;
	return &out[(*n)++];
}

static void add_list(nvml_proc_list_fn list, nvml_device d, struct nvml_proc *out, size_t *n,
		     size_t max)
{
	struct nvml_process_info info[MAX_SAMPLES];
	unsigned int count = MAX_SAMPLES;

	if (!list || list(d, &count, info) || count > MAX_SAMPLES)
		return; /* more than MAX_SAMPLES processes: NVML_ERROR_INSUFFICIENT_SIZE, none */
	for (unsigned int k = 0; k < count; k++) {
		struct nvml_proc *p = proc_slot(out, n, max, info[k].pid);

		if (!p || info[k].used_gpu_memory == NVML_VALUE_NOT_AVAILABLE)
			continue;
		/* a process in both lists holds the same memory: count it once */
		if (!p->mem_known || info[k].used_gpu_memory > p->mem_bytes)
			p->mem_bytes = info[k].used_gpu_memory;
		p->mem_known = true;
	}
}

/* The processes' samples: over the GPU's window (util_mean), else since the last read. */
static unsigned long long proc_window(const struct nvml *n, unsigned int i)
{
	return n->window[i] ? n->window[i] : n->last_sample[i];
}

size_t nvml_processes(struct nvml *n, unsigned int i, struct nvml_proc *out, size_t max)
{
	struct nvml_process_sample *samples = n ? n->samples : NULL;
	unsigned int count = MAX_SAMPLES;
	size_t found = 0;
	nvml_device d;

	if (!n || i >= MAX_GPUS || n->by_index(i, &d))
		return 0;
	add_list(n->compute_procs, d, out, &found, max);
	add_list(n->graphics_procs, d, out, &found, max);
	if (!n->proc_util || n->proc_util(d, samples, &count, proc_window(n, i)) || count > MAX_SAMPLES)
		return found;
	for (unsigned int k = 0; k < count; k++) {
		struct nvml_proc *p = proc_slot(out, &found, max, samples[k].pid);

		if (samples[k].time_stamp > n->last_sample[i])
			n->last_sample[i] = samples[k].time_stamp;
		if (!p)
			continue;
		p->util_known = true;
		p->nsamples++;
		p->sm_pct += samples[k].sm_util;
		p->mem_pct += samples[k].mem_util;
		p->enc_pct += samples[k].enc_util;
		p->dec_pct += samples[k].dec_util;
	}
	for (size_t k = 0; k < found; k++)
		if (out[k].util_known) {
			out[k].sm_pct = fmin(out[k].sm_pct / out[k].nsamples, 100);
			out[k].mem_pct = fmin(out[k].mem_pct / out[k].nsamples, 100);
			out[k].enc_pct = fmin(out[k].enc_pct / out[k].nsamples, 100);
			out[k].dec_pct = fmin(out[k].dec_pct / out[k].nsamples, 100);
		}
	return found;
}

static void read_mig(struct nvml *n, nvml_device m, unsigned int index, struct nvml_mig *g)
{
	struct nvml_attributes a;
	unsigned int id;

	memset(g, 0, sizeof(*g));
	g->index = index;
	if (n->gpu_instance && !n->gpu_instance(m, &id))
		g->gi_known = true, g->gpu_instance = id;
	if (n->compute_instance && !n->compute_instance(m, &id))
		g->ci_known = true, g->compute_instance = id;
	if (!n->uuid || n->uuid(m, g->uuid, sizeof(g->uuid)))
		g->uuid[0] = '\0';
	g->uuid[sizeof(g->uuid) - 1] = '\0';
	g->used_known = g->total_known = read_memory(n, m, &g->mem_used, &g->mem_total);
	memset(&a, 0, sizeof(a));
	if (!n->attributes || n->attributes(m, &a))
		return;
	g->sm_known = true;
	g->sm_count = a.sm_count;
	if (!g->total_known && a.memory_mib) { /* its size alone: used stays unknown */
		g->total_known = true;
		g->mem_total = (uint64_t)a.memory_mib << 20;
	}
}

size_t nvml_migs(struct nvml *n, unsigned int i, struct nvml_mig *out, size_t max)
{
	unsigned int current, pending, count;
	size_t found = 0;
	nvml_device d, m;

	if (!n || !n->mig_mode || !n->mig_count || !n->mig_by_index || n->by_index(i, &d))
		return 0;
	if (n->mig_mode(d, &current, &pending) || current != NVML_DEVICE_MIG_ENABLE ||
	    n->mig_count(d, &count))
		return 0;
	for (unsigned int k = 0; k < count && k < MAX_MIG_INDEX && found < max; k++)
		if (!n->mig_by_index(d, k, &m)) /* else NVML_ERROR_NOT_FOUND: none at this index */
			read_mig(n, m, k, &out[found++]);
	return found;
}

void nvml_close(struct nvml *n)
{
	if (!n)
		return;
#ifndef GPUTOP_STATIC
	if (n->started)
		n->shutdown();
	dlclose(n->lib);
#endif
	free(n);
}
