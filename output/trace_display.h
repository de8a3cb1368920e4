/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The display in the Perfetto trace (--trace): each vblank an instant
 * "vblank" on its CRTC's track ("CRTC <n> vblanks", under a "display"
 * track), each event delivered to a client (a page flip's, a vblank wait's)
 * an instant "delivered" on the client's track ("vblank events, CRTC <n>",
 * under its process's track), "delivered late" with its missed_frames when
 * the client missed frames just before it; both annotated with the vblank
 * counter (seq). What did not fit, or was lost before it got here, is counted
 * in the trace's note and in lost. Times: CLOCK_MONOTONIC moved to the wall
 * clock the counters use.
 */
#ifndef GPUTOP_TRACE_DISPLAY_H
#define GPUTOP_TRACE_DISPLAY_H

#include <stdint.h>
#include "model/job_sink.h"
#include "output/trace_counters.h"

struct trace_display {
	struct trace_counters *tc; /* the trace (its writer and described tracks) */
	int64_t wall_minus_mono_ns; /* added to a CLOCK_MONOTONIC time */
	uint64_t vblanks, deliveries; /* instants written */
	uint64_t missed; /* frames missed, as the deliveries written say */
	uint64_t lost; /* marks not written */
};

/* Into tc's trace; wall_minus_mono_ns: CLOCK_REALTIME less CLOCK_MONOTONIC, now. */
void trace_display_init(struct trace_display *td, struct trace_counters *tc,
			int64_t wall_minus_mono_ns);
/* n marks; lost: marks the collector could not keep. */
void trace_display_add(struct trace_display *td, const struct display_mark *marks, size_t n,
		       uint64_t lost);

#endif
