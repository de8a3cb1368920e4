/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CUDA calls per process and device (nvidia.process_gpus): the BPF counters
 * per (process, device ordinal) read as interval deltas, each device placed
 * on NVML's GPU where that is certain (cuda_devices.h). A process that exited
 * is shown once more, then its counters, contexts and bus ids are forgotten.
 */
#ifndef GPUTOP_PROC_GPUS_H
#define GPUTOP_PROC_GPUS_H

#include <stddef.h>
#include <stdint.h>
#include "collectors/kit/map_delta.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/nvidia/cuda_devices.h"
#include "collectors/nvidia/nv_kernels.h"
#include "model/model.h"

/* The maps it reads (fds). */
struct proc_gpus_maps {
	int counters; /* proc_gpus */
	int bus_ids;
	int ctx_devs;
	int procs; /* its processes' names kept at their first call (nv_proc.comm) */
};

/* A process's procfs view (cuda_proc_read), kept while it lives. */
struct proc_gpus_view {
	uint32_t pid;
	unsigned long tick; /* read at */
	struct cuda_proc_view v;
};

struct proc_gpus {
	struct map_delta counters;
	struct proc_gpus_view *views; /* by pid */
	size_t nviews, views_cap;
	unsigned long tick;
	/* during a read */
	struct proc_gpus_maps maps;
	const struct nv_gpu_list *gpus;
	struct proc_cache *pcache;
	const uint32_t *gone;
	size_t ngone;
	const struct nv_kernels *kernels; /* its launches' sums */
	struct table *t;
	double iv;
};

int proc_gpus_init(struct proc_gpus *g);
/*
 * The rows of nvidia.process_gpus into m; gone[ngone]: the processes that exited this tick; their
 * launches those kernels' read summed (nv_kernels_launches).
 */
void proc_gpus_read(struct proc_gpus *g, const struct proc_gpus_maps *maps, const struct nv_gpu_list *gpus,
		    struct proc_cache *pcache, const uint32_t *gone, size_t ngone, const struct nv_kernels *kernels,
		    struct model *m);
void proc_gpus_free(struct proc_gpus *g);
/*
 * Bus ids and contexts of processes that no longer exist (one that made only
 * context calls has no counters to leave by): deleted; how many.
 */
uint64_t proc_gpus_sweep(const struct proc_gpus_maps *maps);

#endif
