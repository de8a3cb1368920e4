/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A collector's part of a capture (--trace, the TUI's T): its programs write
 * events into a BPF ring buffer only while their flag is set (capture_reserve
 * in bpf/common.bpf.h), and it drains them at its ticks. The flag follows the
 * job sink's active (model/job_sink.h): set at the first tick of a capture,
 * cleared at the first one after it, so that without a capture the programs
 * test one flag per event and write nothing.
 */
#ifndef GPUTOP_CAPTURE_RB_H
#define GPUTOP_CAPTURE_RB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

struct capture_rb {
	struct ring_buffer *rb;
	__u32 *on; /* the programs' flag, in their mapped .bss */
	const __u64 *lost; /* the programs' count of events the ring buffer had no room for */
	__u64 lost_seen; /* at the last drain */
};

/* Over the ring buffer map_fd: each record to fn(ctx, data, size) when drained. 0, or -errno. */
int capture_rb_init(struct capture_rb *c, int map_fd, __u32 *on, const __u64 *lost,
		    ring_buffer_sample_fn fn, void *ctx);
/*
 * At a tick: the flag set when active says a capture runs (NULL: never), what
 * waits handed to fn. Returns the events lost since the last drain.
 */
__u64 capture_rb_drain(struct capture_rb *c, atomic_bool *active);
void capture_rb_free(struct capture_rb *c);

#endif
