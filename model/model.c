// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "array.h"
#include "model.h"

struct ring_state {
	struct ring_counters last;
	double max_wait_ns, max_exec_ns; /* since start */
	struct ring_histories hist;
	struct ring_snap snap; /* this tick's derived values */
	bool seen;
};

struct proc_state {
	struct proc_counters last;
	struct proc_counters delta;
	bool seen;
};

/* A growable array of fixed-size items. */
struct vec {
	void *items;
	size_t n, cap, size;
};

struct model {
	uint64_t start_ns, last_ns, now_ns;
	uint64_t seq;
	double interval_s;
	uint32_t pid_filter;
	char hostname[64], kernel[64];
	struct vec rings, procs, devices, collectors;
	struct table **tables; /* this tick's collector tables, moved into its snapshot */
	size_t ntables;
};

static void *vec_push(struct vec *v)
{
	return array_push(&v->items, &v->n, &v->cap, v->size);
}

static void *vec_at(const struct vec *v, size_t i)
{
	return (char *)v->items + i * v->size;
}

/* Copies the vector's items into a new array (NULL when empty or on failure). */
static void *vec_dup(const struct vec *v, size_t *n, bool *failed)
{
	void *p;

	*n = v->n;
	if (!v->n)
		return NULL;
	p = malloc(v->n * v->size);
	if (!p) {
		*failed = true;
		*n = 0;
		return NULL;
	}
	memcpy(p, v->items, v->n * v->size);
	return p;
}

struct model *model_new(uint64_t start_ns)
{
	struct model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->start_ns = m->last_ns = m->now_ns = start_ns;
	m->rings.size = sizeof(struct ring_state);
	m->procs.size = sizeof(struct proc_state);
	m->devices.size = sizeof(struct device_snap);
	m->collectors.size = sizeof(struct collector_status);
	return m;
}

static void drop_pending(struct model *m)
{
	for (size_t i = 0; i < m->collectors.n; i++)
		collector_status_clear(vec_at(&m->collectors, i));
	m->collectors.n = 0;
	for (size_t i = 0; i < m->ntables; i++)
		table_free(m->tables[i]);
	free(m->tables);
	m->tables = NULL;
	m->ntables = 0;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	drop_pending(m);
	free(m->rings.items);
	free(m->procs.items);
	free(m->devices.items);
	free(m->collectors.items);
	free(m);
}

void model_set_host(struct model *m, const char *hostname, const char *kernel)
{
	snprintf(m->hostname, sizeof(m->hostname), "%s", hostname);
	snprintf(m->kernel, sizeof(m->kernel), "%s", kernel);
}

void model_set_pid_filter(struct model *m, uint32_t pid)
{
	m->pid_filter = pid;
}

