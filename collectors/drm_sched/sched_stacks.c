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
#include "core/text_copy.h"
#include "core/array.h"
#include "symbols/folded.h"
#include "symbols/stack_ids.h"

#define NONE UINT32_MAX

struct sched_stack_sum {
	uint32_t tgid, ring;
	int32_t ustack_id, kstack_id;
	uint64_t caller;
	uint64_t jobs, gpu_ns, wait_ns;
	uint32_t next; /* the next sum of the same (process, ring), NONE: the last */
	char *frames; /* symbolized at its first row, once (folded_join's text); NULL: not yet */
	bool frames_again; /* frames had some unknown for now: made again at its next row */
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

/* A sum's kernel frames, leaf first, into out (mark: "_[k]"): how many; *trunc: cut short. */
static size_t sum_kernel(struct sched_stacks *ss, const struct sched_stack_sum *e, int stacks_fd, bool mark,
			 struct frame *out, bool *trunc)
{
	uint64_t ips[SCHED_STACK_DEPTH] = { 0 };

	*trunc = false;
	if (e->kstack_id < 0 || bpf_map_lookup_elem(stacks_fd, &e->kstack_id, ips))
		return 0;
	*trunc = ips[SCHED_STACK_DEPTH - 1] != 0;
	return stack_kernel_frames(&ss->sf->sym, ips, SCHED_STACK_DEPTH, mark, out);
}

/* A sum's frame-pointer user stack into ips (zeroed first): its depth, 0 when none was taken. */
static size_t sum_user(const struct sched_stack_sum *e, int stacks_fd, uint64_t *ips)
{
	size_t depth = 0;

	memset(ips, 0, SCHED_STACK_DEPTH * sizeof(*ips));
	if (e->ustack_id < 0 || bpf_map_lookup_elem(stacks_fd, &e->ustack_id, ips))
		return 0;
	while (depth < SCHED_STACK_DEPTH && ips[depth])
		depth++;
	return depth;
}

static struct frame frames[2 * SCHED_STACK_DEPTH + UNWIND_FRAMES_MAX + 2];
static char text[FOLDED_TEXT_MAX];

/* A sum's text by frame pointers, into text: kernel frames, user frames. */
static void fp_text(struct sched_stacks *ss, const struct sched_stack_sum *e, int stacks_fd)
{
	uint64_t ips[SCHED_STACK_DEPTH];
	bool ktrunc;
	size_t n = sum_kernel(ss, e, stacks_fd, true, frames, &ktrunc), depth = sum_user(e, stacks_fd, ips);

	if (!depth)
		stack_frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += stack_user_frames(stack_procs_find(&ss->procs, e->tgid), ips, SCHED_STACK_DEPTH, e->caller, &frames[n]);
	folded_join(frames, n, ktrunc || depth == SCHED_STACK_DEPTH, text);
}

/* A sum's text with chain c's user frames (DWARF) in place of the frame pointers', into text. */
static void chain_text(struct sched_stacks *ss, const struct sched_stack_sum *e, int stacks_fd,
		       const struct dwarf_chain *c)
{
	struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);
	bool ktrunc;
	size_t n = sum_kernel(ss, e, stacks_fd, true, frames, &ktrunc);

	for (size_t j = 0; j < c->n; j++)
		stack_procs_frame(p, c->ips[j], &frames[n++]);
	folded_join(frames, n, ktrunc || c->truncated, text);
}

/* text copied as e's frames, again: some unknown for now; the copy, NULL: no memory. */
static const char *sum_frames_set(struct sched_stack_sum *e, bool again)
{
	if (!text_dup_into(&e->frames, text))
		return NULL;
	e->frames_again = again;
	return e->frames;
}

/* The text of e's row (chain c's; NULL: by frame pointers), symbolized at its first use; NULL: no memory. */
static const char *row_text(struct sched_stacks *ss, struct sched_stack_sum *e, int stacks_fd, struct dwarf_chain *c)
{
	const char *t = c ? dwarf_chain_text(c) : e->frames_again ? NULL : e->frames;
	uint64_t mark = stack_frames_mark();

	if (t)
		return t;
	if (c)
		chain_text(ss, e, stacks_fd, c);
	else
		fp_text(ss, e, stacks_fd);
	return c ? dwarf_chain_text_set(c, text, stack_frames_provisional(mark)) :
		   sum_frames_set(e, stack_frames_provisional(mark));
}

