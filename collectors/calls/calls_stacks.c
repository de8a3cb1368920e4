// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>
#include <linux/types.h>
#include "bpf/calls.h"
#include "collectors/calls/calls_stacks.h"
#include "collectors/kit/proc_info.h"
#include "symbols/stack_ids.h"

void calls_stacks_init(struct calls_stacks *cs, struct stack_file *sf)
{
	memset(cs, 0, sizeof(*cs));
	if (sf && stack_weight_takes(sf->weight, STACK_SOURCE_CALLS))
		cs->sf = sf;
}

static void seen(struct calls_stacks *cs, uint32_t tgid)
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

void calls_stacks_tick(struct calls_stacks *cs, int sums_fd)
{
	struct calls_stack_key k, next;
	const void *prev = NULL;

	if (!cs->sf)
		return;
	while (!bpf_map_get_next_key(sums_fd, prev, &next)) {
		seen(cs, next.tgid);
		k = next;
		prev = &k;
	}
}

/* The frames of key k's stacks into frames (ips: room for one stack); their number. */
static size_t stack_frames(struct calls_stacks *cs, const struct calls_stack_key *k, int stacks_fd,
			   uint64_t *ips, struct frame *frames, bool *truncated)
{
	struct stack_proc *p = stack_procs_find(&cs->procs, k->tgid);
	size_t n = 0;

	memset(ips, 0, CALLS_STACK_DEPTH * sizeof(*ips));
	if (k->kstack_id >= 0 && !bpf_map_lookup_elem(stacks_fd, &k->kstack_id, ips)) {
		n += stack_kernel_frames(&cs->sf->sym, ips, CALLS_STACK_DEPTH, &frames[n]);
		*truncated = ips[CALLS_STACK_DEPTH - 1] != 0;
	}
	memset(ips, 0, CALLS_STACK_DEPTH * sizeof(*ips));
	if (k->ustack_id < 0 || bpf_map_lookup_elem(stacks_fd, &k->ustack_id, ips))
		stack_frame_named(&frames[n++], "%s%s", "[no stack]", "");
	n += stack_user_frames(&cs->sf->sym, p, ips, CALLS_STACK_DEPTH, k->caller, &frames[n]);
	*truncated |= ips[CALLS_STACK_DEPTH - 1] != 0;
	stack_frame_named(&frames[n++], "%s%s", p && p->comm[0] ? p->comm : "?", "");
	return n;
}

/* One sum: the call as the leaf, the kernel frames, the user frames, the command as the root. */
static int write_sum(struct calls_stacks *cs, const struct calls_stack_key *k,
		     const struct calls_stack_sum *s, int stacks_fd, calls_ioctl_name_fn name, void *ctx)
{
	static struct frame frames[2 * CALLS_STACK_DEPTH + 4];
	static uint64_t ips[CALLS_STACK_DEPTH];
	bool truncated = false;
	size_t n;

	memset(&frames[0], 0, sizeof(frames[0]));
	if (k->kind == CALLS_REC_IOCTL)
		name(ctx, k->rdev, k->cmd, frames[0].name, sizeof(frames[0].name));
	else
		stack_frame_named(&frames[0], "%s%s", "fence wait", "");
	n = 1 + stack_frames(cs, k, stacks_fd, ips, &frames[1], &truncated);
	return stack_file_line(cs->sf, frames, n, truncated,
			       cs->sf->weight == STACK_WEIGHT_BLOCKED ? s->ns : s->count);
}

int calls_stacks_write(struct calls_stacks *cs, int sums_fd, int stacks_fd, uint64_t lost,
		       calls_ioctl_name_fn name, void *ctx)
{
	struct calls_stack_key k, next;
	struct calls_stack_sum s;
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

void calls_stacks_free(struct calls_stacks *cs)
{
	stack_procs_free(&cs->procs);
	memset(cs, 0, sizeof(*cs));
}
