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
#include "bpf_util.h"
#include "collector.h"
#include "intel_tables.h"
#include "map_delta.h"
#include "proc_cache.h"
#include "tracefs.h"
#include <linux/types.h>
#include "../bpf/intel.h"
#include "intel.skel.h"

#define LOW_LEVEL_FIX "rebuild the kernel with CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS=y (time on the hardware per engine)"

/* Each program is named after its event. */
static const struct {
	const char *group, *event;
	bool low_level; /* only with CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS */
} events[] = {
	{ "i915", "i915_request_add", false },
	{ "i915", "i915_request_retire", false },
	{ "i915", "i915_request_wait_begin", false },
	{ "i915", "i915_request_wait_end", false },
	{ "i915", "i915_request_in", true },
	{ "i915", "i915_request_out", true },
	{ "i915", "i915_gem_object_create", false },
	{ "i915", "i915_vma_bind", false },
	{ "i915", "i915_vma_unbind", false },
	{ "i915", "i915_gem_object_fault", false },
	{ "i915", "i915_gem_object_pread", false },
	{ "i915", "i915_gem_object_pwrite", false },
	{ "i915", "i915_gem_shrink", false },
	{ "i915", "i915_gem_evict", false },
	{ "xe", "xe_sched_job_create", false },
	{ "xe", "xe_sched_job_exec", false },
	{ "xe", "xe_sched_job_run", false },
	{ "xe", "xe_sched_job_free", false },
	{ "xe", "xe_sched_job_timedout", false },
	{ "xe", "xe_sched_job_set_error", false },
	{ "xe", "xe_exec_queue_create", false },
	{ "xe", "xe_exec_queue_register", false },
	{ "xe", "xe_bo_move", false },
	{ "xe", "xe_bo_create", false },
	{ "xe", "xe_vma_bind", false },
	{ "xe", "xe_vma_unbind", false },
};
#define NTPS (sizeof(events) / sizeof(events[0]))

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
	struct intel_dev devs_last[INTEL_MAX_DEVS];
	bool low_level;
	unsigned int ticks;
	uint64_t never_returned; /* waits of threads that exited inside them */
	struct table *t;
	double iv;
};

static const char *missing_note(const char *group, bool low_level)
{
	if (!tracepoint_group_exists(group))
		return !strcmp(group, "xe") ? "the xe module is not loaded (xe is 6.8+)" :
					      "the i915 module is not loaded";
	return low_level ? "needs CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS=y" :
			   "not in this kernel's driver";
}

