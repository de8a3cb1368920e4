// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rows.h"

static const char *const ring_names[RING_COLS] = {
	"name", "device", "queue", "inflight", "jobs", "busy", "wait", "exec", "total",
};
static const char *const ring_titles[RING_COLS] = {
	"RING", "DEVICE", "QUEUE", "INFL", "JOBS/S", "BUSY%", "WAIT p50", "EXEC p50", "DONE",
};
static const char *const proc_names[PROC_COLS] = {
	"pid", "comm", "jobs", "gpu", "share", "wait", "total",
};
static const char *const proc_titles[PROC_COLS] = {
	"PID", "COMM", "JOBS/S", "GPU%", "SHARE%", "WAIT avg", "JOBS",
};

const char *ring_column_name(int col)
{
	return col >= 0 && col < RING_COLS ? ring_names[col] : "jobs";
}

const char *proc_column_name(int col)
{
	return col >= 0 && col < PROC_COLS ? proc_names[col] : "gpu";
}

const char *ring_column_title(int col)
{
	return col >= 0 && col < RING_COLS ? ring_titles[col] : "";
}

const char *proc_column_title(int col)
{
	return col >= 0 && col < PROC_COLS ? proc_titles[col] : "";
}

static int by_name(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

int ring_column_by_name(const char *name)
{
	return by_name(ring_names, RING_COLS, name);
}

int proc_column_by_name(const char *name)
{
	return by_name(proc_names, PROC_COLS, name);
}

/* qsort has no context argument: the sort runs on one thread (the UI's). */
static const struct snapshot *sort_snap;
static int sort_col;
static bool sort_reverse;

static int cmp_num(double a, double b)
{
	return a < b ? 1 : a > b ? -1 : 0; /* largest first */
}

static int finish(int c, size_t ia, size_t ib)
{
	if (!c)
		c = ia < ib ? -1 : ia > ib; /* stable: snapshot order */
	return sort_reverse ? -c : c;
}

static int cmp_ring(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct ring_snap *a = &sort_snap->rings[ia], *b = &sort_snap->rings[ib];
	int c = 0;

	switch (sort_col) {
	case RING_COL_NAME: c = strcmp(a->name, b->name); break;
	case RING_COL_DEV: c = strcmp(a->dev, b->dev); break;
	case RING_COL_QUEUE: c = cmp_num(a->queue_depth, b->queue_depth); break;
	case RING_COL_INFLIGHT: c = cmp_num(a->in_flight, b->in_flight); break;
	case RING_COL_JOBS: c = cmp_num(a->completed_per_s, b->completed_per_s); break;
	case RING_COL_BUSY: c = cmp_num(a->busy_pct, b->busy_pct); break;
	case RING_COL_WAIT: c = cmp_num(a->wait.p50_ns, b->wait.p50_ns); break;
	case RING_COL_EXEC: c = cmp_num(a->exec.p50_ns, b->exec.p50_ns); break;
	case RING_COL_TOTAL: c = cmp_num((double)a->completed_total, (double)b->completed_total); break;
	}
	if (!c && sort_col != RING_COL_NAME)
		c = strcmp(a->name, b->name);
	return finish(c, ia, ib);
}

static int cmp_proc(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct proc_snap *a = &sort_snap->procs[ia], *b = &sort_snap->procs[ib];
	int c = 0;

	switch (sort_col) {
	case PROC_COL_PID: c = a->pid < b->pid ? -1 : a->pid > b->pid; break;
	case PROC_COL_COMM: c = strcmp(a->comm, b->comm); break;
	case PROC_COL_JOBS: c = cmp_num(a->jobs_per_s, b->jobs_per_s); break;
	case PROC_COL_GPU: c = cmp_num(a->gpu_pct, b->gpu_pct); break;
	case PROC_COL_SHARE: c = cmp_num(a->gpu_share_pct, b->gpu_share_pct); break;
	case PROC_COL_WAIT: c = cmp_num(a->wait_mean_ns, b->wait_mean_ns); break;
	case PROC_COL_TOTAL: c = cmp_num((double)a->jobs_total, (double)b->jobs_total); break;
	}
	if (!c && sort_col != PROC_COL_PID)
		c = a->pid < b->pid ? -1 : a->pid > b->pid;
	return finish(c, ia, ib);
}

static bool has(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return !n;
}

size_t rows_rings(const struct snapshot *s, int col, bool reverse, const char *filter,
		  size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nrings; i++)
		if (!filter || !*filter || has(s->rings[i].name, filter) || has(s->rings[i].dev, filter))
			out[n++] = i;
	sort_snap = s;
	sort_col = col;
	sort_reverse = reverse;
	qsort(out, n, sizeof(*out), cmp_ring);
	return n;
}

size_t rows_procs(const struct snapshot *s, int col, bool reverse, const char *filter,
		  size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nprocs; i++) {
		char pid[16];

		snprintf(pid, sizeof(pid), "%u", s->procs[i].pid);
		if (!filter || !*filter || has(s->procs[i].comm, filter) || !strcmp(pid, filter))
			out[n++] = i;
	}
	sort_snap = s;
	sort_col = col;
	sort_reverse = reverse;
	qsort(out, n, sizeof(*out), cmp_proc);
	return n;
}
