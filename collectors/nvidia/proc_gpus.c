// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <bpf/bpf.h>
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "collectors/kit/map_walk.h"
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
}

static bool gpu_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	const struct nv_gpu_key *k = key;
	struct proc_gpus *g = arg;
	const struct proc_entry *pe = proc_cache_get(g->pcache, k->tgid);
	struct nv_bus_id asked = { "" };
	struct cuda_dev_where w;
	struct cell *row;

	(void)state;
	if (bpf_map_lookup_elem(g->maps.bus_ids, k, &asked))
		asked.id[0] = '\0';
	asked.id[sizeof(asked.id) - 1] = '\0';
	cuda_dev_locate(g->gpus, k->dev, asked.id, &w);
	row = g->t ? table_row_add(g->t) : NULL;
	if (row)
		nvidia_proc_gpu_row(row, k->tgid, pe && pe->comm[0] ? pe->comm : "?", k->dev, &w, now, before, g->iv);
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
		    struct proc_cache *pcache, const uint32_t *gone, size_t ngone, struct model *m)
{
	g->maps = *maps;
	g->gpus = gpus;
	g->pcache = pcache;
	g->gone = gone;
	g->ngone = ngone;
	g->t = model_table(m, &nvidia_process_gpus);
	g->iv = model_interval_s(m);
	map_delta_read(&g->counters, maps->counters, gpu_row, g);
	if (!ngone)
		return;
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
