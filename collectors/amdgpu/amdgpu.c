// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * amdgpu collector: submissions and their latency to run per ring and process,
 * buffer objects created per process, migrations between memory types (the
 * sign of VRAM thrashing), interrupt vectors by client, source and PASID, VM
 * flushes and mappings; from the amdgpu tracepoints (bpf/amdgpu.bpf.c).
 * Without an AMD GPU the module still loads and its programs attach (the VM
 * tests check that); no event fires. Tables: amdgpu_tables.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/amdgpu/amdgpu_tables.h"
#include "collectors/collector.h"
#include "collectors/kit/map_delta.h"
#include "collectors/kit/map_walk.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/proc_rows.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/tp_progs.h"
#include "core/clock.h"
#include "core/counter.h"
#include "bpf/amdgpu.h"
#include "amdgpu.skel.h"

#define SWEEP_TICKS 10
#define NEVER_RUN_NS 60000000000ULL /* a submission not run after a minute: its context went away */

#define AMD(ev, pg) { "amdgpu", ev, pg, .missing = "not in this kernel's amdgpu" }
static const struct tp_spec specs[] = {
	AMD("amdgpu_cs_ioctl", "cs_ioctl"),
	AMD("amdgpu_sched_run_job", "sched_run_job"),
	AMD("amdgpu_bo_create", "bo_create"),
	AMD("amdgpu_bo_move", "bo_move"),
	AMD("amdgpu_iv", "iv"),
	AMD("amdgpu_vm_flush", "vm_flush"),
	AMD("amdgpu_vm_bo_map", "vm_bo_map"),
	AMD("amdgpu_vm_bo_unmap", "vm_bo_unmap"),
	AMD("amdgpu_pasid_allocated", "pasid_allocated"),
	AMD("amdgpu_pasid_freed", "pasid_freed"),
};
#define NTPS (sizeof(specs) / sizeof(specs[0]))

static const char *const drop_names[AMD_DROP_MAX] = {
	[AMD_DROP_RINGS_FULL] = "ring_table_full",
	[AMD_DROP_PROCS_FULL] = "process_table_full",
	[AMD_DROP_PENDING_FULL] = "pending_job_table_full",
	[AMD_DROP_IV_FULL] = "interrupt_table_full",
};

struct amdgpu_priv {
	struct amdgpu_bpf *skel;
	struct tp_prog tps[NTPS];
	struct map_delta submitters, procs, ivs;
	struct proc_cache pcache;
	struct amd_ring *rings, *rings_last; /* AMD_MAX_RINGS each */
	char (*ring_names)[AMD_RING_NAME];
	struct amd_move moves_last[AMD_DOMAINS][AMD_DOMAINS];
	unsigned int ticks;
	uint64_t never_ran;
	uint64_t now_ns; /* of the sweep */
	struct table *t;
	double iv;
};

static void amdgpu_probe(struct collector *c)
{
	if (!tp_specs_list(c, specs, NTPS)) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE, "the amdgpu module is not loaded",
				    "modprobe amdgpu (an AMD GPU's driver); its tracepoints exist once it is loaded");
		return;
	}
	c->priv = calloc(1, sizeof(struct amdgpu_priv));
	if (!c->priv)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

static int amdgpu_open(struct collector *c)
{
	struct amdgpu_priv *p = c->priv;
	int err;

	p->rings = calloc(AMD_MAX_RINGS, sizeof(*p->rings));
	p->rings_last = calloc(AMD_MAX_RINGS, sizeof(*p->rings_last));
	p->ring_names = calloc(AMD_MAX_RINGS, sizeof(*p->ring_names));
	if (!p->rings || !p->rings_last || !p->ring_names ||
	    map_delta_init(&p->submitters, sizeof(struct amd_submitter_key),
			   sizeof(struct amd_submitter), 0) ||
	    map_delta_init(&p->procs, sizeof(__u32), sizeof(struct amd_proc), 0) ||
	    map_delta_init(&p->ivs, sizeof(struct amd_iv_key), sizeof(struct amd_iv), 0)) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	p->skel = amdgpu_bpf__open();
	if (!p->skel) {
		collector_load_failed(c, -errno);
		return -1;
	}
	if (tp_progs_open(p->tps, specs, NTPS, p->skel->obj, NULL)) {
		collector_load_failed(c, -ENOENT);
		return -1;
	}
	err = amdgpu_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	return 0;
}

static int amdgpu_attach(struct collector *c)
{
	struct amdgpu_priv *p = c->priv;

	if (!tp_progs_attach(c, p->tps, NTPS)) {
		collector_set_state(c, COLLECTOR_FAILED, "attaching to the amdgpu tracepoints failed",
				    "run with -v to see libbpf's messages");
		return -1;
	}
	snprintf(c->status.detail, sizeof(c->status.detail),
		 "no event yet (they fire with an AMD GPU at work)");
	return 0;
}

/* A ring's name by index, from the ring_ids map (new rings only appear). */
static bool ring_name(const void *key, void *value, void *arg)
{
	const struct amd_ring_key *k = key;
	__u32 idx = *(const __u32 *)value;
	struct amdgpu_priv *p = arg;

	if (idx < AMD_MAX_RINGS) {
		memcpy(p->ring_names[idx], k->name, AMD_RING_NAME);
		p->ring_names[idx][AMD_RING_NAME - 1] = '\0';
	}
	return false;
}

