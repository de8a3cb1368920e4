/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A capture: the Perfetto trace being written (--trace), of the snapshots'
 * counters (output/trace_counters.h), fed by the front end's thread, and of
 * the scheduler's jobs (output/trace_jobs.h), the display's vblanks and
 * deliveries (output/trace_display.h) and the GPU ioctls and fence waits of
 * threads (output/trace_calls.h), fed by the poller's through the job sink
 * (model/job_sink.h) when routed there: one lock between them. Stopped, it takes
 * nothing more; closed, its note is written and the file flushed.
 */
#ifndef GPUTOP_CAPTURE_H
#define GPUTOP_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "model/job_sink.h"
#include "model/snapshot.h"

struct capture;

/* What a capture wrote, when it closed. */
struct capture_stats {
	uint64_t samples, jobs, jobs_lost, bytes, dropped;
	uint64_t vblanks, deliveries, missed, marks_lost; /* the display's (trace_display.h) */
	uint64_t ioctls, waits, launches, syncs, calls_lost; /* the calls' (trace_calls.h) */
};

/* Into out (the caller's; closed by capture_close) at most limit_bytes; NULL with *err set. */
struct capture *capture_open(FILE *out, uint64_t limit_bytes, int *err);
/*
 * The one job sink the collectors get (collector_config.job_sink): it feeds
 * the capture routed to, and keeps them from keeping jobs while there is none.
 */
const struct job_sink *capture_sink(void);
/* Jobs go to c from now on; NULL: nowhere (before c is closed). */
void capture_route(struct capture *c);
/* What it wrote so far. */
void capture_progress(struct capture *c, struct capture_stats *st);
/* A snapshot's counters; false when writing failed (the error is capture_close's). */
bool capture_add(struct capture *c, const struct snapshot *s);
/* Nothing more is taken (its duration is over). */
void capture_stop(struct capture *c);
/* The note, a flush, the file closed; freed. 0, or a negative errno; *st: what it wrote. */
int capture_close(struct capture *c, struct capture_stats *st);

#endif
