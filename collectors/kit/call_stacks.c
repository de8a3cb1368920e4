// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "bpf/call_stack.h"
#include "collectors/kit/call_stacks.h"
#include "collectors/kit/proc_info.h"
#include "collectors/kit/stack_copy.h"
#include "core/array.h"
#include "symbols/folded.h"
#include "symbols/stack_ids.h"

/* How long a stack copy waits for the reader at most (a key's first wakes it at once). */
#define CALL_STACKS_READ_MS 100

void call_stacks_init(struct call_stacks *cs, struct stack_file *sf, enum stack_source s)
{
	memset(cs, 0, sizeof(*cs));
	_Static_assert(sizeof(struct call_stack_key) <= KEY_TEXT_KEY_MAX, "a call key fits");
	key_text_init(&cs->texts, sizeof(struct call_stack_key));
	key_text_init(&cs->leaves, sizeof(struct call_stack_key));
	if (sf && stack_weight_takes(sf->weight, s))
		cs->sf = sf;
}

/* The process of tgid; at its first sight its mappings and name read now, while it lives. */
static struct stack_proc *seen(struct call_stacks *cs, uint32_t tgid)
{
	struct stack_proc *p;
	char comm[16];

	if (!tgid)
		return NULL;
	if ((p = stack_procs_find(&cs->procs, tgid)))
		return p;
	proc_comm(tgid, comm, sizeof(comm));
	return stack_procs_add(&cs->procs, tgid, comm);
}

/* One stack copy (struct call_stack_sample): unwound now with its process's mappings, under its key. */
static int on_sample(void *ctx, void *data, size_t size)
{
	const size_t head = offsetof(struct call_stack_sample, stack);
	const struct call_stack_sample *s = data;
	struct call_stacks *cs = ctx;
	struct unwind_result r;
	struct dwarf_key k;

	if (size < head || !stack_copy_unwind(seen(cs, s->key.tgid), &s->stack, size - head, &r)) {
		cs->dwarf.lost++;
		return 0;
	}
	_Static_assert(sizeof(s->key) <= sizeof(struct dwarf_key), "a call key fits a DWARF key");
	k = dwarf_key_of(&s->key, sizeof(s->key));
	dwarf_chains_add(&cs->dwarf, &k, &r);
	return 0;
}

int call_stacks_attach(struct call_stacks *cs, int samples_fd)
{
	if (!cs->sf || cs->samples)
		return 0;
	cs->samples = ring_buffer__new(samples_fd, on_sample, cs, NULL);
	if (!cs->samples)
		return -errno;
	ring_reader_init(&cs->reader, cs->samples, CALL_STACKS_READ_MS, NULL, NULL);
	(void)ring_reader_start(&cs->reader); /* not started: read at each rows pass only */
	return 0;
}

static struct frame frames[2 * CALL_STACK_DEPTH + UNWIND_FRAMES_MAX + 4];
static uint64_t ips[CALL_STACK_DEPTH];
static char text[FOLDED_TEXT_MAX];

/* Key k's kernel frames into frames, leaf first: their number; *truncated: the stack cut short. */
static size_t kernel_frames(struct call_stacks *cs, const struct call_stack_key *k, int stacks_fd, bool *truncated)
{
	memset(ips, 0, sizeof(ips));
	*truncated = false;
	if (k->kstack_id < 0 || bpf_map_lookup_elem(stacks_fd, &k->kstack_id, ips))
		return 0;
	*truncated = ips[CALL_STACK_DEPTH - 1] != 0;
	return stack_kernel_frames(&cs->sf->sym, ips, CALL_STACK_DEPTH, true, frames);
}

/* Key k's frame-pointer user stack into ips (zeroed first): its depth, 0 when none was taken. */
static size_t user_depth(const struct call_stack_key *k, int stacks_fd)
{
	size_t depth = 0;

	memset(ips, 0, sizeof(ips));
	if (k->ustack_id < 0 || bpf_map_lookup_elem(stacks_fd, &k->ustack_id, ips))
		return 0;
	while (depth < CALL_STACK_DEPTH && ips[depth])
		depth++;
	return depth;
}

