// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "collectors/drm_sched/sched_model.h"
#include "collectors/kit/cells.h"
#include "core/counter.h"
#include "collectors/drm_sched/sched_tables.h"

struct ring_state {
	struct ring_counters now, last;
	double max_wait_ns, max_exec_ns; /* since start */
	bool seen;
};

struct proc_state {
	struct proc_counters now, last;
	bool seen;
};

struct sched_model {
	struct ring_state *rings;
	size_t nrings, rings_cap;
	struct proc_state *procs;
	size_t nprocs, procs_cap;
};

struct sched_model *sched_model_new(void)
{
	return calloc(1, sizeof(struct sched_model));
}

void sched_model_free(struct sched_model *sm)
{
	if (!sm)
		return;
	free(sm->rings);
	free(sm->procs);
	free(sm);
}

/* Jobs counted in a that b has not reached yet (a depth: never below 0). */
static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

int sched_model_ring(struct sched_model *sm, const struct ring_counters *rc)
{
	struct ring_state *r = NULL;

	for (size_t i = 0; i < sm->nrings && !r; i++)
		if (!strcmp(sm->rings[i].now.dev, rc->dev) && !strcmp(sm->rings[i].now.name, rc->name))
			r = &sm->rings[i];
	if (!r) {
		r = array_push(&sm->rings, &sm->nrings, &sm->rings_cap, sizeof(*r));
		if (!r)
			return -1; /* a new ring's previous counters are zero: counted since attach */
	}
	r->now = *rc;
	r->seen = true;
	return 0;
}

int sched_model_proc(struct sched_model *sm, const struct proc_counters *pc)
{
	struct proc_state *p = NULL;

	for (size_t i = 0; i < sm->nprocs && !p; i++)
		if (sm->procs[i].now.pid == pc->pid && !strcmp(sm->procs[i].now.dev, pc->dev) &&
		    !strcmp(sm->procs[i].now.ring, pc->ring))
			p = &sm->procs[i];
	if (!p) {
		p = array_push(&sm->procs, &sm->nprocs, &sm->procs_cap, sizeof(*p));
		if (!p)
			return -1;
	}
	p->now = *pc;
	p->seen = true;
	return 0;
}

/* A latency summary into count/mean/p50/p90/p99/max columns; nothing known when there was no sample. */
static void put_latency(struct cell *row, const struct latency_summary *l, int count, int mean,
			int p50, int p90, int p99, int max)
{
	cell_set_u64(row, (unsigned int)count, l->count);
	if (!l->count)
		return;
	cell_set_f64(row, (unsigned int)mean, l->mean_ns);
	cell_set_f64(row, (unsigned int)p50, l->p50_ns);
	cell_set_f64(row, (unsigned int)p90, l->p90_ns);
	cell_set_f64(row, (unsigned int)p99, l->p99_ns);
	cell_set_f64(row, (unsigned int)max, l->max_ns);
}

