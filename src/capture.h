/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A capture: the Perfetto trace being written (--trace), of the snapshots'
 * counters (output/trace_counters.h), fed by the front end's thread, and of
 * the scheduler's jobs (output/trace_jobs.h), the display's vblanks and
 * deliveries (output/trace_display.h) and the GPU ioctls and fence waits of
 * threads (output/trace_calls.h), fed by the collectors' capture readers
 * (collectors/kit/capture_rb.h) and the poller's thread through the job sink
 * (model/job_sink.h) when routed there: one lock between them. Ended, it takes
 * no snapshot more, and no event after its end (counted, as cut); closed, its
 * note is written and the file flushed.
 */
#ifndef GPUTOP_CAPTURE_H
#define GPUTOP_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "model/job_sink.h"
#include "model/snapshot.h"

struct capture;

/* What a capture wrote, when it closed, and what it did not, by reason. */
struct capture_stats {
	uint64_t samples, jobs, bytes, limit_bytes;
	uint64_t vblanks, deliveries, missed; /* the display's (trace_display.h) */
	uint64_t ioctls, waits, launches, syncs; /* the calls' (trace_calls.h) */
	uint64_t kernels, kernels_lost, kernels_refused; /* CUDA kernels and copies (trace_kernels.h) */
	uint64_t clock_err_max_ns; /* their times' distance from CLOCK_MONOTONIC at most */
	/* lost before the writer: the jobs of an interval over JOB_SPANS_MAX, and full capture ring buffers */
	uint64_t jobs_lost, marks_lost, calls_lost, cuda_lost; /* calls: ioctls and waits; cuda: launches, syncs */
	uint64_t jobs_refused, marks_refused, calls_refused; /* by the writer: the limit, no track or lane */
	uint64_t over_limit; /* packets (events, tracks, samples) that did not fit the size limit */
	uint64_t dropped; /* packets not written otherwise (too large, no track or lane) */
	uint64_t cut; /* events after its end (capture_end), left out */
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
/*
 * Its duration is over at s: no snapshot more, and the events after s's time
 * left out (counted in cut); those before it are still written when they come
 * (the collectors' last drains, before capture_close).
 */
void capture_end(struct capture *c, const struct snapshot *s);
/* The note, a flush, the file closed; freed. 0, or a negative errno; *st: what it wrote. */
int capture_close(struct capture *c, struct capture_stats *st);
/*
 * What it wrote to path (bytes: the file's size), on one line to f after
 * "prog: trace 'path': "; then, each on a line of its own when there were
 * any, the events lost before the writer (which buffer was full), those the
 * writer refused (and why), and those left out after its end.
 */
void capture_summary(FILE *f, const char *prog, const char *path, const struct capture_stats *st);

#endif
