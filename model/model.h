/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The model: what persists between ticks (previous cumulative counters,
 * histories), owned by the poller thread. Collectors feed it cumulative
 * counters; it derives rates, depths, quantiles and histories once, in
 * vendor-neutral code, and builds the immutable snapshot of the tick.
 */
#ifndef GPUTOP_MODEL_H
#define GPUTOP_MODEL_H

#include "snapshot.h"

/* Cumulative since the collector attached, as read from its maps. */
struct ring_counters {
	char dev[NAME_LEN];
	char name[NAME_LEN];
	uint64_t queued, started, completed, dep_waits, deps;
	uint64_t wait_ns, exec_ns; /* latency sums */
	uint64_t busy_ns; /* busy time up to the read, open span included */
	uint32_t max_queue_depth, max_in_flight; /* maxima in the interval just ended */
	uint64_t max_wait_ns, max_exec_ns; /* maxima in the interval, 0 when none */
	struct histogram wait_hist, exec_hist;
};

struct proc_counters {
	uint32_t pid;
	char comm[COMM_LEN];
	char dev[NAME_LEN]; /* the ring */
	char ring[NAME_LEN];
	uint64_t queued, completed, wait_ns, exec_ns;
};

/* The histories behind a ring's sparklines, advanced once per snapshot. */
struct ring_histories {
	struct history completed_per_s, exec_p50_ns, wait_p50_ns, busy_pct;
};

/* Pushes this snapshot's values and copies the histories into the ring's snapshot. */
void ring_histories_push(struct ring_histories *h, struct ring_snap *s);

struct model;

struct model *model_new(uint64_t start_ns);
void model_free(struct model *m);
void model_set_host(struct model *m, const char *hostname, const char *kernel);
/* -p: only this process's rows (0: all). Rings stay system-wide. */
void model_set_pid_filter(struct model *m, uint32_t pid);

void model_tick_begin(struct model *m, uint64_t now_ns);
int model_ring_update(struct model *m, const struct ring_counters *rc);
int model_proc_update(struct model *m, const struct proc_counters *pc);
int model_device_add(struct model *m, const struct device_snap *d);
/* Copies the status (its lists too) into this tick's snapshot. */
int model_collector_status(struct model *m, const struct collector_status *st);
/* This tick's table for d, created empty at the first call of the tick; NULL on failure. */
struct table *model_table(struct model *m, const struct table_desc *d);
/* The interval the rates of this tick cover, in seconds (> 0). */
double model_interval_s(const struct model *m);
/* Builds this tick's snapshot (NULL on allocation failure) and forgets what was not seen. */
struct snapshot *model_tick_end(struct model *m);

#endif