void model_tick_begin(struct model *m, uint64_t now_ns)
{
	m->now_ns = now_ns;
	m->interval_s = (double)(now_ns - m->last_ns) / 1e9;
	if (m->interval_s <= 0)
		m->interval_s = 1e-9;
	m->devices.n = 0;
	drop_pending(m);
	for (size_t i = 0; i < m->rings.n; i++)
		((struct ring_state *)vec_at(&m->rings, i))->seen = false;
	for (size_t i = 0; i < m->procs.n; i++)
		((struct proc_state *)vec_at(&m->procs, i))->seen = false;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ring_histories_push(struct ring_histories *h, struct ring_snap *s)
{
	history_push(&h->completed_per_s, s->completed_per_s);
	history_push(&h->exec_p50_ns, s->exec.p50_ns);
	history_push(&h->wait_p50_ns, s->wait.p50_ns);
	history_push(&h->busy_pct, s->busy_pct);
	s->hist_completed_per_s = h->completed_per_s;
	s->hist_exec_p50_ns = h->exec_p50_ns;
	s->hist_wait_p50_ns = h->wait_p50_ns;
	s->hist_busy_pct = h->busy_pct;
}

static struct ring_state *ring_find(struct model *m, const char *dev, const char *name)
{
	for (size_t i = 0; i < m->rings.n; i++) {
		struct ring_state *r = vec_at(&m->rings, i);

		if (!strcmp(r->last.dev, dev) && !strcmp(r->last.name, name))
			return r;
	}
	return NULL;
}

int model_ring_update(struct model *m, const struct ring_counters *rc)
{
	struct ring_state *r = ring_find(m, rc->dev, rc->name);
	struct ring_snap *s;
	struct histogram delta;
	double iv = m->interval_s;

	if (!r) {
		r = vec_push(&m->rings);
		if (!r)
			return -1;
		memcpy(r->last.dev, rc->dev, NAME_LEN);
		memcpy(r->last.name, rc->name, NAME_LEN);
	}
	s = &r->snap;
	memset(s, 0, sizeof(*s));
	memcpy(s->dev, rc->dev, NAME_LEN);
	memcpy(s->name, rc->name, NAME_LEN);
	s->queued_total = rc->queued;
	s->started_total = rc->started;
	s->completed_total = rc->completed;
	s->dep_waits_total = rc->dep_waits;
	s->deps_total = rc->deps;
	s->queued_per_s = (double)sub0(rc->queued, r->last.queued) / iv;
	s->completed_per_s = (double)sub0(rc->completed, r->last.completed) / iv;
	s->dep_waits_per_s = (double)sub0(rc->dep_waits, r->last.dep_waits) / iv;
	s->queue_depth = (uint32_t)sub0(rc->queued, rc->started);
	s->in_flight = (uint32_t)sub0(rc->started, rc->completed);
	s->queue_depth_max = rc->max_queue_depth > s->queue_depth ? rc->max_queue_depth :
								      s->queue_depth;
	s->in_flight_max = rc->max_in_flight > s->in_flight ? rc->max_in_flight : s->in_flight;
	s->busy_pct = (double)sub0(rc->busy_ns, r->last.busy_ns) / (iv * 1e9) * 100.0;
	if (s->busy_pct > 100)
		s->busy_pct = 100;

	histogram_delta(&delta, &rc->wait_hist, &r->last.wait_hist);
	histogram_summarize(&delta, (double)sub0(rc->wait_ns, r->last.wait_ns),
			    (double)rc->max_wait_ns, &s->wait);
	histogram_delta(&delta, &rc->exec_hist, &r->last.exec_hist);
	histogram_summarize(&delta, (double)sub0(rc->exec_ns, r->last.exec_ns),
			    (double)rc->max_exec_ns, &s->exec);
	if (s->wait.count && s->wait.max_ns > r->max_wait_ns)
		r->max_wait_ns = s->wait.max_ns;
	if (s->exec.count && s->exec.max_ns > r->max_exec_ns)
		r->max_exec_ns = s->exec.max_ns;
	histogram_summarize(&rc->wait_hist, (double)rc->wait_ns, r->max_wait_ns, &s->wait_total);
	histogram_summarize(&rc->exec_hist, (double)rc->exec_ns, r->max_exec_ns, &s->exec_total);
	s->wait_hist = rc->wait_hist;
	s->exec_hist = rc->exec_hist;

	ring_histories_push(&r->hist, s);

	r->last = *rc;
	r->seen = true;
	return 0;
}

static struct proc_state *proc_find(struct model *m, const struct proc_counters *pc)
{
	for (size_t i = 0; i < m->procs.n; i++) {
		struct proc_state *p = vec_at(&m->procs, i);

		if (p->last.pid == pc->pid && !strcmp(p->last.dev, pc->dev) &&
		    !strcmp(p->last.ring, pc->ring))
			return p;
	}
	return NULL;
}

int model_proc_update(struct model *m, const struct proc_counters *pc)
{
	struct proc_state *p;

	if (m->pid_filter && pc->pid != m->pid_filter)
		return 0;
	p = proc_find(m, pc);
	if (!p) {
		p = vec_push(&m->procs);
		if (!p)
			return -1;
		p->last.pid = pc->pid;
		memcpy(p->last.dev, pc->dev, NAME_LEN);
		memcpy(p->last.ring, pc->ring, NAME_LEN);
	}
	p->delta = *pc;
	p->delta.queued = sub0(pc->queued, p->last.queued);
	p->delta.completed = sub0(pc->completed, p->last.completed);
	p->delta.wait_ns = sub0(pc->wait_ns, p->last.wait_ns);
	p->delta.exec_ns = sub0(pc->exec_ns, p->last.exec_ns);
	p->last = *pc;
	p->seen = true;
	return 0;
}

int model_device_add(struct model *m, const struct device_snap *d)
{
	struct device_snap *slot = vec_push(&m->devices);

	if (!slot)
		return -1;
	*slot = *d;
	return 0;
}

int model_collector_status(struct model *m, const struct collector_status *st)
{
	struct collector_status *slot = vec_push(&m->collectors);

	if (!slot)
		return -1;
	if (collector_status_copy(slot, st)) {
		m->collectors.n--;
		return -1;
	}
	return 0;
}

struct table *model_table(struct model *m, const struct table_desc *d)
{
	struct table **grown;

	for (size_t i = 0; i < m->ntables; i++)
		if (m->tables[i]->desc == d)
			return m->tables[i];
	grown = reallocarray(m->tables, m->ntables + 1, sizeof(*grown));
	if (!grown)
		return NULL;
	m->tables = grown;
	grown[m->ntables] = table_new(d);
	if (!grown[m->ntables])
		return NULL;
	return grown[m->ntables++];
}

/* Removes the items whose seen flag (at offset seen_off) is false. */
static void vec_keep_seen(struct vec *v, size_t seen_off)
{
	size_t w = 0;

	for (size_t i = 0; i < v->n; i++) {
		char *item = vec_at(v, i);

		if (!*(bool *)(item + seen_off))
			continue;
		if (w != i)
			memcpy(vec_at(v, w), item, v->size);
		w++;
	}
	v->n = w;
}

static size_t snap_ring_index(const struct snapshot *s, const char *dev, const char *name)
{
	for (size_t i = 0; i < s->nrings; i++)
		if (!strcmp(s->rings[i].dev, dev) && !strcmp(s->rings[i].name, name))
			return i;
	return (size_t)-1;
}

static int build_procs(struct model *m, struct snapshot *s)
{
	double iv = m->interval_s, all_gpu_ns = 0;
	size_t nrows = 0;

	s->procs = calloc(m->procs.n ? m->procs.n : 1, sizeof(*s->procs));
	s->proc_rings = calloc(m->procs.n ? m->procs.n : 1, sizeof(*s->proc_rings));
	if (!s->procs || !s->proc_rings)
		return -1;
	for (size_t i = 0; i < m->procs.n; i++) {
		struct proc_state *p = vec_at(&m->procs, i);
		struct proc_snap *row = NULL;
		struct proc_ring_snap *pr;

		if (!p->seen)
			continue;
		for (size_t j = 0; j < s->nprocs && !row; j++)
			if (s->procs[j].pid == p->last.pid)
				row = &s->procs[j];
		if (!row) {
			row = &s->procs[s->nprocs++];
			row->pid = p->last.pid;
			memcpy(row->comm, p->last.comm, COMM_LEN);
		}
		row->jobs_per_s += (double)p->delta.queued / iv;
		row->completed_per_s += (double)p->delta.completed / iv;
		row->jobs_total += p->last.queued;
		row->gpu_ns += (double)p->delta.exec_ns;
		row->gpu_ns_total += p->last.exec_ns;
		row->wait_mean_ns += (double)p->delta.wait_ns; /* a sum until divided below */
		all_gpu_ns += (double)p->delta.exec_ns;

		pr = &s->proc_rings[nrows];
		pr->ring = snap_ring_index(s, p->last.dev, p->last.ring);
		if (pr->ring == (size_t)-1)
			continue;
		pr->pid = p->last.pid;
		pr->jobs_per_s = (double)p->delta.queued / iv;
		pr->gpu_pct = (double)p->delta.exec_ns / (iv * 1e9) * 100.0;
		pr->jobs_total = p->last.queued;
		nrows++;
	}
	s->nproc_rings = nrows;
	for (size_t j = 0; j < s->nprocs; j++) {
		struct proc_snap *row = &s->procs[j];
		double started = row->jobs_per_s * iv;

		row->gpu_pct = row->gpu_ns / (iv * 1e9) * 100.0;
		row->gpu_share_pct = all_gpu_ns > 0 ? row->gpu_ns / all_gpu_ns * 100.0 : 0;
		row->wait_mean_ns = started > 0 ? row->wait_mean_ns / started : 0;
	}
	return 0;
}

struct snapshot *model_tick_end(struct model *m)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	bool failed = false;

	if (!s)
		return NULL;
	s->seq = ++m->seq;
	s->interval_s = m->interval_s;
	s->uptime_s = (double)(m->now_ns - m->start_ns) / 1e9;
	clock_gettime(CLOCK_REALTIME, &s->wall);
	memcpy(s->hostname, m->hostname, sizeof(s->hostname));
	memcpy(s->kernel, m->kernel, sizeof(s->kernel));

	vec_keep_seen(&m->rings, offsetof(struct ring_state, seen));
	s->collectors = vec_dup(&m->collectors, &s->ncollectors, &failed);
	if (s->collectors)
		m->collectors.n = 0; /* their lists now belong to the snapshot */
	s->tables = m->tables;
	s->ntables = m->ntables;
	m->tables = NULL;
	m->ntables = 0;
	s->devices = vec_dup(&m->devices, &s->ndevices, &failed);
	if (m->rings.n) {
		s->rings = calloc(m->rings.n, sizeof(*s->rings));
		failed |= !s->rings;
		for (size_t i = 0; s->rings && i < m->rings.n; i++)
			s->rings[s->nrings++] = ((struct ring_state *)vec_at(&m->rings, i))->snap;
	}
	if (!failed && build_procs(m, s))
		failed = true;
	vec_keep_seen(&m->procs, offsetof(struct proc_state, seen));
	m->last_ns = m->now_ns;
	if (failed) {
		snapshot_free(s);
		return NULL;
	}
	return s;
}

double model_interval_s(const struct model *m)
{
	return m->interval_s;
}
