// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DRM GPU scheduler collector: rings, jobs, latencies and submitting processes
 * of every driver built on drm_sched (amdgpu, xe, nouveau, v3d, panfrost ...).
 */
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/kit/map_walk.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/span_frames.h"
#include "collectors/kit/test_hooks.h"
#include "collectors/kit/tp_progs.h"
#include "collectors/collector.h"
#include "collectors/drm_sched/job_spans.h"
#include "collectors/drm_sched/sched_model.h"
#include "collectors/drm_sched/sched_stacks.h"
#include "collectors/kit/stack_table.h"
#include "collectors/drm_sched/sched_stream.h"
#include "collectors/kit/tracefs.h"
#include "core/clock.h"
#include <linux/types.h>
#include "bpf/drm_sched.h"
#include "drm_sched.skel.h"

#define GROUP "gpu_scheduler"

/* Each event in enum sched_ev's order: its tracepoint in each generation (NULL where it has none). */
static const struct sched_event {
	const char *new_name, *old_name; /* >= 6.17, <= 6.16 */
	const char *prog, *lost;
} sched_events[SCHED_EV_MAX] = {
	[SCHED_EV_QUEUE] = { "drm_sched_job_queue", "drm_sched_job", "sched_queue",
			     "recursion_lost_queue" },
	[SCHED_EV_RUN] = { "drm_sched_job_run", "drm_run_job", "sched_run", "recursion_lost_run" },
	[SCHED_EV_DONE] = { "drm_sched_job_done", "drm_sched_process_job", "sched_done",
			    "recursion_lost_done" },
	[SCHED_EV_ADD_DEP] = { "drm_sched_job_add_dep", NULL, "sched_add_dep", "recursion_lost_add_dep" },
	[SCHED_EV_DEP_WAIT] = { "drm_sched_job_unschedulable", "drm_sched_job_wait_dep",
				"sched_dep_wait", "recursion_lost_dep_wait" },
};
#define NEVENTS SCHED_EV_MAX
#define NTPS (SCHED_COPIES * NEVENTS) /* each program, then its twins */

static const char *const drop_names[SCHED_DROP_MAX] = {
	[SCHED_DROP_RING_FULL] = "ring_table_full",
	[SCHED_DROP_PROC_FULL] = "process_table_full",
	[SCHED_DROP_JOB_FULL] = "job_table_full",
	[SCHED_DROP_RUN_UNMATCHED] = "run_without_queue",
	[SCHED_DROP_DONE_UNMATCHED] = "done_without_run",
	[SCHED_DROP_JOB_EVICTED] = "queue_record_evicted",
	[SCHED_DROP_RUN_RECORD_EVICTED] = "run_record_evicted",
};

/* The streamed design's more: each event kind's records the ring buffer had no room for. */
#define STREAM_DROPS (SCHED_DROP_MAX + SCHED_EV_MAX)
static const char *const rb_full_names[SCHED_EV_MAX] = {
	[SCHED_EV_QUEUE] = "ring_buffer_full_queue",
	[SCHED_EV_RUN] = "ring_buffer_full_run",
	[SCHED_EV_DONE] = "ring_buffer_full_done",
	[SCHED_EV_ADD_DEP] = "ring_buffer_full_add_dep",
	[SCHED_EV_DEP_WAIT] = "ring_buffer_full_dep_wait",
};

struct sched_priv {
	struct drm_sched_bpf *skel; /* the map design; NULL with the streamed one */
	struct sched_stream *stream; /* the streamed design (--sched-design stream) */
	struct sched_match *match; /* the streamed design's counters, during a read */
	struct job_spans spans; /* jobs completed since the last read, for config->job_sink */
	bool spans_on; /* config->job_sink: spans kept */
	struct sched_stacks stacks; /* --stacks: sums per (process, ring, stack) */
	struct span_stacks span_stacks; /* --stacks: the jobs' frames, for the trace */
	struct stack_rows stack_rows; /* drm_sched.stacks, while it is filled */
	int ring_ids_fd;
	bool new_gen;
	struct tp_prog tps[NTPS];
	struct sched_model *sm; /* counters between ticks, rows of the tick */
	struct ring_stats *value; /* one map value; too large for the stack */
	struct ring_key ring_keys[SCHED_MAX_RINGS]; /* ring index -> key, from ring_ids */
	bool ring_gone[SCHED_MAX_RINGS]; /* its device went with a module: forgotten */
	bool check_devices; /* a module went away: do the rings' devices still exist? */
	uint64_t gen, now_ns; /* of this read */
};

