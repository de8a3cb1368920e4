/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A collector's part of a capture (--trace, the TUI's T): its programs write
 * events into a BPF ring buffer only while their flag is set (capture_reserve
 * in bpf/common.bpf.h), and a thread of its own (ring_reader.h) drains them as
 * they fill: every CAPTURE_RB_READ_MS, and at once when the programs find a
 * quarter of the ring buffer waiting (capture_submit), so that how much a
 * capture keeps does not hang on the refresh interval. The collector's tick
 * and its close drain too (the close last: what its programs wrote until
 * then). Each record is made an item of the job sink's (model/job_sink.h) by
 * the collector's convert, on the reader's thread, the items handed over in
 * batches by its hand. The flag follows the job sink's active: set at the
 * first drain of a capture, cleared at the first one after it, so that
 * without a capture the programs test one flag per event and write nothing.
 */
#ifndef GPUTOP_CAPTURE_RB_H
#define GPUTOP_CAPTURE_RB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "collectors/kit/ring_reader.h"

#define CAPTURE_RB_BATCH 256 /* items handed over at once */
#define CAPTURE_RB_READ_MS 100 /* drained this often at least while a capture may run */

struct ring_buffer;

struct capture_rb_ops {
	size_t item_size; /* bytes of one item */
	/* The record (size bytes, from the ring buffer) into item; false: not one to keep. */
	bool (*convert)(void *ctx, const void *rec, size_t size, void *item);
	/* n items, and the events lost since the last hand (a full ring buffer). */
	void (*hand)(void *ctx, const void *items, size_t n, uint64_t lost);
};

struct capture_rb {
	struct ring_buffer *rb;
	__u32 *on; /* the programs' flag, in their mapped .bss */
	const __u64 *lost; /* the programs' count of events the ring buffer had no room for */
	__u64 lost_seen; /* at the last drain */
	atomic_bool *active; /* the job sink's: a capture runs (NULL: always) */
	struct ring_reader reader; /* its lock: convert and hand run under it */
	bool reading; /* the reader is set up (rb is) */
	const struct capture_rb_ops *ops;
	void *ctx;
	unsigned char *items; /* CAPTURE_RB_BATCH of ops->item_size */
	size_t n;
	bool keep; /* this drain's items are handed over */
};

struct bpf_map;

/* Before the object loads: map, the ring buffer, shrunk to one page when there is no capture to feed. */
void capture_rb_size(struct bpf_map *map, bool capturing);
/*
 * Over the ring buffer map_fd, with the programs' on and lost, its reader
 * started; items are kept while active (the job sink's) is true. 0, or a
 * negative errno.
 */
int capture_rb_init(struct capture_rb *c, int map_fd, __u32 *on, const __u64 *lost, atomic_bool *active,
		    const struct capture_rb_ops *ops, void *ctx);
/*
 * At a tick: what waits handed over now while a capture runs (else dropped,
 * and the flag cleared), the flag set for what comes next when one does.
 */
void capture_rb_drain(struct capture_rb *c);
/* The reader stopped after a last drain (the programs' records until now handed over); freed. */
void capture_rb_free(struct capture_rb *c);

#endif
