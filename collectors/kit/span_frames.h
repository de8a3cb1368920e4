/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Symbolized frames (symbols/frame.h) as the trace takes an event's stack
 * (model/job_sink.h struct span_frame): for the collectors' span_stacks.
 */
#ifndef GPUTOP_SPAN_FRAMES_H
#define GPUTOP_SPAN_FRAMES_H

#include <stddef.h>
#include "model/job_sink.h"
#include "symbols/frame.h"

/* in[0..n) into out[0..max), in order: frame_text's text (no offset), kernel ones marked. How many. */
size_t span_frames_of(const struct frame *in, size_t n, struct span_frame *out, size_t max);

#endif
