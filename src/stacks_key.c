// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include "src/stacks_key.h"

static bool start(void *impl, char *msg, size_t len)
{
	struct stacks_key *k = impl;
	const char *jobs = k->sched_stream ? "job stacks need --stacks - at the start" :
					     "job stacks need --stacks - at the start (--sched-design stream)";
	char why[200];

	if (k->given) {
		snprintf(msg, len, "stacks are on already (--stacks): nvidia.stacks, drm_sched.stacks");
		return false;
	}
	if (stack_file_on(k->sf)) {
		snprintf(msg, len, "CUDA launch stacks are on already (nvidia.stacks)");
		return false;
	}
	if (!k->launches) {
		snprintf(msg, len, "no stacks: the nvidia collector is not running; %s", jobs);
		return false;
	}
	if (stack_file_open(k->sf, "-", STACK_WEIGHT_LAUNCHES, why, sizeof(why))) {
		snprintf(msg, len, "no stacks: %s", why);
		return false;
	}
	snprintf(msg, len, "CUDA launch stacks on (nvidia.stacks; frame pointers: --stacks adds DWARF); %s", jobs);
	return true;
}

void stacks_key_init(struct stacks_key *k, struct stack_file *sf, bool launches, bool sched_stream)
{
	*k = (struct stacks_key){ .ops = { .start = start, .impl = k },
				  .sf = sf,
				  .given = stack_file_on(sf),
				  .launches = launches,
				  .sched_stream = sched_stream };
}