/* This kernel's tracepoint and program of each event (its twins' programs: <prog>2, <prog>3). */
static void sched_specs(struct tp_spec *specs, bool new_gen)
{
	for (size_t i = 0; i < NEVENTS; i++) {
		const struct sched_event *e = &sched_events[i];
		const char *name = new_gen ? e->new_name : e->old_name;

		specs[i] = (struct tp_spec){ .group = GROUP, .prog = e->prog, .twins = SCHED_COPIES - 1,
					     .lost = e->lost, .raw = true };
		specs[i].event = name && tracepoint_exists(GROUP, name) ? name : NULL;
	}
}

/* Each name of either generation, for --list: whether this kernel has it. */
static void list_tracepoint(struct collector *c, const char *name, bool new_gen)
{
	bool exists;

	if (!name)
		return;
	exists = tracepoint_exists(GROUP, name);
	collector_add_tracepoint(c, GROUP, name, exists ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
				 exists ? (new_gen ? "kernel >= 6.17 name" : "kernel <= 6.16 name") :
				 new_gen ? "not in this kernel (>= 6.17 name)" :
					   "not in this kernel (<= 6.16 name)");
}

static void sched_probe(struct collector *c)
{
	bool has_new = tracepoint_exists(GROUP, "drm_sched_job_queue");
	bool has_old = tracepoint_exists(GROUP, "drm_sched_job");
	struct sched_priv *p;

	for (size_t i = 0; i < NEVENTS; i++)
		list_tracepoint(c, sched_events[i].new_name, true);
	for (size_t i = 0; i < NEVENTS; i++)
		list_tracepoint(c, sched_events[i].old_name, false);
	if (!has_new && !has_old) {
		if (tracepoint_group_exists(GROUP))
			collector_set_state(c, COLLECTOR_UNAVAILABLE,
					    "gpu_scheduler tracepoints exist but neither generation's queue event does",
					    "report this kernel's /sys/kernel/tracing/events/gpu_scheduler/ listing");
		else if (access("/sys/module/gpu_sched", F_OK) == 0)
			collector_set_state(c, COLLECTOR_UNAVAILABLE,
					    "gpu_sched is loaded but has no tracepoints (CONFIG_EVENT_TRACING off?)",
					    "use a kernel with CONFIG_EVENT_TRACING=y");
		else
			collector_set_state(c, COLLECTOR_UNAVAILABLE,
					    "no gpu_scheduler tracepoints: the gpu_sched module is not loaded (no driver using the DRM GPU scheduler is active)",
					    "load a driver built on drm_sched (amdgpu, xe, nouveau, v3d, panfrost, etnaviv ...); i915 and NVIDIA's driver do not use it");
		return;
	}
	if (access("/sys/kernel/btf/gpu_sched", F_OK) != 0 &&
	    access("/sys/kernel/btf/vmlinux", F_OK) == 0 &&
	    access("/sys/module/gpu_sched", F_OK) == 0) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE,
				    "no BTF for the gpu_sched module (/sys/kernel/btf/gpu_sched): its tracepoint records cannot be relocated",
				    "use a kernel built with CONFIG_DEBUG_INFO_BTF_MODULES=y");
		return;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return;
	}
	p->new_gen = has_new;
	c->priv = p;
	snprintf(c->status.detail, sizeof(c->status.detail), "kernel %s events, raw, two twins each",
		 has_new ? ">= 6.17" : "<= 6.16");
}

