// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The lowest-free-lane allocator for overlapping slices (perfetto_lanes.h). */
#include <string.h>
#include "output/perfetto_lanes.h"

void perfetto_lanes_init(struct perfetto_lanes *l, uint64_t parent_uuid)
{
	memset(l, 0, sizeof(*l));
	l->parent_uuid = parent_uuid;
}

int perfetto_lanes_take(struct perfetto_lanes *l)
{
	int lane;

	if (l->busy == UINT64_MAX)
		return -1;
	lane = __builtin_ctzll(~l->busy);
	l->busy |= 1ULL << lane;
	return lane;
}

void perfetto_lanes_put(struct perfetto_lanes *l, int lane)
{
	if (lane >= 0 && lane < PERFETTO_LANES_MAX)
		l->busy &= ~(1ULL << lane);
}

unsigned int perfetto_lanes_busy(const struct perfetto_lanes *l)
{
	return (unsigned int)__builtin_popcountll(l->busy);
}

/* splitmix64's finaliser: a bijection, so lanes of one parent never share a uuid. */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t perfetto_lane_uuid(uint64_t parent_uuid, int lane)
{
	uint64_t u = mix64(parent_uuid ^ mix64((uint64_t)lane + 1));

	return u && u != parent_uuid ? u : u + 1;
}
