// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <linux/types.h>
#include "bpf/call_stack.h"
#include "collectors/kit/call_stacks.h"
#include "collectors/kit/proc_info.h"
#include "symbols/folded.h"
#include "symbols/stack_ids.h"

void call_stacks_init(struct call_stacks *cs, struct stack_file *sf, enum stack_source s)
{
	memset(cs, 0, sizeof(*cs));
	_Static_assert(sizeof(struct call_stack_key) <= KEY_TEXT_KEY_MAX, "a call key fits");
	key_text_init(&cs->texts, sizeof(struct call_stack_key));
	key_text_init(&cs->leaves, sizeof(struct call_stack_key));
	if (sf && stack_weight_takes(sf->weight, s))
		cs->sf = sf;
}

static void seen(struct call_stacks *cs, uint32_t tgid)
{
	char comm[16];

	if (!tgid || tgid == cs->last_seen)
		return;
	cs->last_seen = tgid; /* the keys of a process often come one after another */
	if (stack_procs_find(&cs->procs, tgid))
		return;
	proc_comm(tgid, comm, sizeof(comm));
	stack_procs_add(&cs->procs, tgid, comm);
}

/* The frames of key k's stacks into frames, leaf first (ips: room for one stack); their number. */
static size_t stack_frames(struct call_stacks *cs, const struct call_stack_key *k, int stacks_fd,
			   uint64_t *ips, struct frame *frames, bool *truncated)
{
	struct stack_proc *p = stack_procs_find(&cs->procs, k->tgid);
	size_t n = 0;

	memset(ips, 0, CALL_STACK_DEPTH * sizeof(*ips));
	if (k->kstack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &k->kstack_id, ips)) {
		n += stack_kernel_frames(&cs->sf->sym, ips, CALL_STACK_DEPTH, true, &frames[n]);
		*truncated = ips[CALL_STACK_DEPTH - 1] != 0;
	}
	memset(ips, 0, CALL_STACK_DEPTH * sizeof(*ips));
	if (k->ustack_id < 0 || bpf_map_lookup_elem(stacks_fd, &k->ustack_id, ips))
		stack_frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += stack_user_frames(&cs->sf->sym, p, ips, CALL_STACK_DEPTH, k->caller, &frames[n]);
	*truncated |= ips[CALL_STACK_DEPTH - 1] != 0;
	return n;
}

/* k's frames as text, and a sync's leaf (its function, the stack's first frame), symbolized once; NULL: no memory. */
static const char *key_frames(struct call_stacks *cs, const struct call_stack_key *k, int stacks_fd,
			      const char **leaf)
{
	static struct frame frames[2 * CALL_STACK_DEPTH + 4];
	static uint64_t ips[CALL_STACK_DEPTH];
	static char text[FOLDED_TEXT_MAX];
	const char *t = key_text_get(&cs->texts, k);
	bool truncated = false;
	size_t n, first = 0;

	*leaf = key_text_get(&cs->leaves, k);
	if (t && (*leaf || k->source != CALL_STACK_SYNC))
		return t;
	n = stack_frames(cs, k, stacks_fd, ips, frames, &truncated);
	if (k->source == CALL_STACK_SYNC && n)
		*leaf = key_text_put(&cs->leaves, k, frames[first++].name);
	folded_join(&frames[first], n - first, truncated, text);
	return key_text_put(&cs->texts, k, text);
}

/* One sum as a row: the call as the leaf (a sync: its function), the command the root. */
static void sum_row(struct call_stacks *cs, const struct call_stack_key *k, const struct call_stack_sum *s,
		    int stacks_fd, const struct call_names *names, stack_row_fn fn, void *arg)
{
	struct stack_proc *p = stack_procs_find(&cs->procs, k->tgid);
	char leaf[FRAME_NAME_MAX] = "";
	const char *sync_leaf, *text = key_frames(cs, k, stacks_fd, &sync_leaf);

	if (!text)
		return;
	if (k->source == CALL_STACK_IOCTL && names->name)
		names->name(names->ctx, k->rdev, k->cmd, leaf, sizeof(leaf));
	else if (k->source == CALL_STACK_FENCE_WAIT)
		snprintf(leaf, sizeof(leaf), "fence wait");
	else if (sync_leaf)
		snprintf(leaf, sizeof(leaf), "%s", sync_leaf);
	fn(arg, &(struct stack_row){ .pid = k->tgid, .comm = p && p->comm[0] ? p->comm : "?",
				     .source = k->source == CALL_STACK_SYNC ? STACK_SOURCE_SYNCS : STACK_SOURCE_CALLS,
				     .leaf = leaf, .frames = text, .sampled = "", .count = s->count,
				     .blocked_ns = s->ns });
}

void call_stacks_rows(struct call_stacks *cs, int sums_fd, int stacks_fd, const struct call_names *names,
		      stack_row_fn fn, void *arg)
{
	struct call_stack_key k, next;
	struct call_stack_sum s;
	const void *prev = NULL;

	if (!cs->sf)
		return;
	while (!bpf_map_get_next_key(sums_fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(sums_fd, &k, &s))
			continue;
		seen(cs, k.tgid); /* one that lived past the last interval */
		sum_row(cs, &k, &s, stacks_fd, names, fn, arg);
	}
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
	stack_procs_free(&cs->procs);
	key_text_free(&cs->texts);
	key_text_free(&cs->leaves);
	memset(cs, 0, sizeof(*cs));
}