/*
 * k's frame-pointer frames as text, and a sync's leaf (its function: the
 * stack's first frame, left out of the text), symbolized once; NULL: no memory.
 */
static const char *fp_text(struct call_stacks *cs, const struct call_stack_key *k, int stacks_fd, const char **leaf)
{
	const char *t = key_text_get(&cs->texts, k);
	uint64_t mark = stack_frames_mark();
	bool truncated, again;
	size_t n, depth, first = 0;

	*leaf = key_text_get(&cs->leaves, k);
	if (t && (*leaf || k->source != CALL_STACK_SYNC))
		return t;
	n = kernel_frames(cs, k, stacks_fd, &truncated);
	if (!(depth = user_depth(k, stacks_fd)))
		stack_frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += stack_user_frames(stack_procs_find(&cs->procs, k->tgid), ips, CALL_STACK_DEPTH, k->caller, &frames[n]);
	again = stack_frames_provisional(mark);
	if (k->source == CALL_STACK_SYNC && n)
		*leaf = key_text_put(&cs->leaves, k, frames[first++].name, again);
	folded_join(&frames[first], n - first, truncated || depth == CALL_STACK_DEPTH, text);
	return t ? t : key_text_put(&cs->texts, k, text, again);
}

/* k's kernel frames and chain c's user frames (DWARF; a sync's: its function left out) as text, once. */
static const char *chain_text(struct call_stacks *cs, const struct call_stack_key *k, int stacks_fd,
			      struct dwarf_chain *c)
{
	struct stack_proc *p = stack_procs_find(&cs->procs, k->tgid);
	uint64_t mark = stack_frames_mark();
	bool truncated;
	size_t n;

	if (dwarf_chain_text(c))
		return c->text;
	n = kernel_frames(cs, k, stacks_fd, &truncated);
	for (size_t j = k->source == CALL_STACK_SYNC ? 1 : 0; j < c->n; j++)
		stack_procs_frame(p, c->ips[j], &frames[n++]);
	folded_join(frames, n, truncated || c->truncated, text);
	return dwarf_chain_text_set(c, text, stack_frames_provisional(mark));
}

struct sum_rows {
	struct call_stacks *cs;
	const struct call_stack_key *k;
	int stacks_fd;
	struct stack_row row; /* the sum's: pid, comm, source, leaf */
	char note[STACK_NOTE_MAX]; /* what was sampled of its process's calls, on its DWARF rows */
	stack_row_fn fn;
	void *arg;
};

static size_t sum_depth(void *arg)
{
	struct sum_rows *a = arg;

	return user_depth(a->k, a->stacks_fd);
}

/* A part of a sum: chain c's share w (calls, ns); c NULL: by frame pointers. */
static void sum_part(void *arg, struct dwarf_chain *c, const uint64_t *w)
{
	struct sum_rows *a = arg;
	const char *leaf, *t = c ? chain_text(a->cs, a->k, a->stacks_fd, c) : fp_text(a->cs, a->k, a->stacks_fd, &leaf);

	if (!t)
		return;
	a->row.frames = t;
	a->row.sampled = c ? a->note : "";
	a->row.count = w[0];
	a->row.blocked_ns = w[1];
	a->fn(a->arg, &a->row);
}

