// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collector.h"

extern const struct collector_ops drm_sched_collector;
extern const struct collector_ops irq_collector;
extern const struct collector_ops devices_collector;

static const struct collector_ops *const registry[] = {
	&devices_collector,
	&drm_sched_collector,
	&irq_collector,
};

const struct collector_ops *const *collector_registry(size_t *n)
{
	*n = sizeof(registry) / sizeof(registry[0]);
	return registry;
}
