// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Intel collector (i915 and xe): requests per engine, the time clients wait on
 * them and, with the low-level tracepoints, the time they run; GEM objects,
 * binds, faults and pread/pwrite per process; shrinker and eviction pressure;
 * xe jobs per exec queue with their push-to-run latency, buffer moves, binds.
 * From the drivers' tracepoints (bpf/intel.bpf.c). Without Intel hardware the
 * modules still load and the programs attach (the VM tests check that); no
 * event fires. Tables: intel_tables.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/collector.h"
#include "collectors/intel/intel_tables.h"
#include "collectors/kit/map_delta.h"
#include "collectors/kit/map_walk.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/proc_rows.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/tp_progs.h"
#include "collectors/kit/tracefs.h"
#include <linux/types.h>
#include "bpf/intel.h"
#include "intel.skel.h"

#define LOW_LEVEL_NOTE "needs CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS=y"
/* Each program is named after its event. */
#define I915(event) { "i915", event, event, .missing = "not in this kernel's driver" }
#define I915_LOW_LEVEL(event) { "i915", event, event, .missing = LOW_LEVEL_NOTE }
#define XE(event)                                                                  \
	{ "xe", event, event, .missing = "not in this kernel's driver",            \
	  .absent = "the xe module is not loaded (xe is 6.8+)" }
static const struct tp_spec specs[] = {
	I915("i915_request_add"),
	I915("i915_request_retire"),
	I915("i915_request_wait_begin"),
	I915("i915_request_wait_end"),
	I915_LOW_LEVEL("i915_request_in"),
	I915_LOW_LEVEL("i915_request_out"),
	I915("i915_gem_object_create"),
	I915("i915_vma_bind"),
	I915("i915_vma_unbind"),
	I915("i915_gem_object_fault"),
	I915("i915_gem_object_pread"),
	I915("i915_gem_object_pwrite"),
	I915("i915_gem_shrink"),
	I915("i915_gem_evict"),
	XE("xe_sched_job_create"),
	XE("xe_sched_job_exec"),
	XE("xe_sched_job_run"),
	XE("xe_sched_job_free"),
	XE("xe_sched_job_timedout"),
	XE("xe_sched_job_set_error"),
	XE("xe_exec_queue_create"),
	XE("xe_exec_queue_register"),
	XE("xe_bo_move"),
	XE("xe_bo_create"),
	XE("xe_vma_bind"),
	XE("xe_vma_unbind"),
};
#define NTPS (sizeof(specs) / sizeof(specs[0]))

static const char *const drop_names[INTEL_DROP_MAX] = {
	[INTEL_DROP_ENGINES_FULL] = "engine_table_full",
	[INTEL_DROP_PROCS_FULL] = "process_table_full",
	[INTEL_DROP_PENDING_FULL] = "pending_table_full",
	[INTEL_DROP_QUEUES_FULL] = "queue_table_full",
	[INTEL_DROP_MOVES_FULL] = "move_table_full",
};

struct intel_priv {
	struct intel_bpf *skel;
	struct tp_prog tps[NTPS];
	struct map_delta procs, queues, moves;
	struct proc_cache pcache;
	struct intel_engine *engines, *engines_last;
	struct intel_engine_key *engine_keys;
	bool named[INTEL_MAX_ENGINES]; /* engine_keys[i] is known */
	struct intel_dev devs_last[INTEL_MAX_DEVS];
	bool low_level;
	unsigned int ticks;
	uint64_t never_returned; /* waits of threads that exited inside them */
	struct table *t;
	double iv;
};

static void intel_probe(struct collector *c)
{
	if (!tp_specs_list(c, specs, NTPS)) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE, "neither i915 nor xe is loaded",
				    "modprobe i915 or xe (an Intel GPU's driver); their tracepoints exist once loaded");
		return;
	}
	c->priv = calloc(1, sizeof(struct intel_priv));
	if (!c->priv)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

static int intel_open(struct collector *c)
{
	struct intel_priv *p = c->priv;
	int err;

	p->engines = calloc(INTEL_MAX_ENGINES, sizeof(*p->engines));
	p->engines_last = calloc(INTEL_MAX_ENGINES, sizeof(*p->engines_last));
	p->engine_keys = calloc(INTEL_MAX_ENGINES, sizeof(*p->engine_keys));
	if (!p->engines || !p->engines_last || !p->engine_keys ||
	    map_delta_init(&p->procs, sizeof(__u32), sizeof(struct intel_proc), 0) ||
	    map_delta_init(&p->queues, sizeof(struct xe_queue_key), sizeof(struct xe_queue), 0) ||
	    map_delta_init(&p->moves, sizeof(struct xe_move_key), sizeof(struct xe_move), 0)) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	p->skel = intel_bpf__open();
	if (!p->skel) {
		collector_load_failed(c, -errno);
		return -1;
	}
	if (tp_progs_open(p->tps, specs, NTPS, p->skel->obj, NULL)) {
		collector_load_failed(c, -ENOENT);
		return -1;
	}
	p->low_level = tracepoint_exists("i915", "i915_request_in") &&
		       tracepoint_exists("i915", "i915_request_out");
	err = intel_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	return 0;
}

