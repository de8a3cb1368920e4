// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bpf/drm_sched_stream.h"
#include "collectors/drm_sched/sched_stacks.h"
#include "core/array.h"
#include "symbols/folded.h"

#define NONE UINT32_MAX

struct sched_stack_sum {
	uint32_t tgid, ring;
	int32_t ustack_id, kstack_id;
	uint64_t caller;
	uint64_t jobs, gpu_ns, wait_ns;
	uint32_t next; /* the next sum of the same (process, ring), NONE: the last */
	char *frames; /* symbolized at its first row, once (folded_join's text); NULL: not yet */
};

void sched_stacks_init(struct sched_stacks *ss, struct stack_file *sf)
{
	memset(ss, 0, sizeof(*ss));
	if (sf && stack_file_on(sf) && stack_weight_takes(sf->weight, STACK_SOURCE_JOBS))
		ss->sf = sf; /* at the start only: the stream's stack table is sized at load */
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

/*
 * Kernel frames, leaf first, from the tracepoint's: the tracing machinery's at
 * the top left out; mark: named with flamegraph.pl's "_[k]".
 */
static size_t kernel_frames(struct sched_stacks *ss, const uint64_t *ips, bool mark,
			    struct frame *out)
{
	size_t n = 0, len;
	bool top = true;

	for (size_t i = 0; i < SCHED_STACK_DEPTH && ips[i]; i++) {
		symbolize_kernel(&ss->sf->sym, ips[i], &out[n]);
		if (top && tracing_frame(out[n].name))
			continue;
		top = false;
		len = strlen(out[n].name);
		if (mark && len && len + 4 < sizeof(out[n].name))
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

/* The frames of a sum, leaf first: the kernel frames, the user frames; its text. NULL: no memory. */
static char *sum_frames(struct sched_stacks *ss, const struct sched_stack_sum *e, int stacks_fd)
{
	static struct frame frames[2 * SCHED_STACK_DEPTH + 2];
	static uint64_t ips[SCHED_STACK_DEPTH];
	static char text[FOLDED_TEXT_MAX];
	struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);
	bool truncated = false;
	size_t n = 0;

	memset(ips, 0, sizeof(ips));
	if (e->kstack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &e->kstack_id, ips)) {
		n += kernel_frames(ss, ips, true, &frames[n]);
		truncated = ips[SCHED_STACK_DEPTH - 1] != 0;
	}
	memset(ips, 0, sizeof(ips));
	if (e->ustack_id < 0 || bpf_map_lookup_elem(stacks_fd, &e->ustack_id, ips))
		frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += user_frames(ss, p, ips, e->caller, &frames[n]);
	truncated |= ips[SCHED_STACK_DEPTH - 1] != 0;
	folded_join(frames, n, truncated, text);
	return strdup(text);
}

void sched_stacks_rows(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys, stack_row_fn fn,
		       void *arg)
{
	char leaf[DEV_NAME_LEN + RING_NAME_LEN + 2];

	if (!ss->sf)
		return;
	for (size_t i = 0; i < ss->nsums; i++) {
		struct sched_stack_sum *e = &ss->sums[i];
		const struct ring_key *k = e->ring < SCHED_MAX_RINGS ? &keys[e->ring] : NULL;
		struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);

		if (!e->frames && !(e->frames = sum_frames(ss, e, stacks_fd)))
			continue;
		snprintf(leaf, sizeof(leaf), "%.*s%s%.*s", DEV_NAME_LEN, k ? k->dev : "",
			 k && *k->dev ? " " : "", RING_NAME_LEN, k && *k->name ? k->name : "?");
		fn(arg, &(struct stack_row){ .pid = e->tgid, .comm = p ? p->comm : "?",
					     .source = STACK_SOURCE_JOBS, .leaf = leaf, .frames = e->frames,
					     .sampled = "", .count = e->jobs, .timed = true,
					     .gpu_ns = e->gpu_ns, .wait_ns = e->wait_ns });
	}
}

static void row_to_file(void *arg, const struct stack_row *r)
{
	struct sched_stacks *ss = arg;

	if (stack_file_row(ss->sf, r))
		ss->write_err = -EIO;
}

size_t sched_stacks_frames(struct sched_stacks *ss, int stacks_fd, const struct stack_ref *s,
			   struct frame *out, size_t max)
{
	uint64_t ips[SCHED_STACK_DEPTH];
	size_t n = 0;

	if (!ss->sf || !s->pid || max < SCHED_STACK_FRAMES_MAX)
		return 0;
	memset(ips, 0, sizeof(ips));
	if (s->kstack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &s->kstack_id, ips))
		n += kernel_frames(ss, ips, false, out);
	memset(ips, 0, sizeof(ips));
	if (s->ustack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &s->ustack_id, ips))
		n += user_frames(ss, stack_procs_find(&ss->procs, s->pid), ips, s->caller, &out[n]);
	return n;
}

int sched_stacks_write(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys)
{
	ss->write_err = 0;
	sched_stacks_rows(ss, stacks_fd, keys, row_to_file, ss);
	return ss->write_err;
}

void sched_stacks_free(struct sched_stacks *ss)
{
	stack_procs_free(&ss->procs);
	for (size_t i = 0; i < ss->nsums; i++)
		free(ss->sums[i].frames);
	free(ss->sums);
	key_index_free(&ss->pairs);
	memset(ss, 0, sizeof(*ss));
}
