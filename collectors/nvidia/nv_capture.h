/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The NVIDIA collector's part of a capture (--trace): CUDA launches and
 * synchronisations from its programs' ring buffer (collectors/kit/capture_rb.h)
 * to the job sink as CUDA calls (model/job_sink.h: cuda, else calls), each launch named by its
 * kernel as nvidia.kernels names it (nv_kernels.h), the names found kept in a
 * small cache.
 */
#ifndef GPUTOP_NV_CAPTURE_H
#define GPUTOP_NV_CAPTURE_H

#include <stdint.h>
#include "collectors/kit/capture_rb.h"
#include "collectors/kit/name_cache.h"
#include "model/job_sink.h"

#define NV_CAPTURE_NAMES 64 /* kernel names kept, by (process, handle) */

struct nv_capture {
	struct capture_rb rb;
	const struct job_sink *sink; /* NULL: no capture */
	int names_fd; /* kernel_names */
	struct name_cache names; /* NV_CAPTURE_NAMES, by (process, handle) */
	const struct span_stacks *stacks; /* --stacks: set on each launch taken with stacks on (NULL: none) */
};

/*
 * Over the ring buffer map_fd with the programs' on and lost, to sink (NULL, or
 * without calls: none), its launches' stacks from stacks (NULL: none); drained
 * from then on by its reader (collectors/kit/capture_rb.h), under its lock.
 */
void nv_capture_open(struct nv_capture *nc, const struct job_sink *sink, int map_fd, __u32 *on, const __u64 *lost,
		     int names_fd, const struct span_stacks *stacks);
/* At a tick, before the names of processes gone are deleted: what waits, to the sink. */
void nv_capture_drain(struct nv_capture *nc);
void nv_capture_close(struct nv_capture *nc);

#endif
