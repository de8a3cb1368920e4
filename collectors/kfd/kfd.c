// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KFD collector: AMD compute processes (ROCm, HIP, OpenCL) never go through the
 * DRM scheduler or DRM fdinfo: they use /dev/kfd and user-mode queues. The KFD
 * exports them in sysfs (kfd_process.c), readable by anyone: per process and GPU
 * the VRAM it allocated, its SDMA time, the time its queues were evicted, the CUs
 * its waves occupy, its queues; the topology maps a gpu_id to its PCI address.
 * No BPF; read each tick; the paths follow --sysfs.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/array.h"
#include "core/counter.h"
#include "core/sysroot.h"
#include "collectors/collector.h"
#include "collectors/kfd/kfd_tables.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/sysfs_read.h"

#define MAX_GPUS 64
#define KFD "class/kfd/kfd"

struct kfd_gpu {
	unsigned int id;
	char bus_id[16]; /* "0000:03:00.0"; "" when the properties do not say */
};

/* A process's counters on one GPU at the last read. */
struct kfd_last {
	unsigned int pid, gpu_id;
	bool has_sdma, has_evicted, seen;
	uint64_t sdma_us, evicted_ms;
};

struct kfd_priv {
	struct kfd_gpu gpus[MAX_GPUS];
	size_t ngpus;
	struct kfd_last *last;
	size_t nlast, last_cap;
	struct proc_cache pcache;
	double iv;
};

/* "domain 0" and "location_id 768" of a node's properties: its PCI address. */
static void node_bus_id(const char *node, char *out, size_t size)
{
	char path[PATH_MAX], line[128];
	unsigned long long domain = ~0ULL, location = ~0ULL, v;
	FILE *f;

	out[0] = 0;
	if (snprintf(path, sizeof(path), "%s/properties", node) >= (int)sizeof(path) ||
	    !(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char key[64];

		if (sscanf(line, "%63s %llu", key, &v) != 2)
			continue;
		if (!strcmp(key, "domain"))
			domain = v;
		else if (!strcmp(key, "location_id"))
			location = v;
	}
	fclose(f);
	if (domain <= 0xffff && location <= 0xffff) /* (bus << 8) | devfn */
		snprintf(out, size, "%04llx:%02llx:%02llx.%llx", domain, location >> 8, (location >> 3) & 0x1f,
			 location & 7);
}

/* The GPU nodes of the topology (gpu_id 0: a CPU node). */
static void read_topology(struct kfd_priv *p)
{
	char dir[PATH_MAX], node[PATH_MAX + 300];
	struct dirent *de;
	uint64_t id;
	DIR *d;

	p->ngpus = 0;
	if (!sys_path(dir, sizeof(dir), KFD "/topology/nodes") || !(d = opendir(dir)))
		return;
	while (p->ngpus < MAX_GPUS && (de = readdir(d))) {
		struct kfd_gpu *g = &p->gpus[p->ngpus];

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(node, sizeof(node), "%s/%.255s", dir, de->d_name);
		if (!sysfs_read_u64_at(&id, node, "gpu_id") || !id || id > UINT32_MAX)
			continue;
		g->id = (unsigned int)id;
		node_bus_id(node, g->bus_id, sizeof(g->bus_id));
		p->ngpus++;
	}
	closedir(d);
}

static struct kfd_last *last_for(struct kfd_priv *p, unsigned int pid, unsigned int gpu_id)
{
	struct kfd_last *l;

	for (size_t i = 0; i < p->nlast; i++)
		if (p->last[i].pid == pid && p->last[i].gpu_id == gpu_id)
			return &p->last[i];
	l = array_push(&p->last, &p->nlast, &p->last_cap, sizeof(*l));
	if (l)
		l->pid = pid, l->gpu_id = gpu_id;
	return l;
}

/* Its queues on GPU gpu_id: the queues/<qid>/gpuid files that name it. */
static uint64_t count_queues(const char *proc, unsigned int gpu_id)
{
	char dir[PATH_MAX];
	struct dirent *de;
	uint64_t n = 0, id;
	DIR *d;

	if (snprintf(dir, sizeof(dir), "%s/queues", proc) >= (int)sizeof(dir) || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && sysfs_read_u64_at(&id, dir, "%s/gpuid", de->d_name) && id == gpu_id)
			n++;
	closedir(d);
	return n;
}

/* One process on one GPU, when it has memory there (vram_<id> exists). */
static void proc_gpu_row(struct kfd_priv *p, struct table *t, unsigned int pid, const char *proc,
			 const struct kfd_gpu *g)
{
	uint64_t vram, sdma, evicted, cu;
	const struct proc_entry *pe;
	struct kfd_last *l;
	struct cell *row;
	bool has_sdma, has_evicted;

	if (!sysfs_read_u64_at(&vram, proc, "vram_%u", g->id) || !(row = table_row_add(t)))
		return;
	cell_set_u64(row, KP_PID, pid);
	cell_set_u64(row, KP_GPU_ID, g->id);
	if (g->bus_id[0])
		cell_set_str(row, KP_DEV, g->bus_id);
	pe = proc_cache_get(&p->pcache, pid);
	if (pe && pe->comm[0])
		cell_set_str(row, KP_COMM, pe->comm);
	cell_set_u64(row, KP_VRAM, vram);
	if (sysfs_read_u64_at(&cu, proc, "stats_%u/cu_occupancy", g->id))
		cell_set_u64(row, KP_CU, cu);
	cell_set_u64(row, KP_QUEUES, count_queues(proc, g->id));
	has_sdma = sysfs_read_u64_at(&sdma, proc, "sdma_%u", g->id);
	has_evicted = sysfs_read_u64_at(&evicted, proc, "stats_%u/evicted_ms", g->id);
	if (!(l = last_for(p, pid, g->id)))
		return;
	if (has_sdma && l->has_sdma) /* microseconds */
		cell_set_f64(row, KP_SDMA, (double)counter_delta(sdma, l->sdma_us) / (p->iv * 1e4));
	if (has_evicted && l->has_evicted) /* milliseconds */
		cell_set_f64(row, KP_EVICTED, (double)counter_delta(evicted, l->evicted_ms) / (p->iv * 10.0));
	l->has_sdma = has_sdma, l->sdma_us = sdma;
	l->has_evicted = has_evicted, l->evicted_ms = evicted;
	l->seen = true;
}

static void kfd_probe(struct collector *c)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];

	sys_path(dir, sizeof(dir), "class/kfd");
	if (access(dir, F_OK)) {
		snprintf(why, sizeof(why), "the amdkfd driver is not loaded (no %.200s)", dir);
		collector_set_state(c, COLLECTOR_UNAVAILABLE, why,
				    "load amdgpu on a GPU that ROCm supports (amdkfd is part of it)");
		return;
	}
	c->priv = calloc(1, sizeof(struct kfd_priv));
	if (!c->priv)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

