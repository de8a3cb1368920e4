// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "json_read.h"
#include "json_tables.h"

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double num(json_object *o, const char *key)
{
	json_object *v = field(o, key);

	return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) ?
		       json_object_get_double(v) :
		       0;
}

static uint64_t u64(json_object *o, const char *key)
{
	json_object *v = field(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		return (uint64_t)num(o, key);
	return json_object_get_uint64(v);
}

static void str(json_object *o, const char *key, char *dst, size_t size)
{
	json_object *v = field(o, key);

	snprintf(dst, size, "%s", v && json_object_is_type(v, json_type_string) ?
					  json_object_get_string(v) : "");
}

/* The array at key, or NULL; *n its length. */
static json_object *array(json_object *o, const char *key, size_t *n)
{
	json_object *v = field(o, key);

	if (!v || !json_object_is_type(v, json_type_array)) {
		*n = 0;
		return NULL;
	}
	*n = json_object_array_length(v);
	return v;
}

static void latency(json_object *o, const char *key, struct latency_summary *l)
{
	json_object *v = field(o, key);

	if (!v)
		return;
	l->count = u64(v, "count");
	l->mean_ns = num(v, "mean");
	l->p50_ns = num(v, "p50");
	l->p90_ns = num(v, "p90");
	l->p99_ns = num(v, "p99");
	l->max_ns = num(v, "max");
}

static void histogram(json_object *o, const char *key, struct histogram *h)
{
	size_t n;
	json_object *arr = array(o, key, &n);

	for (size_t i = 0; i < n; i++) {
		json_object *pair = json_object_array_get_idx(arr, i);

		if (json_object_is_type(pair, json_type_array) && json_object_array_length(pair) == 2)
			h->slots[hist_slot(json_object_get_uint64(json_object_array_get_idx(pair, 0)))] +=
				json_object_get_uint64(json_object_array_get_idx(pair, 1));
	}
}

static int ring_from(json_object *o, struct ring_snap *r)
{
	str(o, "dev", r->dev, sizeof(r->dev));
	str(o, "name", r->name, sizeof(r->name));
	r->queued_total = u64(o, "queued_total");
	r->started_total = u64(o, "started_total");
	r->completed_total = u64(o, "completed_total");
	r->queued_per_s = num(o, "queued_per_s");
	r->completed_per_s = num(o, "completed_per_s");
	r->queue_depth = (uint32_t)u64(o, "queue_depth");
	r->queue_depth_max = (uint32_t)u64(o, "queue_depth_max");
	r->in_flight = (uint32_t)u64(o, "in_flight");
	r->in_flight_max = (uint32_t)u64(o, "in_flight_max");
	r->busy_pct = num(o, "busy_pct");
	r->dep_waits_total = u64(o, "dep_waits_total");
	r->dep_waits_per_s = num(o, "dep_waits_per_s");
	r->deps_total = u64(o, "deps_total");
	latency(o, "wait_ns", &r->wait);
	latency(o, "exec_ns", &r->exec);
	latency(o, "wait_ns_total", &r->wait_total);
	latency(o, "exec_ns_total", &r->exec_total);
	histogram(o, "wait_hist_total", &r->wait_hist);
	histogram(o, "exec_hist_total", &r->exec_hist);
	return 0;
}

static size_t ring_index(const struct snapshot *s, const char *dev, const char *name)
{
	for (size_t i = 0; i < s->nrings; i++)
		if (!strcmp(s->rings[i].dev, dev) && !strcmp(s->rings[i].name, name))
			return i;
	return (size_t)-1;
}

static int procs_from(json_object *root, struct snapshot *s)
{
	size_t n, nrows = 0;
	json_object *arr = array(root, "processes", &n);

	s->procs = calloc(n ? n : 1, sizeof(*s->procs));
	if (!s->procs)
		return -1;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *rings;
		struct proc_snap *p = &s->procs[s->nprocs++];
		size_t nr;

		p->pid = (uint32_t)u64(o, "pid");
		str(o, "comm", p->comm, sizeof(p->comm));
		p->jobs_per_s = num(o, "jobs_per_s");
		p->completed_per_s = num(o, "completed_per_s");
		p->jobs_total = u64(o, "jobs_total");
		p->gpu_ns = num(o, "gpu_ns");
		p->gpu_pct = num(o, "gpu_pct");
		p->gpu_share_pct = num(o, "gpu_share_pct");
		p->wait_mean_ns = num(o, "wait_mean_ns");
		p->gpu_ns_total = u64(o, "gpu_ns_total");
		rings = array(o, "rings", &nr);
		for (size_t j = 0; j < nr; j++) {
			json_object *ro = json_object_array_get_idx(rings, j);
			struct proc_ring_snap *pr, *grown;
			char dev[NAME_LEN], name[NAME_LEN];

			str(ro, "dev", dev, sizeof(dev));
			str(ro, "name", name, sizeof(name));
			grown = realloc(s->proc_rings, (nrows + 1) * sizeof(*grown));
			if (!grown)
				return -1;
			s->proc_rings = grown;
			pr = &s->proc_rings[nrows];
			pr->ring = ring_index(s, dev, name);
			if (pr->ring == (size_t)-1)
				continue;
			pr->pid = p->pid;
			pr->jobs_per_s = num(ro, "jobs_per_s");
			pr->gpu_pct = num(ro, "gpu_pct");
			pr->jobs_total = u64(ro, "jobs_total");
			s->nproc_rings = ++nrows;
		}
	}
	return 0;
}