/* The design that loaded, after the probe's words. */
static void detail_design(struct collector *c, const char *design)
{
	size_t n = strlen(c->status.detail);

	snprintf(c->status.detail + n, sizeof(c->status.detail) - n, "; %s", design);
}

/* A job completed (streamed design): to the trace's spans, and the stacks' sums. */
static void on_job(void *arg, __u32 ring, const struct job_span *span)
{
	struct sched_priv *p = arg;

	if (p->spans_on)
		job_spans_add(&p->spans, ring, span);
	sched_stacks_add(&p->stacks, ring, span);
}

/* A job's frames for the trace (span_stacks): within the sink's jobs(), under the stream's lock. */
static size_t span_frames(const struct span_stacks *ss, const struct stack_ref *r,
			  struct span_frame *out, size_t max)
{
	static struct frame frames[SCHED_STACK_FRAMES_MAX];
	struct sched_priv *p =
		(struct sched_priv *)((char *)ss - offsetof(struct sched_priv, span_stacks));
	size_t n = sched_stacks_frames(&p->stacks, sched_stream_stacks_fd(p->stream), r, frames,
				       SCHED_STACK_FRAMES_MAX);

	return span_frames_of(frames, n, out, max);
}

static void on_queue(void *arg, __u32 tgid, const char *comm)
{
	sched_stacks_seen(arg, tgid, comm);
}

static void on_sample(void *arg, const void *data, size_t size)
{
	sched_stacks_sample(arg, data, size);
}

/* The streamed design's object, loaded (--sched-design stream). */
static int stream_open(struct collector *c, struct sched_priv *p, const struct tp_spec *specs)
{
	int err;

	sched_stacks_init(&p->stacks, c->config ? c->config->stacks : NULL);
	p->stream = sched_stream_open(p->tps, specs, NEVENTS, specs[SCHED_EV_ADD_DEP].event != NULL,
				      p->stacks.sf != NULL, test_hook_u64("SPIN_NS", 0, 100000), &err);
	if (!p->stream) {
		collector_load_failed(c, err);
		return -1;
	}
	p->ring_ids_fd = sched_stream_ring_ids_fd(p->stream);
	if (c->config && c->config->job_sink) {
		p->spans.active = c->config->job_sink->active;
		p->spans_on = true;
		p->span_stacks.frames = span_frames;
		if (p->stacks.sf)
			p->spans.stacks = &p->span_stacks;
	}
	if (p->spans_on || p->stacks.sf)
		sched_stream_on_job(p->stream, on_job, p);
	if (p->stacks.sf) {
		sched_stream_on_queue(p->stream, on_queue, &p->stacks);
		if ((err = sched_stream_on_sample(p->stream, on_sample, &p->stacks))) {
			collector_load_failed(c, err);
			return -1;
		}
	}
	detail_design(c, "streamed to user space");
	return 0;
}

static int sched_open(struct collector *c)
{
	struct sched_priv *p = c->priv;
	struct tp_spec specs[NEVENTS];
	int err;

	p->value = malloc(sizeof(*p->value));
	p->sm = sched_model_new();
	if (!p->value || !p->sm) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	sched_specs(specs, p->new_gen);
	if (c->config && c->config->sched_stream)
		return stream_open(c, p, specs);
	p->skel = drm_sched_bpf__open();
	if (!p->skel) {
		collector_set_state(c, COLLECTOR_FAILED, "cannot open the BPF object", NULL);
		return -1;
	}
	if (tp_progs_open(p->tps, specs, NEVENTS, p->skel->obj, &p->skel->bss->rescued[0][0])) {
		collector_load_failed(c, -ENOENT);
		return -1;
	}
	p->skel->rodata->track_deps = specs[SCHED_EV_ADD_DEP].event != NULL;
#ifdef GPUTOP_TEST_HOOKS
	/* the primaries wait this long (at most 100 us) on every event: nesting for the twins */
	p->skel->rodata->test_spin_ns = test_hook_u64("SPIN_NS", 0, 100000);
#endif
	err = drm_sched_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	p->ring_ids_fd = bpf_map__fd(p->skel->maps.ring_ids);
	detail_design(c, "jobs followed in maps");
	return 0;
}