static int kfd_read(struct collector *c, struct model *m)
{
	struct kfd_priv *p = c->priv;
	struct table *t = model_table(m, &kfd_processes);
	char dir[PATH_MAX], proc[PATH_MAX + 300];
	struct dirent *de;
	size_t procs = 0, kept = 0;
	DIR *d;

	p->iv = model_interval_s(m);
	read_topology(p);
	for (size_t i = 0; i < p->nlast; i++)
		p->last[i].seen = false;
	if (t && sys_path(dir, sizeof(dir), KFD "/proc") && (d = opendir(dir))) {
		while ((de = readdir(d))) {
			char *end;
			unsigned long pid = strtoul(de->d_name, &end, 10);

			if (de->d_name[0] < '1' || de->d_name[0] > '9' || *end || pid > UINT32_MAX)
				continue;
			snprintf(proc, sizeof(proc), "%s/%.255s", dir, de->d_name);
			for (size_t g = 0; g < p->ngpus; g++)
				proc_gpu_row(p, t, (unsigned int)pid, proc, &p->gpus[g]);
			procs++;
		}
		closedir(d);
	}
	for (size_t i = 0; i < p->nlast; i++) /* processes gone: their counters go */
		if (p->last[i].seen)
			p->last[kept++] = p->last[i];
	p->nlast = kept;
	proc_cache_tick(&p->pcache);
	snprintf(c->status.detail, sizeof(c->status.detail), "%zu GPU%s, %zu process%s", p->ngpus,
		 p->ngpus == 1 ? "" : "s", procs, procs == 1 ? "" : "es");
	return 0;
}

static void kfd_close(struct collector *c)
{
	struct kfd_priv *p = c->priv;

	if (!p)
		return;
	proc_cache_free(&p->pcache);
	free(p->last);
	free(p);
	c->priv = NULL;
}

static const struct collector_ops kfd_collector = {
	.name = "kfd",
	.order = 27,
	.unprivileged = true,
	.description = "AMD compute processes (ROCm): VRAM, SDMA, evictions, CUs and queues per GPU (KFD sysfs)",
	.probe = kfd_probe,
	.read = kfd_read,
	.close = kfd_close,
};
COLLECTOR_REGISTER(kfd_collector);