/* One sum's rows: the call as the leaf (a sync: its function), the command the root. */
static void sum_rows(struct sum_rows *a, const struct call_stack_key *k, const struct call_stack_sum *s,
		     const struct call_names *names)
{
	struct stack_proc *p = stack_procs_find(&a->cs->procs, k->tgid);
	const uint64_t w[] = { s->count, s->ns };
	char leaf[FRAME_NAME_MAX] = "";
	const char *sync_leaf;
	struct dwarf_key dk = dwarf_key_of(k, sizeof(*k));

	if (!s->count || !fp_text(a->cs, k, a->stacks_fd, &sync_leaf)) /* none yet (a sync in flight); a sync's leaf */
		return;
	if (k->source == CALL_STACK_IOCTL && names->name)
		names->name(names->ctx, k->rdev, k->cmd, leaf, sizeof(leaf));
	else if (k->source == CALL_STACK_FENCE_WAIT)
		snprintf(leaf, sizeof(leaf), "fence wait");
	else if (sync_leaf)
		snprintf(leaf, sizeof(leaf), "%s", sync_leaf);
	a->k = k;
	a->row = (struct stack_row){ .pid = k->tgid, .comm = p && p->comm[0] ? p->comm : "?",
				     .source = k->source == CALL_STACK_SYNC ? STACK_SOURCE_SYNCS : STACK_SOURCE_CALLS,
				     .leaf = leaf };
	stack_proc_sampled(p, k->source == CALL_STACK_SYNC ? "syncs" : "calls", a->note, sizeof(a->note));
	dwarf_chains_split(&a->cs->dwarf, &dk,
			   &(struct dwarf_split){ .w = w, .nw = 2, .fp_depth = sum_depth, .part = sum_part, .arg = a });
}

struct call_sum {
	struct call_stack_key k;
	struct call_stack_sum s;
};

/* Every sum of sums_fd into cs->sums (their processes seen), and the counts of each process. */
static void read_sums(struct call_stacks *cs, int sums_fd)
{
	struct call_stack_key k, next;
	const void *prev = NULL;
	struct call_sum *e;
	struct dwarf_key dk;

	cs->nsums = 0;
	stack_procs_count_reset(&cs->procs);
	while (!bpf_map_get_next_key(sums_fd, prev, &next)) {
		k = next;
		prev = &k;
		if (!(e = array_push(&cs->sums, &cs->nsums, &cs->cap, sizeof(*e))))
			return;
		e->k = k;
		if (bpf_map_lookup_elem(sums_fd, &k, &e->s)) {
			cs->nsums--;
			continue;
		}
		dk = dwarf_key_of(&k, sizeof(k));
		stack_proc_count(seen(cs, k.tgid), e->s.count, dwarf_chains_samples(&cs->dwarf, &dk));
	}
}

void call_stacks_rows(struct call_stacks *cs, int sums_fd, int stacks_fd, const struct call_names *names,
		      stack_row_fn fn, void *arg)
{
	struct sum_rows a = { .cs = cs, .stacks_fd = stacks_fd, .fn = fn, .arg = arg };

	if (!cs->sf)
		return;
	if (cs->samples) /* the copies come first: their processes seen while they live */
		ring_reader_lock(&cs->reader);
	read_sums(cs, sums_fd);
	for (size_t i = 0; i < cs->nsums; i++)
		sum_rows(&a, &cs->sums[i].k, &cs->sums[i].s, names);
	cs->copies_lost = cs->dwarf.lost;
	if (cs->samples)
		ring_reader_unlock(&cs->reader);
}

static void row_to_file(void *arg, const struct stack_row *r)
{
	struct call_stacks *cs = arg;

	if (stack_file_row(cs->sf, r))
		cs->write_err = -EIO;
}

int call_stacks_write(struct call_stacks *cs, int sums_fd, int stacks_fd, uint64_t lost,
		      const struct call_names *names)
{
	if (!cs->sf)
		return 0;
	cs->sf->lost += lost;
	cs->write_err = 0;
	call_stacks_rows(cs, sums_fd, stacks_fd, names, row_to_file, cs);
	return cs->write_err;
}

void call_stacks_free(struct call_stacks *cs)
{
	if (cs->samples)
		ring_reader_stop(&cs->reader);
	ring_buffer__free(cs->samples);
	dwarf_chains_free(&cs->dwarf);
	stack_procs_free(&cs->procs); /* their unwinders too */
	key_text_free(&cs->texts);
	key_text_free(&cs->leaves);
	free(cs->sums);
	memset(cs, 0, sizeof(*cs));
}
