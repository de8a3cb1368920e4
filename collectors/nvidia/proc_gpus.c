// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "collectors/kit/map_walk.h"
#include "core/array.h"
#include "collectors/kit/pid_list.h"
#include "collectors/kit/proc_info.h"
#include "collectors/nvidia/nvidia_tables.h"
#include "collectors/nvidia/proc_gpus.h"

int proc_gpus_init(struct proc_gpus *g)
{
	memset(g, 0, sizeof(*g));
	return map_delta_init(&g->counters, sizeof(struct nv_gpu_key), sizeof(struct nv_proc_gpu), 0);
}

void proc_gpus_free(struct proc_gpus *g)
{
	map_delta_free(&g->counters);
	free(g->views);
}

static int view_cmp(const void *key, const void *elem)
{
	uint32_t pid = *(const uint32_t *)key, other = ((const struct proc_gpus_view *)elem)->pid;

	return pid < other ? -1 : pid > other;
}

/* The procfs view of process pid: read at its first row, again each tick while it holds no GPU file. */
static const struct cuda_proc_view *view_of(struct proc_gpus *g, uint32_t pid)
{
	struct proc_gpus_view *e = g->nviews ? bsearch(&pid, g->views, g->nviews, sizeof(*e), view_cmp) : NULL;
	size_t at = 0;

	if (!e) {
		if (!array_push(&g->views, &g->nviews, &g->views_cap, sizeof(*e)))
			return NULL;
		while (at < g->nviews - 1 && g->views[at].pid < pid)
			at++;
		memmove(&g->views[at + 1], &g->views[at], (g->nviews - 1 - at) * sizeof(*e));
		e = &g->views[at];
		*e = (struct proc_gpus_view){ .pid = pid, .tick = g->tick };
		cuda_proc_read(pid, &e->v);
	} else if (!e->v.nheld && e->tick != g->tick) {
		e->tick = g->tick;
		cuda_proc_read(pid, &e->v);
	}
	return &e->v;
}

/* The views of processes that exited this tick: forgotten. */
static void views_forget(struct proc_gpus *g)
{
	size_t kept = 0;

	for (size_t i = 0; i < g->nviews; i++)
		if (!pid_listed(g->gone, g->ngone, g->views[i].pid))
			g->views[kept++] = g->views[i];
	g->nviews = kept;
}

static bool gpu_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	const struct nv_gpu_key *k = key;
	struct proc_gpus *g = arg;
	const struct proc_entry *pe = proc_cache_get(g->pcache, k->tgid);
	struct nv_bus_id asked = { "" };
	struct cuda_dev_where w;
	struct nv_proc kept = { 0 };
	struct nv_proc_gpu n, b;
	struct cell *row;
	char name[17];

	(void)state;
	memcpy(&n, now, sizeof(n));
	memcpy(&b, before, sizeof(b));
	nv_kernels_launches(g->kernels, k->tgid, k->dev, &n.launches, &b.launches);
	if (bpf_map_lookup_elem(g->maps.bus_ids, k, &asked))
		asked.id[0] = '\0';
	asked.id[sizeof(asked.id) - 1] = '\0';
	cuda_dev_locate(g->gpus, k->dev, asked.id, asked.id[0] ? NULL : view_of(g, k->tgid), &w);
	row = g->t ? table_row_add(g->t) : NULL;
	if (bpf_map_lookup_elem(g->maps.procs, &k->tgid, &kept)) /* named as nvidia.processes names it */
		kept.comm[0] = '\0';
	if (row)
		nvidia_proc_gpu_row(row, k->tgid, proc_name_or_kept(pe ? pe->comm : NULL, kept.comm, name), k->dev, &w,
				    &n, &b, g->iv);
	return pid_listed(g->gone, g->ngone, k->tgid); /* shown once more, then forgotten */
}

static bool bus_of_gone(const void *key, void *value, void *arg)
{
	const struct proc_gpus *g = arg;

	(void)value;
	return pid_listed(g->gone, g->ngone, ((const struct nv_gpu_key *)key)->tgid);
}

static bool ctx_of_gone(const void *key, void *value, void *arg)
{
	const struct proc_gpus *g = arg;

	(void)value;
	return pid_listed(g->gone, g->ngone, ((const struct nv_ctx_key *)key)->tgid);
}

void proc_gpus_read(struct proc_gpus *g, const struct proc_gpus_maps *maps, const struct nv_gpu_list *gpus,
		    struct proc_cache *pcache, const uint32_t *gone, size_t ngone, const struct nv_kernels *kernels,
		    struct model *m)
{
	g->kernels = kernels;
	g->maps = *maps;
	g->gpus = gpus;
	g->pcache = pcache;
	g->gone = gone;
	g->ngone = ngone;
	g->t = model_table(m, &nvidia_process_gpus);
	g->iv = model_interval_s(m);
	g->tick++;
	map_delta_read(&g->counters, maps->counters, gpu_row, g);
	if (!ngone)
		return;
	views_forget(g);
	map_walk(maps->bus_ids, sizeof(struct nv_gpu_key), 0, bus_of_gone, g);
	map_walk(maps->ctx_devs, sizeof(struct nv_ctx_key), 0, ctx_of_gone, g);
}

/* Entries keyed by a process that no longer exists (its first member, tgid). */
static bool tgid_gone(const void *key, void *value, void *arg)
{
	uint32_t tgid;

	(void)value, (void)arg;
	memcpy(&tgid, key, sizeof(tgid));
	return proc_gone(tgid);
}

uint64_t proc_gpus_sweep(const struct proc_gpus_maps *maps)
{
	long n = map_walk(maps->bus_ids, sizeof(struct nv_gpu_key), 0, tgid_gone, NULL);
	long c = map_walk(maps->ctx_devs, sizeof(struct nv_ctx_key), 0, tgid_gone, NULL);

	return (uint64_t)(n > 0 ? n : 0) + (uint64_t)(c > 0 ? c : 0);
}
