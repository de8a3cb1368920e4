// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
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

void call_stacks_tick(struct call_stacks *cs, int sums_fd)
{
	struct call_stack_key k, next;
	const void *prev = NULL;

	if (!cs->sf)
		return;
	while (!bpf_map_get_next_key(sums_fd, prev, &next)) {
		seen(cs, next.tgid);
		k = next;
		prev = &k;
	}
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

/* One sum as a row: the call as the leaf (a sync: its function, the stack's first frame), the command the root. */
static int write_sum(struct call_stacks *cs, const struct call_stack_key *k,
		     const struct call_stack_sum *s, int stacks_fd, call_ioctl_name_fn name, void *ctx)
{
	static struct frame frames[2 * CALL_STACK_DEPTH + 4];
	static uint64_t ips[CALL_STACK_DEPTH];
	static char text[FOLDED_TEXT_MAX];
	struct stack_proc *p = stack_procs_find(&cs->procs, k->tgid);
	char leaf[sizeof(frames[0].name)] = "";
	bool truncated = false;
	size_t n = stack_frames(cs, k, stacks_fd, ips, frames, &truncated), first = 0;

	if (k->source == CALL_STACK_IOCTL && name)
		name(ctx, k->rdev, k->cmd, leaf, sizeof(leaf));
	else if (k->source == CALL_STACK_FENCE_WAIT)
		snprintf(leaf, sizeof(leaf), "fence wait");
	else if (n) /* a sync's: its function */
		snprintf(leaf, sizeof(leaf), "%.*s", (int)sizeof(leaf) - 1, frames[first++].name);
	folded_join(&frames[first], n - first, truncated, text);
	return stack_file_row(cs->sf, &(struct stack_row){
		.pid = k->tgid, .comm = p && p->comm[0] ? p->comm : "?",
		.source = k->source == CALL_STACK_SYNC ? STACK_SOURCE_SYNCS : STACK_SOURCE_CALLS,
		.leaf = leaf, .frames = text, .sampled = "", .count = s->count, .blocked_ns = s->ns });
}

int call_stacks_write(struct call_stacks *cs, int sums_fd, int stacks_fd, uint64_t lost,
		       call_ioctl_name_fn name, void *ctx)
{
	struct call_stack_key k, next;
	struct call_stack_sum s;
	const void *prev = NULL;
	int err = 0;

	if (!cs->sf)
		return 0;
	cs->sf->lost += lost;
	while (!bpf_map_get_next_key(sums_fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(sums_fd, &k, &s))
			continue;
		seen(cs, k.tgid); /* one that lived past the last interval */
		if (write_sum(cs, &k, &s, stacks_fd, name, ctx))
			err = -EIO;
	}
	return err;
}

void call_stacks_free(struct call_stacks *cs)
{
	stack_procs_free(&cs->procs);
	memset(cs, 0, sizeof(*cs));
}