static void ring_row(struct ring_state *r, struct cell *row, double iv)
{
	const struct ring_counters *rc = &r->now, *last = &r->last;
	struct latency_summary wait, exec, total;
	struct histogram delta;
	uint64_t depth = sub0(rc->queued, rc->started), infl = sub0(rc->started, rc->completed);
	double busy = (double)counter_delta(rc->busy_ns, last->busy_ns) / (iv * 1e9) * 100.0;

	cell_set_str(row, RING_NAME, rc->name);
	cell_set_str(row, RING_DEV, rc->dev);
	cell_set_u64(row, RING_QUEUED, rc->queued);
	cell_set_u64(row, RING_STARTED, rc->started);
	cell_set_u64(row, RING_DONE, rc->completed);
	cell_set_u64(row, RING_DEP_WAITS, rc->dep_waits);
	if (rc->deps_known)
		cell_set_u64(row, RING_DEPS, rc->deps);
	cell_set_rate(row, RING_QUEUED_PER_S, rc->queued, last->queued, iv);
	cell_set_rate(row, RING_DONE_PER_S, rc->completed, last->completed, iv);
	cell_set_rate(row, RING_DEP_WAITS_PER_S, rc->dep_waits, last->dep_waits, iv);
	cell_set_u64(row, RING_QUEUE, depth);
	cell_set_u64(row, RING_INFL, infl);
	cell_set_u64(row, RING_QUEUE_MAX, rc->max_queue_depth > depth ? rc->max_queue_depth : depth);
	cell_set_u64(row, RING_INFL_MAX, rc->max_in_flight > infl ? rc->max_in_flight : infl);
	cell_set_f64(row, RING_BUSY, busy > 100 ? 100 : busy);

	histogram_delta(&delta, &rc->wait_hist, &last->wait_hist);
	histogram_summarize(&delta, (double)counter_delta(rc->wait_ns, last->wait_ns),
			    (double)rc->max_wait_ns, &wait);
	put_latency(row, &wait, RING_WAIT_COUNT, RING_WAIT_MEAN, RING_WAIT_P50, RING_WAIT_P90,
		    RING_WAIT_P99, RING_WAIT_MAX);
	histogram_delta(&delta, &rc->exec_hist, &last->exec_hist);
	histogram_summarize(&delta, (double)counter_delta(rc->exec_ns, last->exec_ns),
			    (double)rc->max_exec_ns, &exec);
	put_latency(row, &exec, RING_EXEC_COUNT, RING_EXEC_MEAN, RING_EXEC_P50, RING_EXEC_P90,
		    RING_EXEC_P99, RING_EXEC_MAX);
	if (wait.count && wait.max_ns > r->max_wait_ns)
		r->max_wait_ns = wait.max_ns;
	if (exec.count && exec.max_ns > r->max_exec_ns)
		r->max_exec_ns = exec.max_ns;
	histogram_summarize(&rc->wait_hist, (double)rc->wait_ns, r->max_wait_ns, &total);
	put_latency(row, &total, RING_WAIT_TOTAL + LAT_COUNT, RING_WAIT_TOTAL + LAT_MEAN,
		    RING_WAIT_TOTAL + LAT_P50, RING_WAIT_TOTAL + LAT_P90, RING_WAIT_TOTAL + LAT_P99,
		    RING_WAIT_TOTAL + LAT_MAX);
	histogram_summarize(&rc->exec_hist, (double)rc->exec_ns, r->max_exec_ns, &total);
	put_latency(row, &total, RING_EXEC_TOTAL + LAT_COUNT, RING_EXEC_TOTAL + LAT_MEAN,
		    RING_EXEC_TOTAL + LAT_P50, RING_EXEC_TOTAL + LAT_P90, RING_EXEC_TOTAL + LAT_P99,
		    RING_EXEC_TOTAL + LAT_MAX);
	cell_set_hist(row, RING_WAIT_HIST, &rc->wait_hist);
	cell_set_hist(row, RING_EXEC_HIST, &rc->exec_hist);
}

/* The busy time of ring dev/name this interval, ns (INFINITY when it is not fed: no bound). */
static double ring_busy_ns(const struct sched_model *sm, const char *dev, const char *name)
{
	for (size_t i = 0; i < sm->nrings; i++) {
		const struct ring_state *r = &sm->rings[i];

		if (r->seen && !strcmp(r->now.dev, dev) && !strcmp(r->now.name, name))
			return (double)counter_delta(r->now.busy_ns, r->last.busy_ns);
	}
	return INFINITY;
}

/* A process's busy time on its ring this interval, at most the ring's. */
static double proc_busy_ns(const struct sched_model *sm, const struct proc_state *p)
{
	return fmin((double)counter_delta(p->now.busy_ns, p->last.busy_ns),
		    ring_busy_ns(sm, p->now.dev, p->now.ring));
}

/*
 * The process rows: one per PID, summed over its rings, and one per PID and ring.
 * GPU time is the time with one of its jobs on a ring's hardware: on one ring at
 * most that ring's busy time (the two spans are read a moment apart: bounded).
 */
