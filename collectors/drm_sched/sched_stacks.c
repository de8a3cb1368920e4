// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bpf/drm_sched_stream.h"
#include "collectors/drm_sched/sched_stacks.h"
#include "collectors/kit/stack_copy.h"
#include "core/array.h"

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

/* A sum's DWARF key: its sample key's bytes (the BPF program's struct sched_sample_key). */
static struct dwarf_key sum_key(const struct sched_stack_sum *e)
{
	struct sched_sample_key k = { .caller = e->caller, .tgid = e->tgid, .ring = e->ring,
				      .ustack_id = e->ustack_id, .kstack_id = e->kstack_id };

	_Static_assert(sizeof(k) <= sizeof(struct dwarf_key), "a sample key fits a DWARF key");
	return dwarf_key_of(&k, sizeof(k));
}

void sched_stacks_sample(struct sched_stacks *ss, const void *data, size_t size)
{
	const size_t head = offsetof(struct sched_stack_sample, stack);
	const struct sched_stack_sample *s = data;
	char comm[TASK_COMM_LEN];
	struct unwind_result r;
	struct dwarf_key k;

	if (!ss->sf)
		return;
	if (size < head) {
		ss->dwarf.lost++;
		return;
	}
	memcpy(comm, s->comm, sizeof(comm));
	comm[sizeof(comm) - 1] = 0;
	sched_stacks_seen(ss, s->key.tgid, comm); /* its queue record may come in this drain's rest */
	if (!stack_copy_unwind(stack_procs_find(&ss->procs, s->key.tgid), &s->stack, size - head, &r)) {
		ss->dwarf.lost++;
		return;
	}
	k = dwarf_key_of(&s->key, sizeof(s->key));
	dwarf_chains_add(&ss->dwarf, &k, &r);
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

static void frame_named(struct frame *f, const char *fmt, const char *a, const char *b)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), fmt, a, b);
}

/* The tracing machinery's own frames, above the scheduler's (the BPF program has no name). */
static bool tracing_frame(const char *name)
{
	return !*name || !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) ||
	       !strncmp(name, "__traceiter_", 12) || !strncmp(name, "trace_", 6);
}

/* Kernel frames, leaf first, from the tracepoint's: the tracing machinery's at the top left out. */
static size_t kernel_frames(struct sched_stacks *ss, const uint64_t *ips, struct frame *out)
{
	size_t n = 0, len;
	bool top = true;

	for (size_t i = 0; i < SCHED_STACK_DEPTH && ips[i]; i++) {
		symbolize_kernel(&ss->sf->sym, ips[i], &out[n]);
		if (top && tracing_frame(out[n].name))
			continue;
		top = false;
		len = strlen(out[n].name);
		if (len && len + 4 < sizeof(out[n].name))
			memcpy(out[n].name + len, "_[k]", 5); /* flamegraph.pl's kernel mark */
		n++;
	}
	return n;
}

/* User frames, leaf first, the syscall wrapper's caller put back after the first. */
static size_t user_frames(struct sched_stacks *ss, struct stack_proc *p, const uint64_t *ips,
			  uint64_t caller, struct frame *out)
{
	size_t n = 0;

	for (size_t i = 0; i < SCHED_STACK_DEPTH && ips[i]; i++) {
		stack_procs_frame(&ss->sf->sym, p, ips[i], &out[n++]);
		if (i == 0 && caller && ips[1] != caller)
			stack_procs_frame(&ss->sf->sym, p, caller, &out[n++]);
	}
	return n;
}

/*
 * The weight of a sum's frame-pointer line: all of it without chains, else the
 * shares of the chains that stopped short of the frame pointers' depth.
 */
static uint64_t fp_weight(const struct sched_stacks *ss, const struct sched_stack_sum *e,
			  const struct dwarf_chain *c, size_t nc, size_t depth)
{
	uint64_t w = nc ? 0 : sum_weight(ss, e);

	for (size_t i = 0; i < nc; i++)
		if (!c[i].complete && depth > c[i].n)
			w += dwarf_chains_share(c, nc, i, sum_weight(ss, e));
	return w;
}

/* Above the user frames: what was sampled, where the process's chains stand for more jobs; the command. */
static size_t root_frames(const struct stack_proc *p, bool dwarf, struct frame *out)
{
	char note[96];
	size_t n = 0;

	if (dwarf && p && p->dwarf_samples < p->dwarf_events) {
		snprintf(note, sizeof(note), "[DWARF: %" PRIu64 " of %" PRIu64 " jobs unwound]",
			 p->dwarf_samples, p->dwarf_events);
		frame_named(&out[n++], "%s%s", note, "");
	}
	frame_named(&out[n++], "%s%s", p ? p->comm : "?", "");
	return n;
}

