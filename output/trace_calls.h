/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * GPU ioctls, fence waits and CUDA calls in the Perfetto trace (--trace): each call a
 * slice on its thread's track (named by the thread, under its process's),
 * from its start to its end: an ioctl named by its command ("AMDGPU_CS",
 * "mockdrm+0x00"), annotated with its device file (dev) and what it returned
 * (ret); a fence wait "fence wait" on the thread's child track "fence waits",
 * annotated with the fence's driver; a CUDA launch an instant on the thread's
 * track named by its kernel (as nvidia.kernels names it; "graph launch" for a
 * graph's), a CUDA synchronisation a slice "synchronize" on the thread's child
 * track "CUDA syncs". With --stacks, a launch's instant carries the CPU stack
 * it was launched from as a callstack (trace_stacks.h). What did not fit, or was lost before it
 * got here, is counted in the trace's note and in lost. Times:
 * CLOCK_MONOTONIC moved to the wall clock the counters use.
 */
#ifndef GPUTOP_TRACE_CALLS_H
#define GPUTOP_TRACE_CALLS_H

#include <stdint.h>
#include "model/job_sink.h"
#include "output/trace_counters.h"

struct trace_calls {
	struct trace_counters *tc; /* the trace (its writer and described tracks) */
	int64_t wall_minus_mono_ns; /* added to a CLOCK_MONOTONIC time */
	uint64_t ioctls, waits, syncs; /* slices written */
	uint64_t launches; /* instants written (graph launches too) */
	uint64_t lost; /* calls not written */
};

/* Into tc's trace; wall_minus_mono_ns: CLOCK_REALTIME less CLOCK_MONOTONIC, now. */
void trace_calls_init(struct trace_calls *tcl, struct trace_counters *tc,
		      int64_t wall_minus_mono_ns);
/* n calls; lost: calls the collector could not keep. */
void trace_calls_add(struct trace_calls *tcl, const struct call_span *calls, size_t n,
		     uint64_t lost);

#endif
