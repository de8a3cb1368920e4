/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The gpu_time collector's part of a capture (--trace): the CUPTI records its program copies into
 * a ring buffer while one runs (collectors/kit/capture_rb.h), each made a kernel span for the job
 * sink (model/job_sink.h: kernels), its times moved from CUPTI's clock onto CLOCK_MONOTONIC by its
 * batch's clock pair: t + (mono_before + mono_after) / 2 - cupti_ns, within half the pair's
 * bracket. Kernels are named from the process's name ids (a small cache before the names map).
 */
#ifndef GPUTOP_GT_CAPTURE_H
#define GPUTOP_GT_CAPTURE_H

#include <stdint.h>
#include "collectors/kit/capture_rb.h"
#include "collectors/kit/name_cache.h"
#include "model/job_sink.h"

#define GT_CAPTURE_NAMES 512 /* kernel names kept, by (process, name id): a model's hundreds */

struct gt_capture {
	struct capture_rb rb;
	const struct job_sink *sink; /* NULL: no capture */
	int names_fd; /* cupti_names */
	struct name_cache names; /* GT_CAPTURE_NAMES, by (process, name id) */
	uint64_t unplaced; /* records without a clock pair or an end: not handed over (atomic) */
	uint64_t unplaced_handed; /* of them, handed over as lost (the reader's) */
};

/*
 * Over the ring buffer map_fd with the program's on and lost, to sink (NULL, or without kernels:
 * none); drained from then on by its reader, under its lock.
 */
void gt_capture_open(struct gt_capture *gc, const struct job_sink *sink, int map_fd, __u32 *on, const __u64 *lost,
		     int names_fd);
/* At a tick: what waits, to the sink. */
void gt_capture_drain(struct gt_capture *gc);
void gt_capture_close(struct gt_capture *gc);

#endif