static void intel_probe(struct collector *c)
{
	int n = 0;

	for (size_t i = 0; i < NTPS; i++) {
		bool ok = tracepoint_exists(events[i].group, events[i].event);

		n += ok;
		collector_add_tracepoint(c, events[i].group, events[i].event,
					 ok ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
					 ok ? "" : missing_note(events[i].group, events[i].low_level));
	}
	if (!n) {
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
	    map_delta_init(&p->procs, sizeof(__u32), sizeof(struct intel_proc)) ||
	    map_delta_init(&p->queues, sizeof(struct xe_queue_key), sizeof(struct xe_queue)) ||
	    map_delta_init(&p->moves, sizeof(struct xe_move_key), sizeof(struct xe_move))) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	p->skel = intel_bpf__open();
	if (!p->skel) {
		collector_load_failed(c, -errno);
		return -1;
	}
	for (size_t i = 0; i < NTPS; i++) {
		p->tps[i] = (struct tp_prog){
			.group = events[i].group,
			.event = events[i].event,
			.prog = bpf_object__find_program_by_name(p->skel->obj, events[i].event),
			.wanted = tracepoint_exists(events[i].group, events[i].event),
		};
		if (events[i].low_level && p->tps[i].wanted)
			p->low_level = true;
	}
	tp_progs_autoload(p->tps, NTPS);
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

static double rate(__u64 now, __u64 before, double iv)
{
	return (double)(now >= before ? now - before : 0) / iv;
}

static double pct(__u64 now_ns, __u64 before_ns, double iv)
{
	return (double)(now_ns >= before_ns ? now_ns - before_ns : 0) / (iv * 1e9) * 100.0;
}

static void read_engines(struct intel_priv *p, struct model *m)
{
	int ids = bpf_map__fd(p->skel->maps.engine_ids), fd = bpf_map__fd(p->skel->maps.engines);
	struct table *t = model_table(m, &intel_engines);
	struct intel_engine_key key, next;
	bool first = true, named[INTEL_MAX_ENGINES] = { false };
	__u32 idx;

	while (!bpf_map_get_next_key(ids, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (!bpf_map_lookup_elem(ids, &key, &idx) && idx < INTEL_MAX_ENGINES) {
			p->engine_keys[idx] = key;
			named[idx] = true;
		}
	}
	for (__u32 i = 0; t && i < INTEL_MAX_ENGINES; i++) {
		struct intel_engine *now = &p->engines[i], *last = &p->engines_last[i];
		struct latency_summary sum;
		struct cell *row;
		char name[16];

		if (!named[i] || bpf_map_lookup_elem(fd, &i, now))
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		intel_engine_name(p->engine_keys[i].class, p->engine_keys[i].instance, name,
				  sizeof(name));
		cell_set_u64(row, IE_DEV, p->engine_keys[i].dev);
		cell_set_str(row, IE_ENGINE, name);
		cell_set_f64(row, IE_ADDED_PER_S, rate(now->added, last->added, p->iv));
		cell_set_u64(row, IE_ADDED, now->added);
		cell_set_u64(row, IE_RETIRED, now->retired);
		cell_set_u64(row, IE_IN_FLIGHT, now->added > now->retired ? now->added - now->retired : 0);
		cell_set_f64(row, IE_WAITS_PER_S, rate(now->waits, last->waits, p->iv));
		cell_set_f64(row, IE_WAIT_PCT, pct(now->wait_ns, last->wait_ns, p->iv));
		if (p->low_level) {
			cell_set_f64(row, IE_EXEC_PCT, pct(now->exec_ns, last->exec_ns, p->iv));
			cells_set_quantiles(row, IE_EXEC_P50, IE_EXEC_P99, now->exec_hist,
					    last->exec_hist, (double)(now->exec_ns - last->exec_ns),
					    &sum);
		}
		*last = *now;
	}
}

static void read_devs(struct intel_priv *p, struct model *m)
{
	struct table *t = model_table(m, &intel_devices);
	int fd = bpf_map__fd(p->skel->maps.devs);

	for (__u32 d = 0; t && d < INTEL_MAX_DEVS; d++) {
		struct intel_dev now, *last = &p->devs_last[d];
		struct cell *row;

		if (bpf_map_lookup_elem(fd, &d, &now) || (!now.shrinks && !now.evictions))
			continue;
		row = table_row_add(t);
		if (!row)
			break;
		cell_set_u64(row, ID_DEV, d);
		cell_set_f64(row, ID_SHRINKS_PER_S, rate(now.shrinks, last->shrinks, p->iv));
		cell_set_f64(row, ID_SHRINK_BYTES_PER_S,
			     rate(now.shrink_pages, last->shrink_pages, p->iv) * 4096);
		cell_set_u64(row, ID_SHRINKS, now.shrinks);
		cell_set_u64(row, ID_SHRINK_BYTES, now.shrink_pages * 4096);
		cell_set_f64(row, ID_EVICTIONS_PER_S, rate(now.evictions, last->evictions, p->iv));
		cell_set_u64(row, ID_EVICTIONS, now.evictions);
		*last = now;
	}
}

static bool proc_row(const void *key, const void *now, const void *before, void *arg)
{
	struct intel_priv *p = arg;
	__u32 pid = *(const __u32 *)key;
	const struct intel_proc *s = now, *b = before;
	const struct proc_entry *pe = proc_cache_get(&p->pcache, pid);
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	struct latency_summary sum;
	__u64 faults = 0, faults_before = 0;

	if (!row)
		return pe && pe->gone;
	for (int i = 0; i < 4; i++) {
		faults += s->faults[i];
		faults_before += b->faults[i];
	}
	cell_set_u64(row, IP_PID, pid);
	cell_set_str(row, IP_COMM, pe ? pe->comm : "?");
	cell_set_f64(row, IP_REQ_PER_S, rate(s->requests, b->requests, p->iv));
	cell_set_f64(row, IP_XE_JOBS_PER_S, rate(s->xe_jobs, b->xe_jobs, p->iv));
	cell_set_f64(row, IP_WAIT_PCT, pct(s->wait_ns, b->wait_ns, p->iv));
	cells_set_quantiles(row, IP_WAIT_P50, IP_WAIT_P99, s->wait_hist, b->wait_hist,
			    (double)(s->wait_ns - b->wait_ns), &sum);
	cell_set_f64(row, IP_OBJ_PER_S, rate(s->objects, b->objects, p->iv));
	cell_set_f64(row, IP_OBJ_BYTES_PER_S, rate(s->object_bytes, b->object_bytes, p->iv));
	cell_set_u64(row, IP_OBJ_BYTES, s->object_bytes);
	cell_set_f64(row, IP_BINDS_PER_S, rate(s->binds, b->binds, p->iv));
	cell_set_f64(row, IP_UNBINDS_PER_S, rate(s->unbinds, b->unbinds, p->iv));
	cell_set_f64(row, IP_FAULTS_PER_S, rate(faults, faults_before, p->iv));
	cell_set_u64(row, IP_FAULTS_CPU_R, s->faults[0]);
	cell_set_u64(row, IP_FAULTS_CPU_W, s->faults[1]);
	cell_set_u64(row, IP_FAULTS_GTT_R, s->faults[2]);
	cell_set_u64(row, IP_FAULTS_GTT_W, s->faults[3]);
	cell_set_u64(row, IP_PREAD_BYTES, s->pread_bytes);
	cell_set_u64(row, IP_PWRITE_BYTES, s->pwrite_bytes);
	cell_set_u64(row, IP_REQUESTS, s->requests);
	cell_set_u64(row, IP_XE_JOBS, s->xe_jobs);
	cell_set_u64(row, IP_WAITS, s->waits);
	return pe && pe->gone;
}

static bool queue_row(const void *key, const void *now, const void *before, void *arg)
{
	struct intel_priv *p = arg;
	const struct xe_queue_key *k = key;
	const struct xe_queue *s = now, *b = before;
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	struct latency_summary sum;

	if (!row)
		return false;
	cell_set_u64(row, XQ_GT, k->gt_id);
	cell_set_u64(row, XQ_GUC_ID, k->guc_id);
	cell_set_str(row, XQ_CLASS, xe_class_name((int)s->class1 - 1));
	cell_set_f64(row, XQ_JOBS_PER_S, rate(s->pushed, b->pushed, p->iv));
	cell_set_u64(row, XQ_CREATED, s->created);
	cell_set_u64(row, XQ_PUSHED, s->pushed);
	cell_set_u64(row, XQ_RAN, s->ran);
	cell_set_u64(row, XQ_FREED, s->freed);
	cell_set_u64(row, XQ_TIMEDOUT, s->timedout);
	cell_set_u64(row, XQ_ERRORS, s->errors);
	cells_set_quantiles(row, XQ_LAT_P50, XQ_LAT_P99, s->latency_hist, b->latency_hist,
			    (double)(s->latency_ns - b->latency_ns), &sum);
	return false;
}

static bool move_row(const void *key, const void *now, const void *before, void *arg)
{
	struct intel_priv *p = arg;
	const struct xe_move_key *k = key;
	const struct xe_move *s = now, *b = before;
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	char from[XE_PLACEMENT_NAME + 1], to[XE_PLACEMENT_NAME + 1];

	if (!row)
		return false;
	memcpy(from, k->from, XE_PLACEMENT_NAME);
	memcpy(to, k->to, XE_PLACEMENT_NAME);
	from[XE_PLACEMENT_NAME] = to[XE_PLACEMENT_NAME] = '\0';
	cell_set_str(row, XM_FROM, from);
	cell_set_str(row, XM_TO, to);
	cell_set_f64(row, XM_PER_S, rate(s->count, b->count, p->iv));
	cell_set_f64(row, XM_BYTES_PER_S, rate(s->bytes, b->bytes, p->iv));
	cell_set_u64(row, XM_COUNT, s->count);
	cell_set_u64(row, XM_BYTES, s->bytes);
	return false;
}

static int intel_read(struct collector *c, struct model *m)
{
	struct intel_priv *p = c->priv;

	p->iv = model_interval_s(m);
	read_engines(p, m);
	read_devs(p, m);
	p->t = model_table(m, &intel_processes);
	map_delta_read(&p->procs, bpf_map__fd(p->skel->maps.procs), proc_row, p);
	p->t = model_table(m, &xe_queues);
	map_delta_read(&p->queues, bpf_map__fd(p->skel->maps.queues), queue_row, p);
	p->t = model_table(m, &xe_moves);
	map_delta_read(&p->moves, bpf_map__fd(p->skel->maps.moves), move_row, p);
	proc_cache_tick(&p->pcache);
	if (++p->ticks % 10 == 0)
		p->never_returned += bpf_sweep_gone_threads(bpf_map__fd(p->skel->maps.waiting));
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
	.probe = intel_probe,
	.open = intel_open,
	.attach = intel_attach,
	.read = intel_read,
	.close = intel_close,
};
COLLECTOR_REGISTER(intel_collector);
