/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CPU stacks of the trace's jobs and CUDA launches (--trace with
 * --stacks) as Perfetto callstacks: each distinct stack (its collector's, its
 * process, its ids in the collector's tables) symbolized once, through the
 * collector that took it (struct span_stacks), written once
 * (perfetto_callstack: root first, kernel frames marked as such) and pointed
 * at by every event that has it. Bounded: past TRACE_STACKS_MAX distinct
 * stacks, and where a stack could not be read or did not fit, its events go
 * without it, counted in the trace's note.
 */
#ifndef GPUTOP_TRACE_STACKS_H
#define GPUTOP_TRACE_STACKS_H

#include <stdint.h>
#include "model/job_sink.h"
#include "output/perfetto.h"

#define TRACE_STACKS_MAX PERFETTO_INTERN_MAX /* distinct stacks of one trace */

struct trace_stacks {
	struct perfetto_intern keys; /* each stack's key, by first sight */
	uint64_t *iids; /* by key (its intern iid - 1): the callstack's iid, 0: none */
	struct span_frame *frames; /* PERFETTO_STACK_MAX, the one being read */
	struct perfetto_frame *pf;
	bool ready, failed; /* allocated at the first stack; failed: out of memory */
	uint64_t written; /* callstacks written */
	uint64_t lost; /* events written without the stack they had */
};

/*
 * The callstack iid of r's stack from src, written at ts_ns the first time it
 * is seen; 0: none (src NULL: no stacks taken; else it is lost, counted in
 * lost and in the note).
 */
uint64_t trace_stacks_iid(struct trace_stacks *ts, struct perfetto_writer *w,
			  const struct span_stacks *src, const struct stack_ref *r, uint64_t ts_ns);
void trace_stacks_free(struct trace_stacks *ts);

#endif
