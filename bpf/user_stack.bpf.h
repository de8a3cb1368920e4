/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Capture of a user stack for a DWARF unwind (user_stack.h): the registers,
 * then the stack from sp, page by page until the byte budget or the end of the
 * stack's mapping (a page that cannot be read). Kernel side only; regs are the
 * user registers (a uprobe's ctx, or bpf_task_pt_regs() in a tracepoint).
 */
#ifndef GPUTOP_USER_STACK_BPF_H
#define GPUTOP_USER_STACK_BPF_H

#include "user_stack.h"

/* Each CPU's sampling budget (user_stack_sample_allowed). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct user_stack_credit);
} sample_credit SEC(".maps");

/*
 * Whether one more stack copy may go into ring (the copies' ring buffer): while
 * it is at most half full (past that its reader is behind, and a copy would
 * crowd out the first sights a collector always copies) and this CPU's
 * sampling budget allows one (then spent).
 */
static __always_inline bool user_stack_sample_allowed(void *ring)
{
	const __u64 cost = 1000000000ull / USER_STACK_SAMPLE_RATE, most = cost * USER_STACK_SAMPLE_BURST;
	__u32 z = 0;
	struct user_stack_credit *c = bpf_map_lookup_elem(&sample_credit, &z);
	__u64 now = bpf_ktime_get_ns();

	if (!c || bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) * 2 > bpf_ringbuf_query(ring, BPF_RB_RING_SIZE))
		return false;
	if (!c->last_ns)
		c->credit_ns = most;
	else
		c->credit_ns += now - c->last_ns;
	c->last_ns = now;
	if (c->credit_ns > most)
		c->credit_ns = most;
	if (c->credit_ns < cost)
		return false;
	c->credit_ns -= cost;
	return true;
}

/* The current task's user registers (saved at its entry to the kernel) into regs; 0, or < 0. */
static __always_inline long user_stack_current_regs(struct pt_regs *regs)
{
	return bpf_probe_read_kernel(regs, sizeof(*regs), (void *)bpf_task_pt_regs(bpf_get_current_task_btf()));
}

/* Fills s; its used length (header and copied bytes), for bpf_ringbuf_output. */
static __always_inline __u32 user_stack_capture(struct pt_regs *regs, struct user_stack *s)
{
	__u64 sp = PT_REGS_SP(regs);
	__u32 first = USER_STACK_PAGE - (sp & (USER_STACK_PAGE - 1)), off;

	s->ip = PT_REGS_IP(regs);
	s->sp = sp;
	s->bp = PT_REGS_FP(regs);
	s->size = 0;
	s->flags = 0;
	if (!sp) {
		s->flags = USER_STACK_NO_REGS;
		return offsetof(struct user_stack, data);
	}
	/* the rest of sp's page, then whole pages: the copy ends at the first unreadable one */
	if (first > USER_STACK_PAGE || bpf_probe_read_user(s->data, first, (void *)sp))
		return offsetof(struct user_stack, data);
	off = first;
#pragma unroll
	for (int i = 0; i < USER_STACK_BYTES / USER_STACK_PAGE - 1; i++) {
		asm volatile("" : "+r"(off)); /* keep the check below: the verifier needs it */
		if (off > USER_STACK_BYTES - USER_STACK_PAGE)
			break;
		if (bpf_probe_read_user(s->data + off, USER_STACK_PAGE, (void *)(sp + off)))
			break;
		off += USER_STACK_PAGE;
	}
	s->size = off;
	if (off > USER_STACK_BYTES - USER_STACK_PAGE) /* the budget, not the mapping, ended it */
		s->flags = USER_STACK_CUT;
	return offsetof(struct user_stack, data) + off;
}

/*
 * A record whose head (head bytes, filled by the caller) is followed by a
 * struct user_stack: regs' stack copied into it, then its used bytes sent to
 * ring. rec: the record's scratch (a per-CPU array's value, too large for the
 * BPF stack). No wake-up per copy: the reader drains every period. At once
 * for a key's first (first: its process's mappings read while it lives), or
 * when a quarter of the ring buffer waits. None for a kernel thread (no user
 * registers). 0, or < 0: no room in ring (the copy lost).
 */
static __always_inline long user_stack_send(void *ring, void *rec, __u32 head, struct pt_regs *regs, bool first)
{
	__u32 used;
	bool wake;

	if (!PT_REGS_SP(regs)) /* a kernel thread's (a fence wait in one): no user stack to copy */
		return 0;
	used = head + user_stack_capture(regs, (struct user_stack *)(rec + head));
	if (used > head + sizeof(struct user_stack)) /* for the verifier */
		return 0;
	wake = first || bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) * 4 >= bpf_ringbuf_query(ring, BPF_RB_RING_SIZE);
	return bpf_ringbuf_output(ring, rec, used, wake ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

#endif
