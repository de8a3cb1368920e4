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
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "amdgpu_tables.h"
#include "bpf_util.h"
#include "collector.h"
#include "map_delta.h"
#include "proc_cache.h"
#include "tracefs.h"
#include <linux/types.h>
#include "../bpf/amdgpu.h"
#include "amdgpu.skel.h"

#define SWEEP_TICKS 10
#define NEVER_RUN_NS 60000000000ULL /* a submission not run after a minute: its context went away */

enum {
	TP_CS_IOCTL,
	TP_RUN_JOB,
	TP_BO_CREATE,
	TP_BO_MOVE,
	TP_IV,
	TP_VM_FLUSH,
	TP_VM_MAP,
	TP_VM_UNMAP,
	TP_PASID_ALLOC,
	TP_PASID_FREE,
	NTPS
};

static const char *const events[NTPS] = {
	[TP_CS_IOCTL] = "amdgpu_cs_ioctl",	   [TP_RUN_JOB] = "amdgpu_sched_run_job",
	[TP_BO_CREATE] = "amdgpu_bo_create",	   [TP_BO_MOVE] = "amdgpu_bo_move",
	[TP_IV] = "amdgpu_iv",			   [TP_VM_FLUSH] = "amdgpu_vm_flush",
	[TP_VM_MAP] = "amdgpu_vm_bo_map",	   [TP_VM_UNMAP] = "amdgpu_vm_bo_unmap",
	[TP_PASID_ALLOC] = "amdgpu_pasid_allocated", [TP_PASID_FREE] = "amdgpu_pasid_freed",
};

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
	struct table *t;
	double iv;
};

static void amdgpu_probe(struct collector *c)
{
	int n = 0;

	for (int i = 0; i < NTPS; i++) {
		bool ok = tracepoint_exists("amdgpu", events[i]);

		n += ok;
		collector_add_tracepoint(c, "amdgpu", events[i],
					 ok ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
					 ok ? "" : tracepoint_group_exists("amdgpu") ?
						   "not in this kernel's amdgpu" :
						   "the amdgpu module is not loaded");
	}
	if (!n) {
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
	struct bpf_program *progs[NTPS];
	int err;

	p->rings = calloc(AMD_MAX_RINGS, sizeof(*p->rings));
	p->rings_last = calloc(AMD_MAX_RINGS, sizeof(*p->rings_last));
	p->ring_names = calloc(AMD_MAX_RINGS, sizeof(*p->ring_names));
	if (!p->rings || !p->rings_last || !p->ring_names ||
	    map_delta_init(&p->submitters, sizeof(struct amd_submitter_key),
			   sizeof(struct amd_submitter)) ||
	    map_delta_init(&p->procs, sizeof(__u32), sizeof(struct amd_proc)) ||
	    map_delta_init(&p->ivs, sizeof(struct amd_iv_key), sizeof(struct amd_iv))) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	p->skel = amdgpu_bpf__open();
	if (!p->skel) {
		collector_load_failed(c, -errno);
		return -1;
	}
	progs[TP_CS_IOCTL] = p->skel->progs.cs_ioctl;
	progs[TP_RUN_JOB] = p->skel->progs.sched_run_job;
	progs[TP_BO_CREATE] = p->skel->progs.bo_create;
	progs[TP_BO_MOVE] = p->skel->progs.bo_move;
	progs[TP_IV] = p->skel->progs.iv;
	progs[TP_VM_FLUSH] = p->skel->progs.vm_flush;
	progs[TP_VM_MAP] = p->skel->progs.vm_bo_map;
	progs[TP_VM_UNMAP] = p->skel->progs.vm_bo_unmap;
	progs[TP_PASID_ALLOC] = p->skel->progs.pasid_allocated;
	progs[TP_PASID_FREE] = p->skel->progs.pasid_freed;
	for (int i = 0; i < NTPS; i++)
		p->tps[i] = (struct tp_prog){ .group = "amdgpu", .event = events[i], .prog = progs[i],
					      .wanted = tracepoint_exists("amdgpu", events[i]) };
	tp_progs_autoload(p->tps, NTPS);
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

static double rate(__u64 now, __u64 before, double iv)
{
	return (double)(now >= before ? now - before : 0) / iv;
}

/* Ring names by index, from the ring_ids map (new rings only appear). */
static void read_ring_names(struct amdgpu_priv *p)
{
	int fd = bpf_map__fd(p->skel->maps.ring_ids);
	struct amd_ring_key key, next;
	bool first = true;
	__u32 idx;

	while (!bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &idx) && idx < AMD_MAX_RINGS) {
			memcpy(p->ring_names[idx], key.name, AMD_RING_NAME);
			p->ring_names[idx][AMD_RING_NAME - 1] = '\0';
		}
	}
}

