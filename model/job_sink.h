/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where a collector hands the GPU jobs it saw complete, one span each, the
 * display's vblanks and event deliveries, one mark each, the GPU ioctls,
 * fence waits and CUDA launches and synchronisations of threads, one call
 * each, and the CUDA kernels and copies CUPTI timed, one span each, for a
 * timeline (the Perfetto trace: output/trace_jobs.h, trace_display.h,
 * trace_calls.h, trace_kernels.h). Plain data: collectors fill it, the trace
 * reads it; src/ joins the two (collector_config.job_sink).
 * Times are CLOCK_MONOTONIC ns, as the BPF programs stamp them.
 */
#ifndef GPUTOP_JOB_SINK_H
#define GPUTOP_JOB_SINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOB_SPAN_NAME_LEN 32
#define JOB_SPAN_COMM_LEN 16

#define SPAN_FRAME_NAME 256

/* One frame of an event's stack, as the trace writes it. */
struct span_frame {
	char name[SPAN_FRAME_NAME]; /* the function; "module+0xoff" with no name; "[unknown]" */
	bool kernel;
};

/* Where an event's stacks are in the tables of the collector that took them (--stacks). */
struct stack_ref {
	uint32_t pid;
	int32_t ustack_id, kstack_id; /* -1: none */
	uint64_t caller; /* the return address on top of the user stack, 0: unread */
	uint64_t aux; /* the collector's own part of the key (a CUDA launch's kernel handle) */
};

/*
 * The stacks of the jobs or calls a collector hands over (--trace with
 * --stacks): the sink calls it only from within its jobs() or calls(), while
 * the collector can read them.
 */
struct span_stacks {
	/* r's stack into out[max], leaf first (kernel frames, then user ones): how many, 0: none. */
	size_t (*frames)(const struct span_stacks *ss, const struct stack_ref *r,
			 struct span_frame *out, size_t max);
};

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
	const struct span_stacks *stacks; /* their frames, for the trace; NULL: none taken */
};

enum display_mark_kind {
	DISPLAY_MARK_VBLANK, /* a CRTC's vblank */
	DISPLAY_MARK_DELIVERY, /* an event (page flip, vblank wait) delivered to a client */
};

/* A vblank of a CRTC, or an event delivered to a client (an open DRM file) on it. */
struct display_mark {
	uint64_t ts_ns;
	enum display_mark_kind kind;
	int32_t crtc; /* the CRTC's pipe index */
	uint32_t seq; /* the vblank counter */
	/* deliveries: */
	uint64_t file; /* the client: its struct drm_file's address */
	uint32_t pid; /* the process that opened it, 0 when unknown */
	char comm[JOB_SPAN_COMM_LEN]; /* its name, "" when unknown */
	uint32_t missed; /* frames it missed just before this one */
};

#define CALL_SPAN_NAME_LEN 128

enum call_span_kind {
	CALL_SPAN_IOCTL, /* an ioctl on a GPU device file */
	CALL_SPAN_FENCE_WAIT, /* a dma-fence wait */
	CALL_SPAN_CUDA_LAUNCH, /* a CUDA kernel launch: at start_ns (= end_ns) */
	CALL_SPAN_CUDA_GRAPH_LAUNCH, /* a CUDA graph launch: at start_ns */
	CALL_SPAN_CUDA_SYNC, /* a CUDA synchronisation (context, stream or event) */
};

/* One call of a thread, from its start to its end. */
struct call_span {
	uint64_t start_ns, end_ns;
	enum call_span_kind kind;
	uint32_t pid, tid;
	char comm[JOB_SPAN_COMM_LEN]; /* the process's, "" when unknown */
	char thread[JOB_SPAN_COMM_LEN]; /* the thread's, "" when unknown */
	/* ioctl: its command ("AMDGPU_CS"); wait: the fence's driver; launch: the kernel's name, "" unknown */
	char name[CALL_SPAN_NAME_LEN];
	char dev[JOB_SPAN_NAME_LEN]; /* ioctl: its device file ("card0") */
	int64_t ret; /* ioctl: what it returned */
	uint32_t correlation; /* a launch: CUPTI's correlation id (its kernel's, kernel_span), 0: unknown */
	/* a launch, --stacks: where it came from (stack.pid is pid; ustack_id -1: none taken) */
	struct stack_ref stack;
	const struct span_stacks *stacks; /* its frames, for the trace; NULL: none taken */
};

enum kernel_span_kind {
	KERNEL_SPAN_KERNEL,
	KERNEL_SPAN_COPY,
	KERNEL_SPAN_SET,
};

/*
 * A CUDA kernel, copy or set as CUPTI timed it on the GPU, on one stream of one CUDA device of one
 * process, its times moved onto CLOCK_MONOTONIC by its clock pair (within clock_err_ns).
 */
struct kernel_span {
	uint64_t start_ns, end_ns;
	uint64_t queued_ns; /* 0: unknown */
	uint64_t bytes; /* copies and sets */
	uint32_t pid;
	uint32_t device; /* CUPTI's device id */
	uint32_t stream, correlation;
	uint32_t clock_err_ns; /* half the clock pair's bracket */
	enum kernel_span_kind kind;
	char comm[JOB_SPAN_COMM_LEN]; /* the process's, "" when unknown */
	char name[CALL_SPAN_NAME_LEN]; /* a kernel's (cut to fit), "memcpy HtoD", "memset" */
};

struct job_sink {
	/* n spans that completed; lost: jobs completed since the last call that were not kept. */
	void (*jobs)(void *arg, const struct job_span *spans, size_t n, uint64_t lost);
	/* n display marks; lost: those not kept since the last call (a full ring buffer). */
	void (*marks)(void *arg, const struct display_mark *marks, size_t n, uint64_t lost);
	/* n calls that ended; lost: those not kept since the last call (a full ring buffer). */
	void (*calls)(void *arg, const struct call_span *calls, size_t n, uint64_t lost);
	/* As calls, for CUDA launches and synchronisations (NULL: calls takes them). */
	void (*cuda)(void *arg, const struct call_span *calls, size_t n, uint64_t lost);
	/* n CUDA kernels, copies and sets that ended; lost: those not kept since the last call. */
	void (*kernels)(void *arg, const struct kernel_span *kernels, size_t n, uint64_t lost);
	void *arg;
	atomic_bool *active; /* NULL: always; else jobs, marks, calls and kernels are kept only while it is true */
};

#endif
