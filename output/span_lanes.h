/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Lanes for slices known whole (start and end) when they are written, in
 * about the order they end: a GPU job is written when it is done, and jobs
 * queued at once overlap on their ring. A slice goes on the lowest lane whose
 * slices all ended by its start, so no two on a lane overlap, whatever the
 * order they come in (perfetto_lanes.h is the same for slices begun and ended
 * as they happen). At most SPAN_LANES_MAX lanes: as many as jobs were queued
 * or running on a ring at once, in the order they came.
 */
#ifndef GPUTOP_SPAN_LANES_H
#define GPUTOP_SPAN_LANES_H

#include <stdbool.h>
#include <stdint.h>

#define SPAN_LANES_MAX 1024

struct span_lanes {
	uint64_t until[SPAN_LANES_MAX]; /* the latest end of a slice on each lane; 0: none yet */
	uint8_t described[SPAN_LANES_MAX]; /* the lane's track is written (the caller's mark) */
	unsigned int used; /* lanes used: 1 + the highest taken */
};

void span_lanes_init(struct span_lanes *l);
/* The lowest lane free from start on, now taken until end; -1 when none of SPAN_LANES_MAX is. */
int span_lanes_fit(struct span_lanes *l, uint64_t start, uint64_t end);

#endif
