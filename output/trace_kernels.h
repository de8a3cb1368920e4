/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CUDA kernels, copies and sets in the Perfetto trace (--trace): each a slice from its start to its
 * end on the GPU, named by its kernel ("memcpy HtoD", "memset"), annotated with its process,
 * stream, correlation id, queued -> start time and bytes (copies, sets); on its process's stream's
 * track ("<comm> <pid> stream <n>"), a child of its CUDA device's ("GPU cuda<id>"), on lanes where
 * slices overlap (laned_tracks.h); a kernel's slice ends the flow from its launch's instant where
 * the launch's correlation id is known (trace_cuda_flow_id). What did not fit, or was lost before it got here, is counted in
 * the trace's note and in lost. Times: CLOCK_MONOTONIC (the kernel spans', model/job_sink.h) moved
 * to the wall clock the counters use.
 */
#ifndef GPUTOP_TRACE_KERNELS_H
#define GPUTOP_TRACE_KERNELS_H

#include <stdint.h>
#include "model/job_sink.h"
#include "output/laned_tracks.h"
#include "output/trace_counters.h"

#define TRACE_KERNELS_STREAMS 1024 /* (process, device, stream) tracks at most: past them, lost, counted */

struct trace_kernels {
	struct trace_counters *tc; /* the trace (its writer and described tracks) */
	struct laned_tracks streams;
	int64_t wall_minus_mono_ns; /* added to a CLOCK_MONOTONIC time */
	uint64_t slices; /* written */
	uint64_t lost; /* not written */
	uint64_t clock_err_max_ns; /* the widest clock_err_ns of those written */
};

/*
 * The flow from a CUDA launch (trace_calls.h) to its kernel's slice: from its process and CUPTI's
 * correlation id (not 0), never 0, apart from the scheduler's jobs' flows.
 */
uint64_t trace_cuda_flow_id(uint32_t pid, uint32_t correlation);

/* Into tc's trace; wall_minus_mono_ns: CLOCK_REALTIME less CLOCK_MONOTONIC, now. */
void trace_kernels_init(struct trace_kernels *tk, struct trace_counters *tc, int64_t wall_minus_mono_ns);
/* n kernels; lost: those the collector could not keep. */
void trace_kernels_add(struct trace_kernels *tk, const struct kernel_span *ks, size_t n, uint64_t lost);
void trace_kernels_free(struct trace_kernels *tk);

#endif
