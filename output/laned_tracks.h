/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracks of slices known whole when written (a ring's GPU jobs, a CUDA stream's kernels), each a
 * child of its device's track (trace_device_track), found by a key, with lanes where its slices
 * overlap (span_lanes.h): a slice goes on a lane track of its own, described the first time.
 */
#ifndef GPUTOP_LANED_TRACKS_H
#define GPUTOP_LANED_TRACKS_H

#include <stddef.h>
#include <stdint.h>
#include "output/span_lanes.h"
#include "output/trace_counters.h"

#define LANED_KEY_LEN 96

struct laned_track {
	char key[LANED_KEY_LEN];
	uint64_t uuid; /* the track's; its lanes' are perfetto_lane_uuid's of it */
	struct span_lanes lanes;
};

struct laned_tracks {
	struct laned_track **t;
	size_t n, max;
	size_t last; /* the one found last: slices come in runs of one track */
};

/* At most max tracks. */
void laned_tracks_init(struct laned_tracks *lt, size_t max);
void laned_tracks_free(struct laned_tracks *lt);
/*
 * The track of key (cut to LANED_KEY_LEN), named name under dev's device track, both described the
 * first time; NULL when it cannot be (max tracks already, no memory, the writer refused).
 */
struct laned_track *laned_track_get(struct laned_tracks *lt, struct trace_counters *tc, const char *dev,
				    const char *key, const char *name);
/* The track of a lane of t free from start to end, described the first time: its uuid, 0 when none. */
uint64_t laned_track_lane(struct trace_counters *tc, struct laned_track *t, uint64_t start, uint64_t end);

#endif