static int sched_attach(struct collector *c)
{
	struct sched_priv *p = c->priv;

	/* jobs that started before it are not ours to count */
	if (p->stream)
		sched_stream_set_attach_ns(p->stream, mono_ns());
	else
		p->skel->bss->attach_ns = mono_ns();
	if (!tp_progs_attach(c, p->tps, NTPS)) {
		collector_set_state(c, COLLECTOR_FAILED, "no gpu_scheduler program could be attached",
				    "run with -v to see libbpf's messages");
		return -1;
	}
	if (p->stream && sched_stream_start(p->stream)) {
		collector_set_state(c, COLLECTOR_FAILED,
				    "cannot start the thread that drains the ring buffer", NULL);
		return -1;
	}
	return 0;
}

static void ring_counters_from(struct ring_counters *rc, const struct ring_key *key,
			       const struct ring_stats *v, uint64_t gen, uint64_t now, bool new_gen)
{
	memset(rc, 0, sizeof(*rc));
	snprintf(rc->dev, sizeof(rc->dev), "%.*s", DEV_NAME_LEN - 1, key->dev);
	snprintf(rc->name, sizeof(rc->name), "%.*s", RING_NAME_LEN - 1, key->name);
	rc->queued = v->queued;
	rc->started = v->started;
	rc->completed = v->completed;
	rc->dep_waits = v->dep_waits;
	rc->deps = v->deps;
	rc->deps_known = new_gen; /* <= 6.16 has no add_dep event */
	rc->wait_ns = v->wait_ns;
	rc->exec_ns = v->exec_ns;
	rc->busy_ns = v->busy_ns;
	if (v->busy_since_ns && now > v->busy_since_ns)
		rc->busy_ns += now - v->busy_since_ns;
	if (v->gen == gen) {
		rc->max_queue_depth = v->max_queue_depth;
		rc->max_in_flight = v->max_in_flight;
		rc->max_wait_ns = v->max_wait_ns;
		rc->max_exec_ns = v->max_exec_ns;
	}
	memcpy(rc->wait_hist.slots, v->hist_wait, sizeof(rc->wait_hist.slots));
	memcpy(rc->exec_hist.slots, v->hist_exec, sizeof(rc->exec_hist.slots));
}

/*
 * Whether a ring's device is gone (its driver's module removed): no device of
 * that name on any bus. A name we cannot look up safely counts as present.
 */
static bool ring_device_gone(const char *dev)
{
	char pattern[64 + DEV_NAME_LEN];
	glob_t g;
	int rc;

	if (!*dev || strspn(dev, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:.-_") !=
			     strlen(dev))
		return false;
	snprintf(pattern, sizeof(pattern), "/sys/bus/*/devices/%s", dev);
	rc = glob(pattern, GLOB_NOSORT, NULL, &g);
	if (!rc)
		globfree(&g);
	return rc == GLOB_NOMATCH;
}

/* A ring's counters: the map design's map, or the streamed design's matcher; NULL when none. */
static const struct ring_stats *ring_value(struct sched_priv *p, __u32 id)
{
	if (p->match)
		return sched_match_ring(p->match, id);
	if (bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.rings), &id, p->value))
		return NULL;
	return p->value;
}

/*
 * One ring (ring_ids: key -> index): its key remembered by index, its counters
 * fed; a ring whose device went away is forgotten, and its processes' rows too
 * (proc_row).
 */
