// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "output/span_lanes.h"

void span_lanes_init(struct span_lanes *l)
{
	memset(l, 0, sizeof(*l));
}

int span_lanes_fit(struct span_lanes *l, uint64_t start, uint64_t end)
{
	for (unsigned int i = 0; i < SPAN_LANES_MAX; i++) {
		if (l->until[i] && l->until[i] > start)
			continue;
		l->until[i] = end > start ? end : start;
		if (i >= l->used)
			l->used = i + 1;
		return (int)i;
	}
	return -1;
}
