/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the scheduler collector keeps between ticks, and how its cumulative
 * counters become this tick's rows: rates, depths, busy %, latency quantiles
 * per ring; jobs, GPU time and share per process and per process on a ring.
 * No BPF here: the collector feeds it, unit tests too.
 */
#ifndef GPUTOP_SCHED_MODEL_H
#define GPUTOP_SCHED_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "model/histogram.h"
#include "model/model.h"

#define SCHED_NAME_LEN 32
#define SCHED_COMM_LEN 16

/* Cumulative since the collector attached, as read from its maps. */
struct ring_counters {
	char dev[SCHED_NAME_LEN];
	char name[SCHED_NAME_LEN];
	uint64_t queued, started, completed, dep_waits, deps;
	bool deps_known; /* the kernel reports declared dependencies (>= 6.17) */
	uint64_t wait_ns, exec_ns; /* latency sums */
	uint64_t busy_ns; /* busy time up to the read, open span included */
	uint32_t max_queue_depth, max_in_flight; /* maxima in the interval just ended */
	uint64_t max_wait_ns, max_exec_ns; /* maxima in the interval, 0 when none */
	struct histogram wait_hist, exec_hist;
};

/* One process on one ring. */
struct proc_counters {
	uint32_t pid;
	char comm[SCHED_COMM_LEN];
	char dev[SCHED_NAME_LEN]; /* the ring */
	char ring[SCHED_NAME_LEN];
	uint64_t queued, completed, wait_ns;
	uint64_t busy_ns; /* time with one of its jobs on the ring's hardware, open span included */
};

struct sched_model;

struct sched_model *sched_model_new(void);
void sched_model_free(struct sched_model *sm);
/* This tick's counters, before sched_model_publish. */
int sched_model_ring(struct sched_model *sm, const struct ring_counters *rc);
int sched_model_proc(struct sched_model *sm, const struct proc_counters *pc);
/*
 * Derives this tick's rows over the model's interval into the drm_sched tables
 * of m, and forgets the rings and processes that were not fed this tick.
 */
int sched_model_publish(struct sched_model *sm, struct model *m);

#endif
