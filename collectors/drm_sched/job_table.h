/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The streamed design's jobs in flight, in user space: by key (the job's
 * drm_sched_fence address), at most a fixed number (the limit). A job added to
 * a full table evicts the oldest one, and each eviction is counted.
 */
#ifndef GPUTOP_JOB_TABLE_H
#define GPUTOP_JOB_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "core/key_index.h"

/* What the streamed design follows of a job (the map design's struct job_info, and its seqno). */
struct job {
	uint64_t key, seq; /* seq: its finished fence's seqno, 0 before the queue event */
	uint64_t queue_ns; /* 0 when first seen at run */
	uint64_t run_ns; /* 0 until run */
	uint32_t ring; /* RING_NONE before the queue event */
	uint32_t tgid;
	uint32_t pending_deps; /* add_dep events seen before the queue event */
	uint32_t proc_running; /* its run counted in its process's in_flight */
	uint64_t dep_flow; /* the flow of the job this one waits for, 0: none known */
	uint64_t dep_key; /* that job's key while its queue event is unseen, 0: none */
	uint64_t caller; /* --stacks: its queue record's (struct sched_stack), when queue_ns */
	int32_t ustack_id, kstack_id;
	uint32_t prev, next; /* insertion order, oldest first (JOB_NONE at the ends) */
};

#define JOB_NONE UINT32_MAX

struct job_table {
	struct key_index index; /* key -> slot in jobs */
	struct job *jobs;
	size_t cap, limit; /* slots allocated; most jobs held */
	uint32_t free_head, oldest, newest;
	size_t n;
	uint64_t evicted; /* jobs dropped to make room */
};

void job_table_init(struct job_table *t, size_t limit);
void job_table_free(struct job_table *t);
struct job *job_table_get(struct job_table *t, uint64_t key);
/*
 * A zeroed job for key (an existing one is replaced), newest; the oldest is
 * evicted when the table holds limit jobs. NULL when out of memory.
 */
struct job *job_table_put(struct job_table *t, uint64_t key);
void job_table_del(struct job_table *t, uint64_t key);

#endif