static bool ring_row(const void *key, void *value, void *arg)
{
	struct sched_priv *p = arg;
	const struct ring_key *k = key;
	__u32 id = *(const __u32 *)value;
	const struct ring_stats *v;
	struct ring_counters rc;

	if (id >= SCHED_MAX_RINGS)
		return false;
	p->ring_keys[id] = *k;
	if (p->check_devices && ring_device_gone(k->dev)) {
		p->ring_gone[id] = true;
		return true;
	}
	v = ring_value(p, id);
	if (!v)
		return false;
	ring_counters_from(&rc, k, v, p->gen, p->now_ns, p->new_gen);
	sched_model_ring(p->sm, &rc);
	return false;
}

static bool process_alive(uint32_t tgid)
{
	return kill((pid_t)tgid, 0) == 0 || errno == EPERM;
}

/* One (process, ring) row fed; forgotten when the process exited or its ring's device went away. */
static bool proc_row(const void *key, void *value, void *arg)
{
	struct sched_priv *p = arg;
	const struct proc_key *k = key;
	const struct proc_stats *v = value;
	struct proc_counters pc;

	if (k->ring >= SCHED_MAX_RINGS)
		return false;
	if (p->ring_gone[k->ring])
		return true;
	memset(&pc, 0, sizeof(pc));
	pc.pid = k->tgid;
	snprintf(pc.comm, sizeof(pc.comm), "%.*s", TASK_COMM_LEN - 1, v->comm);
	snprintf(pc.dev, sizeof(pc.dev), "%.*s", DEV_NAME_LEN - 1, p->ring_keys[k->ring].dev);
	snprintf(pc.ring, sizeof(pc.ring), "%.*s", RING_NAME_LEN - 1, p->ring_keys[k->ring].name);
	pc.queued = v->queued;
	pc.completed = v->completed;
	pc.wait_ns = v->wait_ns;
	pc.busy_ns = v->busy_ns;
	if (v->in_flight && v->busy_since_ns && p->now_ns > v->busy_since_ns)
		pc.busy_ns += p->now_ns - v->busy_since_ns;
	sched_model_proc(p->sm, &pc);
	return !process_alive(k->tgid); /* shown once more, then forgotten */
}

/* The rings (named by ring_ids) and the (process, ring) pairs into the model. */
static void read_rows(struct sched_priv *p, struct model *m)
{
	p->now_ns = mono_ns();
	if (map_walk(p->ring_ids_fd, sizeof(struct ring_key), sizeof(__u32), ring_row, p) >= 0)
		p->check_devices = false;
	if (p->match)
		sched_match_procs(p->match, proc_row, p);
	else
		map_walk(bpf_map__fd(p->skel->maps.procs), sizeof(struct proc_key),
			 sizeof(struct proc_stats), proc_row, p);
	sched_model_publish(p->sm, m);
}

/* The streamed design: the matcher's counters, its losses and the ring buffer's. */
/* --stacks: drm_sched.stacks from the sums, the rings named as read_rows found them. */
static void read_stacks(struct collector *c, struct sched_priv *p, struct model *m)
{
	size_t left;

	if (!p->stacks.sf)
		return;
	sched_stacks_rows(&p->stacks, sched_stream_stacks_fd(p->stream), p->ring_keys, stack_rows_add,
			  &p->stack_rows);
	left = stack_rows_table(&p->stack_rows, model_table(m, &sched_stacks_table));
	collector_set_drop(c, "stacks_past_table_rows", left);
	collector_set_drop(c, "stacks_jobs_not_kept", p->stacks.sf->lost);
	collector_set_drop(c, "stack_copies_lost", p->stacks.dwarf.lost + sched_stream_samples_lost(p->stream));
}