static int collector_from(json_object *o, struct collector_status *c)
{
	static const char *const states[] = { "attached", "unavailable", "failed" };
	static const char *const tp_states[] = { "attached", "available", "missing", "failed" };
	json_object *tps, *drops;
	char state[32];
	size_t n;

	str(o, "name", c->name, sizeof(c->name));
	str(o, "description", c->description, sizeof(c->description));
	str(o, "reason", c->reason, sizeof(c->reason));
	str(o, "fix", c->fix, sizeof(c->fix));
	str(o, "detail", c->detail, sizeof(c->detail));
	str(o, "state", state, sizeof(state));
	c->state = COLLECTOR_FAILED;
	for (unsigned int i = 0; i < 3; i++)
		if (!strcmp(state, states[i]))
			c->state = (enum collector_state)i;
	tps = array(o, "tracepoints", &n);
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tps, i);
		struct tracepoint_status *tp = collector_status_add_tracepoint(c);

		if (!tp)
			return -1;

		str(t, "group", tp->group, sizeof(tp->group));
		str(t, "event", tp->event, sizeof(tp->event));
		str(t, "note", tp->note, sizeof(tp->note));
		str(t, "state", state, sizeof(state));
		tp->state = TRACEPOINT_FAILED;
		for (unsigned int k = 0; k < 4; k++)
			if (!strcmp(state, tp_states[k]))
				tp->state = (enum tracepoint_state)k;
	}
	drops = field(o, "drops");
	if (drops && json_object_is_type(drops, json_type_object)) {
		json_object_object_foreach(drops, key, val)
		{
			if (collector_status_set_drop(c, key, json_object_get_uint64(val)))
				return -1;
		}
	}
	return 0;
}

#define ARRAY_FROM(root, key, out, count, fill)                                  \
	do {                                                                     \
		size_t n_;                                                       \
		json_object *arr_ = array(root, key, &n_);                       \
		(out) = calloc(n_ ? n_ : 1, sizeof(*(out)));                     \
		if (!(out))                                                      \
			goto oom;                                                \
		for (size_t i_ = 0; i_ < n_; i_++) {                             \
			json_object *o_ = json_object_array_get_idx(arr_, i_);   \
			if (!json_object_is_type(o_, json_type_object))          \
				continue;                                        \
			if (fill(o_, &(out)[(count)++]))                         \
				goto oom;                                        \
		}                                                                \
	} while (0)

static int device_from(json_object *o, struct device_snap *d)
{
	str(o, "name", d->name, sizeof(d->name));
	str(o, "driver", d->driver, sizeof(d->driver));
	str(o, "bus_id", d->bus_id, sizeof(d->bus_id));
	return 0;
}

struct snapshot *snapshot_from_json(const char *line, char *err, size_t errlen)
{
	enum json_tokener_error jerr;
	json_object *root = json_tokener_parse_verbose(line, &jerr), *host;
	struct snapshot *s;
	double ts;

	if (!root) {
		snprintf(err, errlen, "not JSON: %s", json_tokener_error_desc(jerr));
		return NULL;
	}
	if (!json_object_is_type(root, json_type_object) || !field(root, "seq") ||
	    !field(root, "rings")) {
		snprintf(err, errlen, "%s", field(root, "error") ?
					   "an error record, not a snapshot" :
					   "not a gputop-bpf snapshot (no \"seq\" or \"rings\")");
		json_object_put(root);
		return NULL;
	}
	if (u64(root, "format") > RECORDING_FORMAT) {
		json_object *v = field(root, "version");

		snprintf(err, errlen,
			 "recording format %llu, made by gputop-bpf %s; this build reads formats 1 to %d: "
			 "replay it with that version or newer",
			 (unsigned long long)u64(root, "format"),
			 v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) :
									 "(unknown)",
			 RECORDING_FORMAT);
		json_object_put(root);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	s->seq = u64(root, "seq");
	s->interval_s = num(root, "interval_s");
	s->uptime_s = num(root, "uptime_s");
	ts = num(root, "timestamp");
	s->wall.tv_sec = (time_t)ts;
	s->wall.tv_nsec = (long)((ts - (double)s->wall.tv_sec) * 1e9);
	host = field(root, "host");
	if (host) {
		str(host, "hostname", s->hostname, sizeof(s->hostname));
		str(host, "kernel", s->kernel, sizeof(s->kernel));
	}
	ARRAY_FROM(root, "collectors", s->collectors, s->ncollectors, collector_from);
	ARRAY_FROM(root, "devices", s->devices, s->ndevices, device_from);
	ARRAY_FROM(root, "rings", s->rings, s->nrings, ring_from);
	if (procs_from(root, s) || tables_from_json(field(root, "tables"), s))
		goto oom;
	/* Format 1 (0.1.0) kept interrupt lines in an array of their own, with the same keys. */
	if (u64(root, "format") < 2 && table_from_json_rows("irq.lines", field(root, "interrupts"), s))
		goto oom;
	json_object_put(root);
	return s;
oom:
	snprintf(err, errlen, "out of memory");
	snapshot_free(s);
	json_object_put(root);
	return NULL;
}
