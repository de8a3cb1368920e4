/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The jobs the streamed design saw complete between two reads, kept for the
 * job sink (model/job_sink.h): filled by the draining thread (the matcher's
 * callback), handed over at the next read with their rings' names. Bounded:
 * past JOB_SPANS_MAX a job is counted lost, never kept.
 */
#ifndef GPUTOP_JOB_SPANS_H
#define GPUTOP_JOB_SPANS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "bpf/drm_sched.h"
#include "model/job_sink.h"

/* Jobs kept between two reads at most (about 30 MB). */
#define JOB_SPANS_MAX (1U << 18)

struct job_spans {
	struct job_span *spans;
	__u32 *rings; /* each span's ring id (index into the ring keys) */
	size_t n, cap;
	uint64_t lost; /* not kept since the last flush: the limit, or memory */
	atomic_bool *active; /* the sink's (NULL: always): no job kept while false */
	const struct span_stacks *stacks; /* set on each job handed over (NULL: no stacks taken) */
};

void job_spans_free(struct job_spans *b);
/* A job done on ring id (a sched_match callback: arg is the struct job_spans), if active. */
void job_spans_add(void *arg, __u32 ring, const struct job_span *span);
/* Each kept job named by keys[its ring] (a ring not known yet: "ring N"), to sink; then none kept. */
void job_spans_flush(struct job_spans *b, const struct ring_key *keys, const struct job_sink *sink);

#endif
