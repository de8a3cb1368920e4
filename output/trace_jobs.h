/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * GPU jobs in the Perfetto trace (--trace): each job done (model/job_sink.h)
 * one slice, from queued to done, named by its process ("comm pid", or "job"
 * when unknown, annotated pid and seqno), with a "running" slice nested from
 * its run; on its ring's track ("<dev> <ring>", a child of the device's
 * track "GPU <dev>" of trace_counters.h), on lanes where jobs overlap
 * (span_lanes.h). A flow leaves a job another one depended on and ends at
 * that one. A job that did not fit (its lanes all busy, the size limit, or
 * lost before it got here) is counted in the trace's note and in lost.
 * With --stacks, a job's slice carries the CPU stack of its queue event (the
 * submitting code's, user and kernel frames) as a callstack (trace_stacks.h).
 * Times: CLOCK_MONOTONIC moved to the wall clock the counters use.
 */
#ifndef GPUTOP_TRACE_JOBS_H
#define GPUTOP_TRACE_JOBS_H

#include <stdint.h>
#include "model/job_sink.h"
#include "output/laned_tracks.h"
#include "output/trace_counters.h"

#define TRACE_JOBS_RINGS 256 /* rings at most: jobs of more are lost, counted */

struct trace_jobs {
	struct trace_counters *tc; /* the trace (its writer and described tracks) */
	struct laned_tracks rings; /* a track per ring */
	int64_t wall_minus_mono_ns; /* added to a CLOCK_MONOTONIC time */
	uint64_t slices; /* jobs written */
	uint64_t lost; /* jobs not written */
};

/* Into tc's trace; wall_minus_mono_ns: CLOCK_REALTIME less CLOCK_MONOTONIC, now. */
void trace_jobs_init(struct trace_jobs *tj, struct trace_counters *tc, int64_t wall_minus_mono_ns);
/* n jobs done; lost: jobs the collector could not keep. */
void trace_jobs_add(struct trace_jobs *tj, const struct job_span *spans, size_t n, uint64_t lost);
void trace_jobs_free(struct trace_jobs *tj);

#endif