static void read_stream(struct collector *c, struct sched_priv *p, struct model *m)
{
	__u64 drops[STREAM_DROPS];
	const char *names[STREAM_DROPS];
	const __u64 *rb_full = sched_stream_rb_full(p->stream);

	p->match = sched_stream_lock(p->stream);
	read_rows(p, m);
	read_stacks(c, p, m);
	if (c->config && c->config->job_sink) /* the rings named now */
		job_spans_flush(&p->spans, p->ring_keys, c->config->job_sink);
	p->gen++;
	sched_match_interval(p->match, p->gen); /* maxima from now on: the next read's */
	memcpy(drops, sched_match_drops(p->match), SCHED_DROP_MAX * sizeof(*drops));
	drops[SCHED_DROP_RING_FULL] = sched_stream_ring_full(p->stream);
	memcpy(names, drop_names, sizeof(drop_names));
	names[SCHED_DROP_JOB_FULL] = "job_table_evicted"; /* its table is in user space */
	for (size_t i = 0; i < SCHED_EV_MAX; i++) {
		drops[SCHED_DROP_MAX + i] = ((volatile const __u64 *)rb_full)[i];
		names[SCHED_DROP_MAX + i] = rb_full_names[i];
	}
	collector_set_drops(c, names, drops, STREAM_DROPS);
	tp_progs_report(c, p->tps, NTPS, m); /* the matcher's rescues: under its lock */
	sched_stream_unlock(p->stream);
	p->match = NULL;
}

static int sched_read(struct collector *c, struct model *m)
{
	struct sched_priv *p = c->priv;
	uint64_t gen;

	if (p->stream) {
		read_stream(c, p, m);
		return 0;
	}
	gen = p->skel->bss->tick_gen;
	p->gen = gen;
	read_rows(p, m);
	/* A new interval: maxima recorded from now on belong to the next read. */
	p->skel->bss->tick_gen = gen + 1;
	collector_set_drops(c, drop_names, p->skel->bss->drops, SCHED_DROP_MAX);
	tp_progs_report(c, p->tps, NTPS, m); /* and the runs the kernel skipped */
	return 0;
}

/* A ring's key remembered by its index, for the stacks' leaf frames. */
static bool ring_name(const void *key, void *value, void *arg)
{
	struct sched_priv *p = arg;
	__u32 id = *(const __u32 *)value;

	if (id < SCHED_MAX_RINGS)
		p->ring_keys[id] = *(const struct ring_key *)key;
	return false;
}

/* --stacks: the jobs drained until now, summed, written while the stacks map is there. */
static void stacks_write(struct sched_priv *p)
{
	if (!p->stream || !p->stacks.sf)
		return;
	sched_stream_lock(p->stream);
	map_walk(p->ring_ids_fd, sizeof(struct ring_key), sizeof(__u32), ring_name, p);
	p->stacks.dwarf.lost += sched_stream_samples_lost(p->stream);
	sched_stacks_write(&p->stacks, sched_stream_stacks_fd(p->stream), p->ring_keys);
	sched_stream_unlock(p->stream);
}

static void sched_close(struct collector *c)
{
	struct sched_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NTPS);
	stacks_write(p);
	sched_stream_close(p->stream);
	sched_stacks_free(&p->stacks);
	stack_rows_free(&p->stack_rows);
	job_spans_free(&p->spans);
	drm_sched_bpf__destroy(p->skel);
	sched_model_free(p->sm);
	free(p->value);
	free(p);
}

static void sched_module_removed(struct collector *c)
{
	struct sched_priv *p = c->priv;

	if (p)
		p->check_devices = true;
}

static const struct collector_ops drm_sched_collector = {
	.name = "drm_sched", /* id */
	.order = 20,
	.description = "DRM GPU scheduler: rings, jobs, queue and execution latency, processes",
	.modules = (const char *const[]){ "gpu_sched", NULL },
	.modules_fix = "load a driver built on drm_sched (amdgpu, xe, nouveau, v3d, panfrost, etnaviv ...)",
	.probe = sched_probe, /* tracepoint generation by existence */
	.open = sched_open, /* autoload only this kernel's generation */
	.attach = sched_attach, /* per program, failures recorded */
	.read = sched_read, /* maps -> model, once per tick */
	.close = sched_close,
	.module_removed = sched_module_removed, /* a ring whose device went with it goes too */
};
COLLECTOR_REGISTER(drm_sched_collector);