static void read_rings(struct amdgpu_priv *p, struct model *m)
{
	int fd = bpf_map__fd(p->skel->maps.rings);
	struct table *t = model_table(m, &amdgpu_rings);
	__u32 n = p->skel->bss->next_ring;

	read_ring_names(p);
	for (__u32 i = 0; t && i < n && i < AMD_MAX_RINGS; i++) {
		struct amd_ring *now = &p->rings[i], *last = &p->rings_last[i];
		struct latency_summary sum;
		struct cell *row;
		__u64 subs;

		if (bpf_map_lookup_elem(fd, &i, now) || !p->ring_names[i][0])
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		subs = now->submissions - last->submissions;
		cell_set_str(row, AR_RING, p->ring_names[i]);
		cell_set_f64(row, AR_SUBS_PER_S, rate(now->submissions, last->submissions, p->iv));
		cell_set_u64(row, AR_SUBS, now->submissions);
		if (subs)
			cell_set_f64(row, AR_IBS_PER_SUB, (double)(now->ibs - last->ibs) / (double)subs);
		cell_set_u64(row, AR_RUNS, now->runs);
		cell_set_u64(row, AR_KERNEL_RUNS, now->kernel_runs);
		cells_set_quantiles(row, AR_LAT_P50, AR_LAT_P99, now->latency_hist,
				    last->latency_hist, (double)(now->latency_ns - last->latency_ns),
				    &sum);
		cell_set_f64(row, AR_FLUSH_PER_S, rate(now->flushes, last->flushes, p->iv));
		cell_set_u64(row, AR_FLUSHES, now->flushes);
		*last = *now;
	}
}

/* Returns the bytes per second that left VRAM (evictions) for the collector's detail line. */
static double read_moves(struct amdgpu_priv *p, struct model *m, double *to_vram)
{
	struct table *t = model_table(m, &amdgpu_migrations);
	double evicted = 0;

	*to_vram = 0;
	for (int f = 0; f < AMD_DOMAINS; f++) {
		for (int to = 0; to < AMD_DOMAINS; to++) {
			struct amd_move now = p->skel->bss->moves[f][to], *last = &p->moves_last[f][to];
			double bps = rate(now.bytes, last->bytes, p->iv);
			struct cell *row;

			if (!now.count)
				continue;
			if (f == 2 && to != 2)
				evicted += bps;
			if (to == 2 && f != 2)
				*to_vram += bps;
			row = t ? table_row_add(t) : NULL;
			if (row) {
				cell_set_str(row, AM_FROM, amdgpu_domain_name((unsigned int)f));
				cell_set_str(row, AM_TO, amdgpu_domain_name((unsigned int)to));
				cell_set_f64(row, AM_PER_S, rate(now.count, last->count, p->iv));
				cell_set_f64(row, AM_BYTES_PER_S, bps);
				cell_set_u64(row, AM_COUNT, now.count);
				cell_set_u64(row, AM_BYTES, now.bytes);
			}
			*last = now;
		}
	}
	return evicted;
}

static bool submitter_row(const void *key, const void *now, const void *before, void *arg)
{
	struct amdgpu_priv *p = arg;
	const struct amd_submitter_key *k = key;
	const struct amd_submitter *s = now, *b = before;
	const struct proc_entry *pe = proc_cache_get(&p->pcache, k->tgid);
	struct cell *row = p->t ? table_row_add(p->t) : NULL;

	if (row) {
		cell_set_u64(row, AS_PID, k->tgid);
		cell_set_str(row, AS_COMM, pe ? pe->comm : "?");
		cell_set_str(row, AS_RING, k->ring < AMD_MAX_RINGS ? p->ring_names[k->ring] : "?");
		cell_set_f64(row, AS_SUBS_PER_S, rate(s->submissions, b->submissions, p->iv));
		cell_set_u64(row, AS_SUBS, s->submissions);
		cell_set_u64(row, AS_IBS, s->ibs);
	}
	return pe && pe->gone;
}