static int publish_procs(struct sched_model *sm, struct model *m, double iv)
{
	struct table *procs = model_table(m, &sched_procs_table);
	struct table *pr = model_table(m, &sched_proc_rings_table);
	struct cell *row;
	double all_gpu_ns = 0;
	size_t first = procs ? procs->nrows : 0;

	if (!procs || !pr)
		return -1;
	for (size_t i = 0; i < sm->nprocs; i++) {
		const struct proc_state *p = &sm->procs[i];
		double queued = (double)counter_delta(p->now.queued, p->last.queued);
		double busy = proc_busy_ns(sm, p);

		if (!p->seen)
			continue;
		all_gpu_ns += busy;
		row = table_row_add(pr);
		if (!row)
			return -1;
		cell_set_u64(row, PR_PID, p->now.pid);
		cell_set_str(row, PR_DEV, p->now.dev);
		cell_set_str(row, PR_RING, p->now.ring);
		cell_set_f64(row, PR_JOBS_PER_S, queued / iv);
		cell_set_f64(row, PR_GPU, busy / (iv * 1e9) * 100.0);
		cell_set_u64(row, PR_JOBS, p->now.queued);
	}
	for (size_t i = 0; i < sm->nprocs; i++) {
		const struct proc_state *p = &sm->procs[i];
		double queued = 0, done = 0, wait = 0, gpu_ns = 0;
		uint64_t jobs = 0, gpu_ns_total = 0;
		char rings[256] = "";
		bool dup = false;

		if (!p->seen)
			continue;
		for (size_t k = first; k < procs->nrows && !dup; k++)
			dup = table_cell(procs, k, PROC_PID)->u == p->now.pid;
		if (dup)
			continue;
		for (size_t j = i; j < sm->nprocs; j++) { /* every ring of this PID */
			const struct proc_state *q = &sm->procs[j];

			if (!q->seen || q->now.pid != p->now.pid)
				continue;
			queued += (double)counter_delta(q->now.queued, q->last.queued);
			done += (double)counter_delta(q->now.completed, q->last.completed);
			wait += (double)counter_delta(q->now.wait_ns, q->last.wait_ns);
			gpu_ns += proc_busy_ns(sm, q);
			jobs += q->now.queued;
			gpu_ns_total += q->now.busy_ns;
			snprintf(rings + strlen(rings), sizeof(rings) - strlen(rings), "%s%s",
				 rings[0] ? "," : "", q->now.ring);
		}
		row = table_row_add(procs);
		if (!row)
			return -1;
		cell_set_u64(row, PROC_PID, p->now.pid);
		cell_set_str(row, PROC_COMM, p->now.comm);
		cell_set_f64(row, PROC_JOBS_PER_S, queued / iv);
		cell_set_f64(row, PROC_DONE_PER_S, done / iv);
		cell_set_u64(row, PROC_JOBS, jobs);
		cell_set_f64(row, PROC_GPU_NS, gpu_ns);
		cell_set_u64(row, PROC_GPU_NS_TOTAL, gpu_ns_total);
		cell_set_f64(row, PROC_GPU, gpu_ns / (iv * 1e9) * 100.0);
		if (all_gpu_ns > 0)
			cell_set_f64(row, PROC_SHARE, gpu_ns / all_gpu_ns * 100.0);
		if (queued > 0)
			cell_set_f64(row, PROC_WAIT, wait / queued);
		cell_set_str(row, PROC_RINGS, rings);
	}
	return 0;
}

int sched_model_publish(struct sched_model *sm, struct model *m)
{
	struct table *rings = model_table(m, &sched_rings_table);
	double iv = model_interval_s(m);
	size_t w = 0;
	int rc = rings ? 0 : -1;

	for (size_t i = 0; rings && i < sm->nrings; i++) {
		struct ring_state *r = &sm->rings[i];
		struct cell *row;

		if (!r->seen)
			continue;
		row = table_row_add(rings);
		if (!row) {
			rc = -1;
			break;
		}
		ring_row(r, row, iv);
	}
	if (!rc)
		rc = publish_procs(sm, m, iv);
	/* The next tick starts from these counters; what was not seen is forgotten. */
	for (size_t i = 0; i < sm->nrings; i++) {
		if (!sm->rings[i].seen)
			continue;
		sm->rings[i].last = sm->rings[i].now;
		sm->rings[i].seen = false;
		sm->rings[w++] = sm->rings[i];
	}
	sm->nrings = w;
	w = 0;
	for (size_t i = 0; i < sm->nprocs; i++) {
		if (!sm->procs[i].seen)
			continue;
		sm->procs[i].last = sm->procs[i].now; /* now keeps its identity for matching */
		sm->procs[i].seen = false;
		sm->procs[w++] = sm->procs[i];
	}
	sm->nprocs = w;
	return rc;
}