static void read_rings(struct amdgpu_priv *p, struct model *m)
{
	int fd = bpf_map__fd(p->skel->maps.rings);
	struct table *t = model_table(m, &amdgpu_rings);
	__u32 n = p->skel->bss->next_ring;

	map_walk(bpf_map__fd(p->skel->maps.ring_ids), sizeof(struct amd_ring_key), sizeof(__u32),
		 ring_name, p);
	for (__u32 i = 0; t && i < n && i < AMD_MAX_RINGS; i++) {
		struct amd_ring *now = &p->rings[i], *last = &p->rings_last[i];
		struct cell *row;

		if (bpf_map_lookup_elem(fd, &i, now) || !p->ring_names[i][0])
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		amdgpu_ring_row(row, p->ring_names[i], now, last, p->iv);
		*last = *now;
	}
}

/* Returns the bytes per second that left VRAM (evictions) for the collector's detail line. */
static double read_moves(struct amdgpu_priv *p, struct model *m, double *to_vram)
{
	struct table *t = model_table(m, &amdgpu_migrations);
	double evicted = 0;

	*to_vram = 0;
	for (unsigned int f = 0; f < AMD_DOMAINS; f++) {
		for (unsigned int to = 0; to < AMD_DOMAINS; to++) {
			struct amd_move now = p->skel->bss->moves[f][to], *last = &p->moves_last[f][to];
			double bps = counter_rate(now.bytes, last->bytes, p->iv);
			struct cell *row;

			if (!now.count)
				continue;
			if (f == 2 && to != 2)
				evicted += bps;
			if (to == 2 && f != 2)
				*to_vram += bps;
			row = t ? table_row_add(t) : NULL;
			if (row)
				amdgpu_move_row(row, f, to, &now, last, p->iv);
			*last = now;
		}
	}
	return evicted;
}

static void submitter_row(struct cell *row, const void *key, const char *comm, const void *now,
			  const void *before, double iv, void *ctx)
{
	const struct amd_submitter_key *k = key;
	struct amdgpu_priv *p = ctx;

	amdgpu_submitter_row(row, k, comm, k->ring < AMD_MAX_RINGS ? p->ring_names[k->ring] : "?", now,
			     before, iv);
}

static void proc_row(struct cell *row, const void *key, const char *comm, const void *now,
		     const void *before, double iv, void *ctx)
{
	(void)ctx;
	amdgpu_proc_row(row, *(const __u32 *)key, comm, now, before, iv);
}

static bool iv_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	struct amdgpu_priv *p = arg;
	const struct amd_iv_key *k = key;
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	const struct proc_entry *pe = NULL;
	__u32 tgid = 0;

	(void)state;
	if (!row)
		return false;
	if (k->pasid && bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.pasids), &k->pasid, &tgid))
		tgid = 0;
	if (tgid)
		pe = proc_cache_get(&p->pcache, tgid);
	amdgpu_iv_row(row, k, tgid, pe ? pe->comm : "?", now, before, p->iv);
	return false;
}

/* A submission whose job never ran (its context was destroyed, a reset): forgotten after a minute. */
static bool never_ran(const void *key, void *value, void *arg)
{
	const struct amd_job *job = value;
	struct amdgpu_priv *p = arg;

	(void)key;
	return job->ns + NEVER_RUN_NS < p->now_ns;
}

static int amdgpu_read(struct collector *c, struct model *m)
{
	struct amdgpu_priv *p = c->priv;
	double evicted, to_vram;

	p->iv = model_interval_s(m);
	read_rings(p, m);
	evicted = read_moves(p, m, &to_vram);
	proc_rows_read(&p->submitters, bpf_map__fd(p->skel->maps.submitters), &p->pcache,
		       model_table(m, &amdgpu_submitters), p->iv, submitter_row, p);
	proc_rows_read(&p->procs, bpf_map__fd(p->skel->maps.procs), &p->pcache,
		       model_table(m, &amdgpu_processes), p->iv, proc_row, NULL);
	p->t = model_table(m, &amdgpu_interrupts);
	map_delta_read(&p->ivs, bpf_map__fd(p->skel->maps.ivs), iv_row, p);
	proc_cache_tick(&p->pcache);
	if (++p->ticks % SWEEP_TICKS == 0) {
		long gone;

		p->now_ns = mono_ns();
		gone = map_walk(bpf_map__fd(p->skel->maps.pending), sizeof(struct amd_job_key),
				sizeof(struct amd_job), never_ran, p);
		p->never_ran += gone > 0 ? (uint64_t)gone : 0;
	}
	if (p->skel->bss->next_ring)
		snprintf(c->status.detail, sizeof(c->status.detail),
			 "%u ring%s; VRAM evictions %.1f MiB/s, moves into VRAM %.1f MiB/s",
			 p->skel->bss->next_ring, p->skel->bss->next_ring == 1 ? "" : "s",
			 evicted / 1048576.0, to_vram / 1048576.0);
	collector_set_drops(c, drop_names, p->skel->bss->drops, AMD_DROP_MAX);
	collector_set_drop(c, "submission_never_ran", p->never_ran);
	tp_progs_report(c, p->tps, NTPS, m);
	return 0;
}

static void amdgpu_close(struct collector *c)
{
	struct amdgpu_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NTPS);
	amdgpu_bpf__destroy(p->skel);
	map_delta_free(&p->submitters);
	map_delta_free(&p->procs);
	map_delta_free(&p->ivs);
	proc_cache_free(&p->pcache);
	free(p->rings);
	free(p->rings_last);
	free(p->ring_names);
	free(p);
}

static const struct collector_ops amdgpu_collector = {
	.name = "amdgpu",
	.order = 25,
	.description = "amdgpu: submissions and latency per ring, buffers, migrations, interrupts",
	.modules = (const char *const[]){ "amdgpu", NULL },
	.modules_fix = "modprobe amdgpu (an AMD GPU's driver)",
	.probe = amdgpu_probe,
	.open = amdgpu_open,
	.attach = amdgpu_attach,
	.read = amdgpu_read,
	.close = amdgpu_close,
};
COLLECTOR_REGISTER(amdgpu_collector);