static bool proc_row(const void *key, const void *now, const void *before, void *arg)
{
	struct amdgpu_priv *p = arg;
	__u32 pid = *(const __u32 *)key;
	const struct amd_proc *s = now, *b = before;
	const struct proc_entry *pe = proc_cache_get(&p->pcache, pid);
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	__u64 bos = 0, bos_before = 0, bytes = 0, bytes_before = 0, other = 0;

	if (!row)
		return pe && pe->gone;
	for (int d = 0; d < AMD_DOMAINS; d++) {
		bos += s->created[d];
		bos_before += b->created[d];
		bytes += s->created_bytes[d];
		bytes_before += b->created_bytes[d];
		if (d > 2)
			other += s->created_bytes[d];
	}
	cell_set_u64(row, AP_PID, pid);
	cell_set_str(row, AP_COMM, pe ? pe->comm : "?");
	cell_set_f64(row, AP_BO_PER_S, rate(bos, bos_before, p->iv));
	cell_set_f64(row, AP_BYTES_PER_S, rate(bytes, bytes_before, p->iv));
	cell_set_u64(row, AP_VRAM_BYTES, s->created_bytes[2]);
	cell_set_u64(row, AP_GTT_BYTES, s->created_bytes[1]);
	cell_set_u64(row, AP_CPU_BYTES, s->created_bytes[0]);
	cell_set_u64(row, AP_OTHER_BYTES, other);
	cell_set_u64(row, AP_BOS, bos);
	cell_set_f64(row, AP_MAPS_PER_S, rate(s->maps, b->maps, p->iv));
	cell_set_f64(row, AP_UNMAPS_PER_S, rate(s->unmaps, b->unmaps, p->iv));
	cell_set_u64(row, AP_MAPS, s->maps);
	cell_set_u64(row, AP_UNMAPS, s->unmaps);
	cell_set_u64(row, AP_MAPPED_BYTES, s->mapped_bytes);
	return pe && pe->gone;
}

static bool iv_row(const void *key, const void *now, const void *before, void *arg)
{
	struct amdgpu_priv *p = arg;
	const struct amd_iv_key *k = key;
	const struct amd_iv *s = now, *b = before;
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	const char *client = amdgpu_iv_client_name(k->client_id);
	const char *src = amdgpu_iv_source_name(k->client_id, k->src_id);
	__u32 tgid;

	if (!row)
		return false;
	cell_set_u64(row, AI_CLIENT, k->client_id);
	cell_set_u64(row, AI_SRC, k->src_id);
	cell_set_u64(row, AI_PASID, k->pasid);
	cell_set_str(row, AI_CLIENT_NAME, client ? client : "?");
	if (src)
		cell_set_str(row, AI_SRC_NAME, src);
	if (k->pasid &&
	    !bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.pasids), &k->pasid, &tgid)) {
		const struct proc_entry *pe = proc_cache_get(&p->pcache, tgid);

		cell_set_u64(row, AI_PID, tgid);
		cell_set_str(row, AI_COMM, pe ? pe->comm : "?");
	}
	cell_set_f64(row, AI_PER_S, rate(s->count, b->count, p->iv));
	cell_set_u64(row, AI_TOTAL, s->count);
	cell_set_u64(row, AI_VMID, s->vmid);
	cell_set_u64(row, AI_RING_ID, s->ring_id);
	return false;
}

/* Submissions whose job never ran (their context was destroyed, a reset): forgotten after a minute. */
static void sweep_pending(struct amdgpu_priv *p)
{
	int fd = bpf_map__fd(p->skel->maps.pending);
	struct amd_job_key key, next, *doomed = NULL;
	size_t n = 0;
	struct amd_job job;
	struct timespec ts;
	bool first = true;
	__u64 now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
	while (!bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &job) && job.ns + NEVER_RUN_NS < now) {
			struct amd_job_key *d = realloc(doomed, (n + 1) * sizeof(*d));

			if (!d)
				break;
			doomed = d;
			doomed[n++] = key;
		}
	}
	for (size_t i = 0; i < n; i++)
		p->never_ran += !bpf_map_delete_elem(fd, &doomed[i]);
	free(doomed);
}

static int amdgpu_read(struct collector *c, struct model *m)
{
	struct amdgpu_priv *p = c->priv;
	double evicted, to_vram;

	p->iv = model_interval_s(m);
	read_rings(p, m);
	evicted = read_moves(p, m, &to_vram);
	p->t = model_table(m, &amdgpu_submitters);
	map_delta_read(&p->submitters, bpf_map__fd(p->skel->maps.submitters), submitter_row, p);
	p->t = model_table(m, &amdgpu_processes);
	map_delta_read(&p->procs, bpf_map__fd(p->skel->maps.procs), proc_row, p);
	p->t = model_table(m, &amdgpu_interrupts);
	map_delta_read(&p->ivs, bpf_map__fd(p->skel->maps.ivs), iv_row, p);
	proc_cache_tick(&p->pcache);
	if (++p->ticks % SWEEP_TICKS == 0)
		sweep_pending(p);
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
	.probe = amdgpu_probe,
	.open = amdgpu_open,
	.attach = amdgpu_attach,
	.read = amdgpu_read,
	.close = amdgpu_close,
};
COLLECTOR_REGISTER(amdgpu_collector);