/*
 * One sum: the ring as the leaf, the kernel frames, the user frames, the
 * command as the root. Where its queue events' stacks were copied and unwound
 * (DWARF), a line per chain with its share of the sum's weight, unless the
 * chain stopped short of the outermost frame where the frame pointers went deeper.
 */
static int write_sum(struct sched_stacks *ss, const struct sched_stack_sum *e, int stacks_fd,
		     const struct ring_key *keys)
{
	static struct frame frames[2 * SCHED_STACK_DEPTH + UNWIND_FRAMES_MAX + 6];
	static uint64_t ips[SCHED_STACK_DEPTH];
	struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);
	struct dwarf_key dk = sum_key(e);
	bool ktrunc = false, fptrunc, fp_done = false;
	size_t n = 1, head, depth = 0, nc;
	const struct dwarf_chain *c = dwarf_chains_of(&ss->dwarf, &dk, &nc);
	char ring[RING_NAME_LEN + 1], dev[DEV_NAME_LEN + 1];
	int err = 0;

	snprintf(ring, sizeof(ring), "%.*s", RING_NAME_LEN, e->ring < SCHED_MAX_RINGS ? keys[e->ring].name : "");
	snprintf(dev, sizeof(dev), "%.*s", DEV_NAME_LEN, e->ring < SCHED_MAX_RINGS ? keys[e->ring].dev : "");
	frame_named(&frames[0], *dev ? "[ring %s %s]" : "[ring %s%s]", dev, *ring ? ring : "?");
	memset(ips, 0, sizeof(ips));
	if (e->kstack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &e->kstack_id, ips)) {
		n += kernel_frames(ss, ips, &frames[n]);
		ktrunc = ips[SCHED_STACK_DEPTH - 1] != 0;
	}
	head = n;
	memset(ips, 0, sizeof(ips));
	if (e->ustack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &e->ustack_id, ips))
		while (depth < SCHED_STACK_DEPTH && ips[depth])
			depth++;
	fptrunc = depth == SCHED_STACK_DEPTH;
	for (size_t i = 0; i < nc; i++) {
		uint64_t w = dwarf_chains_share(c, nc, i, sum_weight(ss, e));

		if (!c[i].complete && depth > c[i].n) { /* its weight on the frame-pointer line */
			fp_done = true;
			continue;
		}
		if (!w)
			continue;
		n = head;
		for (size_t j = 0; j < c[i].n; j++)
			stack_procs_frame(&ss->sf->sym, p, c[i].ips[j], &frames[n++]);
		n += root_frames(p, true, &frames[n]);
		if (stack_file_line(ss->sf, frames, n, ktrunc || c[i].truncated, w))
			err = -EIO;
	}
	if (nc && !fp_done)
		return err;
	/* by frame pointers: no chains, or (the weight of) those that stopped short */
	n = head;
	if (!depth)
		frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += user_frames(ss, p, ips, e->caller, &frames[n]);
	n += root_frames(p, false, &frames[n]);
	if (stack_file_line(ss->sf, frames, n, ktrunc || fptrunc, fp_weight(ss, e, c, nc, depth)))
		err = -EIO;
	return err;
}

/* Per process, before the lines: its jobs, those of sums with DWARF chains, and their samples. */
static void proc_totals(struct sched_stacks *ss)
{
	for (size_t i = 0; i < ss->nsums; i++) {
		const struct sched_stack_sum *e = &ss->sums[i];
		struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);
		struct dwarf_key dk = sum_key(e);
		const struct dwarf_chain *c;
		size_t nc;

		if (!p)
			continue;
		p->events += e->jobs;
		if (!(c = dwarf_chains_of(&ss->dwarf, &dk, &nc)))
			continue;
		p->dwarf_events += e->jobs;
		for (size_t j = 0; j < nc; j++)
			p->dwarf_samples += c[j].samples;
	}
}

int sched_stacks_write(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys)
{
	int err = 0;

	if (!ss->sf)
		return 0;
	proc_totals(ss);
	for (size_t i = 0; i < ss->nsums; i++)
		if (write_sum(ss, &ss->sums[i], stacks_fd, keys))
			err = -EIO;
	return err;
}

void sched_stacks_free(struct sched_stacks *ss)
{
	stack_procs_free(&ss->procs); /* their unwinders too */
	dwarf_chains_free(&ss->dwarf);
	free(ss->sums);
	key_index_free(&ss->pairs);
	memset(ss, 0, sizeof(*ss));
}
