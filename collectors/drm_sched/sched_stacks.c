// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bpf/drm_sched_stream.h"
#include "collectors/drm_sched/sched_stacks.h"
#include "core/array.h"
#include "symbols/stack_ids.h"

#define NONE UINT32_MAX

struct sched_stack_sum {
	uint32_t tgid, ring;
	int32_t ustack_id, kstack_id;
	uint64_t caller;
	uint64_t jobs, gpu_ns, wait_ns;
	uint32_t next; /* the next sum of the same (process, ring), NONE: the last */
};

void sched_stacks_init(struct sched_stacks *ss, struct stack_file *sf)
{
	memset(ss, 0, sizeof(*ss));
	if (sf && stack_weight_takes(sf->weight, STACK_SOURCE_JOBS))
		ss->sf = sf;
}

void sched_stacks_seen(struct sched_stacks *ss, uint32_t tgid, const char *comm)
{
	char name[TASK_COMM_LEN];

	if (!ss->sf || !tgid || tgid == ss->last_seen)
		return;
	ss->last_seen = tgid; /* a process's jobs come in runs: no search for each */
	if (stack_procs_find(&ss->procs, tgid))
		return;
	snprintf(name, sizeof(name), "%.*s", TASK_COMM_LEN - 1, comm);
	stack_procs_add(&ss->procs, tgid, name);
}

/* The sum of (process, ring, stacks) of span, a new one at the end of its pair's chain; NULL: no memory. */
static struct sched_stack_sum *sum_get(struct sched_stacks *ss, uint32_t ring,
				       const struct job_span *s)
{
	uint64_t pair = (uint64_t)s->pid << 32 | ring;
	struct sched_stack_sum *e = NULL;
	uint32_t i, last = NONE;

	if (key_index_get(&ss->pairs, pair, &i)) {
		for (; i != NONE; last = i, i = ss->sums[i].next) {
			e = &ss->sums[i];
			if (e->ustack_id == s->ustack_id && e->kstack_id == s->kstack_id &&
			    e->caller == s->caller)
				return e;
		}
	}
	if (ss->nsums >= SCHED_STACK_SUMS_MAX || !array_push(&ss->sums, &ss->nsums, &ss->cap, sizeof(*e)))
		return NULL;
	i = (uint32_t)(ss->nsums - 1);
	if (last != NONE) {
		ss->sums[last].next = i;
	} else if (key_index_put(&ss->pairs, pair, i)) {
		ss->nsums--;
		return NULL;
	}
	e = &ss->sums[i];
	*e = (struct sched_stack_sum){ .tgid = s->pid, .ring = ring, .ustack_id = s->ustack_id,
				       .kstack_id = s->kstack_id, .caller = s->caller, .next = NONE };
	return e;
}

void sched_stacks_add(struct sched_stacks *ss, uint32_t ring, const struct job_span *s)
{
	struct sched_stack_sum *e;

	if (!ss->sf || !s->pid) /* queued before attach, or its record lost: no process's */
		return;
	e = sum_get(ss, ring, s);
	if (!e) {
		ss->sf->lost++;
		return;
	}
	e->jobs++;
	if (s->run_ns && s->done_ns > s->run_ns)
		e->gpu_ns += s->done_ns - s->run_ns;
	if (s->queue_ns && s->run_ns > s->queue_ns)
		e->wait_ns += s->run_ns - s->queue_ns;
}

static uint64_t sum_weight(const struct sched_stacks *ss, const struct sched_stack_sum *e)
{
	switch (ss->sf->weight) {
	case STACK_WEIGHT_GPU_TIME:
		return e->gpu_ns;
	case STACK_WEIGHT_QUEUE_WAIT:
		return e->wait_ns;
	default:
		return e->jobs;
	}
}

/* One sum: the ring as the leaf, the kernel frames, the user frames, the command as the root. */
static int write_sum(struct sched_stacks *ss, const struct sched_stack_sum *e, int stacks_fd,
		     const struct ring_key *keys)
{
	static struct frame frames[2 * SCHED_STACK_DEPTH + 4];
	static uint64_t ips[SCHED_STACK_DEPTH];
	struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);
	bool truncated = false;
	size_t n = 1;
	char ring[RING_NAME_LEN + 1], dev[DEV_NAME_LEN + 1];

	snprintf(ring, sizeof(ring), "%.*s", RING_NAME_LEN, e->ring < SCHED_MAX_RINGS ? keys[e->ring].name : "");
	snprintf(dev, sizeof(dev), "%.*s", DEV_NAME_LEN, e->ring < SCHED_MAX_RINGS ? keys[e->ring].dev : "");
	stack_frame_named(&frames[0], *dev ? "[ring %s %s]" : "[ring %s%s]", dev, *ring ? ring : "?");
	memset(ips, 0, sizeof(ips));
	if (e->kstack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &e->kstack_id, ips)) {
		n += stack_kernel_frames(&ss->sf->sym, ips, SCHED_STACK_DEPTH, &frames[n]);
		truncated = ips[SCHED_STACK_DEPTH - 1] != 0;
	}
	memset(ips, 0, sizeof(ips));
	if (e->ustack_id < 0 || bpf_map_lookup_elem(stacks_fd, &e->ustack_id, ips))
		stack_frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += stack_user_frames(&ss->sf->sym, p, ips, SCHED_STACK_DEPTH, e->caller, &frames[n]);
	truncated |= ips[SCHED_STACK_DEPTH - 1] != 0;
	stack_frame_named(&frames[n++], "%s%s", p ? p->comm : "?", "");
	return stack_file_line(ss->sf, frames, n, truncated, sum_weight(ss, e));
}

int sched_stacks_write(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys)
{
	int err = 0;

	if (!ss->sf)
		return 0;
	for (size_t i = 0; i < ss->nsums; i++)
		if (write_sum(ss, &ss->sums[i], stacks_fd, keys))
			err = -EIO;
	return err;
}

void sched_stacks_free(struct sched_stacks *ss)
{
	stack_procs_free(&ss->procs);
	free(ss->sums);
	key_index_free(&ss->pairs);
	memset(ss, 0, sizeof(*ss));
}