/* Per process, before the rows: its jobs, those of sums with DWARF chains, and their samples. */
static void proc_totals(struct sched_stacks *ss)
{
	stack_procs_count_reset(&ss->procs);
	for (size_t i = 0; i < ss->nsums; i++) {
		const struct sched_stack_sum *e = &ss->sums[i];
		struct dwarf_key dk = sum_key(e);

		stack_proc_count(stack_procs_find(&ss->procs, e->tgid), e->jobs, dwarf_chains_samples(&ss->dwarf, &dk));
	}
}

struct sum_rows {
	struct sched_stacks *ss;
	struct sched_stack_sum *e; /* the sum whose rows these are */
	int stacks_fd;
	char note[STACK_NOTE_MAX]; /* what was sampled of its process's jobs, on its DWARF rows */
	stack_row_fn fn;
	void *arg;
	struct stack_row row; /* the sum's: pid, comm, leaf */
};

static size_t sum_depth(void *arg)
{
	struct sum_rows *a = arg;
	uint64_t ips[SCHED_STACK_DEPTH];

	return sum_user(a->e, a->stacks_fd, ips);
}

/* One row of the sum: chain c's share w (jobs, GPU time, queue wait); c NULL: by frame pointers. */
static void sum_part(void *arg, struct dwarf_chain *c, const uint64_t *w)
{
	struct sum_rows *a = arg;
	const char *t = row_text(a->ss, a->e, a->stacks_fd, c);

	if (!t)
		return;
	a->row.frames = t;
	a->row.sampled = c ? a->note : "";
	a->row.count = w[0];
	a->row.gpu_ns = w[1];
	a->row.wait_ns = w[2];
	a->fn(a->arg, &a->row);
}

/* One sum's rows: by frame pointers, or a row per unwound chain (dwarf_chains_split). */
static void sum_rows(struct sched_stacks *ss, struct sched_stack_sum *e, struct sum_rows *a)
{
	const uint64_t w[] = { e->jobs, e->gpu_ns, e->wait_ns };
	struct dwarf_key dk = sum_key(e);

	a->e = e;
	stack_proc_sampled(stack_procs_find(&ss->procs, e->tgid), "jobs", a->note, sizeof(a->note));
	dwarf_chains_split(&ss->dwarf, &dk,
			   &(struct dwarf_split){ .w = w, .nw = 3, .fp_depth = sum_depth, .part = sum_part, .arg = a });
}

void sched_stacks_rows(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys, stack_row_fn fn,
		       void *arg)
{
	char leaf[DEV_NAME_LEN + RING_NAME_LEN + 2];
	struct sum_rows a = { .ss = ss, .stacks_fd = stacks_fd, .fn = fn, .arg = arg,
			      .row = { .source = STACK_SOURCE_JOBS, .leaf = leaf, .timed = true } };

	if (!ss->sf)
		return;
	proc_totals(ss);
	for (size_t i = 0; i < ss->nsums; i++) {
		struct sched_stack_sum *e = &ss->sums[i];
		const struct ring_key *k = e->ring < SCHED_MAX_RINGS ? &keys[e->ring] : NULL;
		struct stack_proc *p = stack_procs_find(&ss->procs, e->tgid);

		snprintf(leaf, sizeof(leaf), "%.*s%s%.*s", DEV_NAME_LEN, k ? k->dev : "",
			 k && *k->dev ? " " : "", RING_NAME_LEN, k && *k->name ? k->name : "?");
		a.row.pid = e->tgid;
		a.row.comm = p ? p->comm : "?";
		sum_rows(ss, e, &a);
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
		n += stack_kernel_frames(&ss->sf->sym, ips, SCHED_STACK_DEPTH, false, out);
	memset(ips, 0, sizeof(ips));
	if (s->ustack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &s->ustack_id, ips))
		n += stack_user_frames(stack_procs_find(&ss->procs, s->pid), ips, SCHED_STACK_DEPTH, s->caller,
				       &out[n]);
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
	stack_procs_free(&ss->procs); /* their unwinders too */
	dwarf_chains_free(&ss->dwarf);
	for (size_t i = 0; i < ss->nsums; i++)
		free(ss->sums[i].frames);
	free(ss->sums);
	key_index_free(&ss->pairs);
	memset(ss, 0, sizeof(*ss));
}