static int intel_attach(struct collector *c)
{
	struct intel_priv *p = c->priv;
	bool i915 = tracepoint_group_exists("i915");

	if (!tp_progs_attach(c, p->tps, NTPS)) {
		collector_set_state(c, COLLECTOR_FAILED, "attaching to the i915 and xe tracepoints failed",
				    "run with -v to see libbpf's messages");
		return -1;
	}
	snprintf(c->status.detail, sizeof(c->status.detail), "%s%s%s",
		 i915 ? "i915" : "", i915 && tracepoint_group_exists("xe") ? " and xe" :
		 !i915 ? "xe" : "",
		 i915 && !p->low_level ? "; i915 time on the hardware needs CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS=y" :
		 "");
	return 0;
}

/* An engine's key by index, from the engine_ids map. */
static bool engine_key(const void *key, void *value, void *arg)
{
	__u32 idx = *(const __u32 *)value;
	struct intel_priv *p = arg;

	if (idx < INTEL_MAX_ENGINES) {
		p->engine_keys[idx] = *(const struct intel_engine_key *)key;
		p->named[idx] = true;
	}
	return false;
}

static void read_engines(struct intel_priv *p, struct model *m)
{
	int fd = bpf_map__fd(p->skel->maps.engines);
	struct table *t = model_table(m, &intel_engines);

	map_walk(bpf_map__fd(p->skel->maps.engine_ids), sizeof(struct intel_engine_key),
		 sizeof(__u32), engine_key, p);
	for (__u32 i = 0; t && i < INTEL_MAX_ENGINES; i++) {
		struct intel_engine *now = &p->engines[i], *last = &p->engines_last[i];
		struct cell *row;

		if (!p->named[i] || bpf_map_lookup_elem(fd, &i, now))
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		intel_engine_row(row, &p->engine_keys[i], now, last, p->low_level, p->iv);
		*last = *now;
	}
}

static void read_devs(struct intel_priv *p, struct model *m)
{
	struct table *t = model_table(m, &intel_devices);
	int fd = bpf_map__fd(p->skel->maps.devs);

	for (__u32 d = 0; t && d < INTEL_MAX_DEVS; d++) {
		struct intel_dev now;
		struct cell *row;

		if (bpf_map_lookup_elem(fd, &d, &now) || (!now.shrinks && !now.evictions))
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		intel_dev_row(row, d, &now, &p->devs_last[d], p->iv);
		p->devs_last[d] = now;
	}
}

static void proc_row(struct cell *row, const void *key, const char *comm, const void *now,
		     const void *before, double iv, void *ctx)
{
	(void)ctx;
	intel_proc_row(row, *(const __u32 *)key, comm, now, before, iv);
}

static bool queue_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	struct intel_priv *p = arg;
	struct cell *row = p->t ? table_row_add(p->t) : NULL;

	(void)state;
	if (row)
		xe_queue_row(row, key, now, before, p->iv);
	return false;
}

static bool move_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	struct intel_priv *p = arg;
	struct cell *row = p->t ? table_row_add(p->t) : NULL;

	(void)state;
	if (row)
		xe_move_row(row, key, now, before, p->iv);
	return false;
}

static int intel_read(struct collector *c, struct model *m)
{
	struct intel_priv *p = c->priv;

	p->iv = model_interval_s(m);
	read_engines(p, m);
	read_devs(p, m);
	proc_rows_read(&p->procs, bpf_map__fd(p->skel->maps.procs), &p->pcache,
		       model_table(m, &intel_processes), p->iv, proc_row, NULL);
	p->t = model_table(m, &xe_queues);
	map_delta_read(&p->queues, bpf_map__fd(p->skel->maps.queues), queue_row, p);
	p->t = model_table(m, &xe_moves);
	map_delta_read(&p->moves, bpf_map__fd(p->skel->maps.moves), move_row, p);
	proc_cache_tick(&p->pcache);
	if (++p->ticks % 10 == 0)
		p->never_returned += map_sweep_gone_threads(bpf_map__fd(p->skel->maps.waiting));
	collector_set_drops(c, drop_names, p->skel->bss->drops, INTEL_DROP_MAX);
	collector_set_drop(c, "waits_never_ended", p->never_returned);
	tp_progs_report(c, p->tps, NTPS, m);
	return 0;
}

static void intel_close(struct collector *c)
{
	struct intel_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NTPS);
	intel_bpf__destroy(p->skel);
	map_delta_free(&p->procs);
	map_delta_free(&p->queues);
	map_delta_free(&p->moves);
	proc_cache_free(&p->pcache);
	free(p->engines);
	free(p->engines_last);
	free(p->engine_keys);
	free(p);
}

static const struct collector_ops intel_collector = {
	.name = "intel",
	.order = 26,
	.description = "i915 and xe: requests, waits, time on the hardware; objects, binds; xe queues, moves",
	.modules = (const char *const[]){ "i915", "xe", NULL },
	.modules_fix = "modprobe i915 or xe (an Intel GPU's driver)",
	.probe = intel_probe,
	.open = intel_open,
	.attach = intel_attach,
	.read = intel_read,
	.close = intel_close,
};
COLLECTOR_REGISTER(intel_collector);
