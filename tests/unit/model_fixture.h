/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Synthetic collector input shared by the model and JSON tests. */
#ifndef GPUTOP_MODEL_FIXTURE_H
#define GPUTOP_MODEL_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include "collectors/drm_sched/sched_model.h"
#include "model/model.h"

#define SEC_NS 1000000000ULL

static inline struct ring_counters fixture_ring(const char *dev, const char *name,
						uint64_t queued, uint64_t started,
						uint64_t completed, uint64_t exec_each_ns)
{
	struct ring_counters rc = { 0 };

	snprintf(rc.dev, sizeof(rc.dev), "%s", dev);
	snprintf(rc.name, sizeof(rc.name), "%s", name);
	rc.queued = queued;
	rc.started = started;
	rc.completed = completed;
	for (uint64_t i = 0; i < started; i++)
		histogram_add(&rc.wait_hist, 100000); /* 100 us */
	rc.wait_ns = started * 100000;
	for (uint64_t i = 0; i < completed; i++)
		histogram_add(&rc.exec_hist, exec_each_ns);
	rc.exec_ns = completed * exec_each_ns;
	return rc;
}

static inline struct proc_counters fixture_proc(uint32_t pid, const char *comm, const char *dev,
						const char *ring, uint64_t queued,
						uint64_t busy_ns)
{
	struct proc_counters pc = { .pid = pid, .queued = queued, .completed = queued,
				    .busy_ns = busy_ns, .wait_ns = queued * 100000 };

	snprintf(pc.comm, sizeof(pc.comm), "%s", comm);
	snprintf(pc.dev, sizeof(pc.dev), "%s", dev);
	snprintf(pc.ring, sizeof(pc.ring), "%s", ring);
	return pc;
}

#endif
