/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Lanes: slices that overlap on one GPU ring cannot nest on one Perfetto
 * track, so each ring's track has child tracks, one per lane, and a job goes
 * on the lowest lane free when it starts and gives the lane back when it ends.
 * As many lanes as jobs were in flight at once, at most PERFETTO_LANES_MAX.
 */
#ifndef GPUTOP_PERFETTO_LANES_H
#define GPUTOP_PERFETTO_LANES_H

#include <stdint.h>

#define PERFETTO_LANES_MAX 64

struct perfetto_lanes {
	uint64_t parent_uuid; /* the ring's track */
	uint64_t busy; /* bit n: lane n has a slice open */
	uint64_t described; /* bit n: lane n's track descriptor is written (perfetto.h) */
};

void perfetto_lanes_init(struct perfetto_lanes *l, uint64_t parent_uuid);
/* The lowest free lane, now busy; -1 when all PERFETTO_LANES_MAX are. */
int perfetto_lanes_take(struct perfetto_lanes *l);
/* The lane is free again (a lane out of range or not busy: nothing). */
void perfetto_lanes_put(struct perfetto_lanes *l, int lane);
/* Lanes busy now. */
unsigned int perfetto_lanes_busy(const struct perfetto_lanes *l);
/* The uuid of a lane's child track: derived from the parent's, never the parent's nor 0. */
uint64_t perfetto_lane_uuid(uint64_t parent_uuid, int lane);

#endif
