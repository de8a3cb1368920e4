// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "collectors/drm_sched/job_table.h"

void job_table_init(struct job_table *t, size_t limit)
{
	memset(t, 0, sizeof(*t));
	t->limit = limit ? limit : 1;
	t->free_head = t->oldest = t->newest = JOB_NONE;
}

void job_table_free(struct job_table *t)
{
	key_index_free(&t->index);
	free(t->jobs);
	memset(t, 0, sizeof(*t));
}

struct job *job_table_get(struct job_table *t, uint64_t key)
{
	uint32_t slot;

	return key_index_get(&t->index, key, &slot) ? &t->jobs[slot] : NULL;
}

static void unlink_slot(struct job_table *t, uint32_t slot)
{
	struct job *j = &t->jobs[slot];

	if (j->prev != JOB_NONE)
		t->jobs[j->prev].next = j->next;
	else
		t->oldest = j->next;
	if (j->next != JOB_NONE)
		t->jobs[j->next].prev = j->prev;
	else
		t->newest = j->prev;
	j->next = t->free_head;
	t->free_head = slot;
	t->n--;
}

void job_table_del(struct job_table *t, uint64_t key)
{
	uint32_t slot;

	if (!key_index_get(&t->index, key, &slot))
		return;
	key_index_del(&t->index, key);
	unlink_slot(t, slot);
}

/* A free slot, the room grown (doubling, up to the limit) when there is none. */
static uint32_t slot_new(struct job_table *t)
{
	uint32_t slot = t->free_head;
	size_t cap;
	struct job *jobs;

	if (slot != JOB_NONE) {
		t->free_head = t->jobs[slot].next;
		return slot;
	}
	cap = t->cap ? t->cap * 2 : 256;
	if (cap > t->limit)
		cap = t->limit;
	if (cap <= t->cap)
		return JOB_NONE;
	jobs = realloc(t->jobs, cap * sizeof(*jobs));
	if (!jobs)
		return JOB_NONE;
	t->jobs = jobs;
	for (size_t i = cap; i-- > t->cap + 1;) {
		jobs[i].next = t->free_head;
		t->free_head = (uint32_t)i;
	}
	slot = (uint32_t)t->cap;
	t->cap = cap;
	return slot;
}

struct job *job_table_put(struct job_table *t, uint64_t key)
{
	uint32_t slot;
	struct job *j;

	job_table_del(t, key);
	if (t->n >= t->limit && t->oldest != JOB_NONE) {
		job_table_del(t, t->jobs[t->oldest].key);
		t->evicted++;
	}
	slot = slot_new(t);
	if (slot == JOB_NONE)
		return NULL;
	if (key_index_put(&t->index, key, slot)) {
		t->jobs[slot].next = t->free_head;
		t->free_head = slot;
		return NULL;
	}
	j = &t->jobs[slot];
	memset(j, 0, sizeof(*j));
	j->key = key;
	j->prev = t->newest;
	j->next = JOB_NONE;
	if (t->newest != JOB_NONE)
		t->jobs[t->newest].next = slot;
	else
		t->oldest = slot;
	t->newest = slot;
	t->n++;
	return j;
}
