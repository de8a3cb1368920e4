/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where a collector hands the GPU jobs it saw complete, one span each, for a
 * timeline (the Perfetto trace: output/trace_jobs.h). Plain data: collectors
 * fill it, the trace reads it; src/ joins the two (collector_config.job_sink).
 * Times are CLOCK_MONOTONIC ns, as the BPF programs stamp them.
 */
#ifndef GPUTOP_JOB_SINK_H
#define GPUTOP_JOB_SINK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define JOB_SPAN_NAME_LEN 32
#define JOB_SPAN_COMM_LEN 16

/* One job, queued (when known), run (when known) and done, on one ring of one device. */
struct job_span {
	char dev[JOB_SPAN_NAME_LEN]; /* the device, "" when unknown */
	char ring[JOB_SPAN_NAME_LEN]; /* the ring (a scheduler instance) */
	char comm[JOB_SPAN_COMM_LEN]; /* the submitting process, "" when unknown */
	uint32_t pid; /* 0 when unknown (queued before attach, or its record lost) */
	uint64_t seq; /* its fence's seqno */
	uint64_t queue_ns, run_ns; /* 0 when unknown */
	uint64_t done_ns;
	uint64_t flow_id; /* not 0: its flow, which starts here (a job that depends on it ends it) */
	uint64_t dep_flow_id; /* not 0: the flow of the job this one depended on ends here */
	/*
	 * --stacks: where it was submitted from, ids in its collector's stack table
	 * (-1: none taken or unknown); caller: the return address on top of the user
	 * stack at the submitting syscall (0: unread).
	 */
	int32_t ustack_id, kstack_id;
	uint64_t caller;
};

struct job_sink {
	/* n spans that completed; lost: jobs completed since the last call that were not kept. */
	void (*jobs)(void *arg, const struct job_span *spans, size_t n, uint64_t lost);
	void *arg;
	atomic_bool *active; /* NULL: always; else jobs are kept only while it is true */
};

#endif
