/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where a front end's snapshots come from: the live poller, or a recording being
 * replayed. Front ends take the newest snapshot (a reference) and release it.
 */
#ifndef GPUTOP_FEED_H
#define GPUTOP_FEED_H

#include <stdbool.h>
#include <stdint.h>
#include "model/snapshot.h"

struct feed_ops {
	/* A snapshot newer than after_seq, waiting up to timeout_ms; NULL if none yet. */
	const struct snapshot *(*take)(void *impl, uint64_t after_seq, int timeout_ms);
	void (*release)(void *impl, const struct snapshot *s);
	void (*set_delay)(void *impl, double delay_s);
	/* Replay only (NULL live): one more snapshot at once, on the takes that follow (n). */
	void (*step)(void *impl);
	/* "" while all is well; the error that ended a replay ("FILE:LINE: reason"). */
	const char *(*error)(void *impl);
	bool (*finished)(void *impl); /* replay: the file is played to its end */
	/* Replay only (NULL live): the recording's snapshots (a snapshot's seq is its place); 0 not known. */
	uint64_t (*total)(void *impl);
};

struct feed {
	const struct feed_ops *ops;
	void *impl;
	bool replay;
	const char *name; /* "live" or the recording's path */
};

#endif
