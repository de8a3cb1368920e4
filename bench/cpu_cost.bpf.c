// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler collector's per-event work on a real CPU, outside emulation:
 * the same kind of work per event, attached to sys_enter and filtered to one
 * process whose tight getppid() loop stands in for queue -> run -> done (each
 * syscall one event, the phase its number modulo 3), or with --uprobe a
 * uprobe on a function of the loop's own that it calls (the path of the CUDA
 * collector's probes). Four programs on each path, one attached at a time
 * (bench/cpu_cost.c):
 *   empty  - returns at once: the floor (what attaching anything costs);
 *   filter - the test for the loop's process and the event's number alone;
 *   maps   - today's design: a job followed in a hash map (insert at queue,
 *            lookup and update at run, lookup and delete at done), a clock read
 *            per event, the ring's counters and a histogram slot, the process's
 *            sums in a second hash;
 *   stream - the streamed design: a clock read and 24 bytes into a BPF ring
 *            buffer per event, no wakeup (user space drains it in batches and
 *            does the matching);
 *   stacks - stream, and at each queue event (one in three) what --stacks adds
 *            there (bpf/drm_sched_stream.bpf.c): the user and kernel stacks by
 *            id, the key's first-copy test, the sampling budget and, when it
 *            allows, a copy of the registers and user stack (bpf/user_stack.bpf.h)
 *            into a second ring buffer (the syscall's caller scan left out).
 * Only the syscall tracepoint path has stacks (its first argument is the user
 * registers).
 */
#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "user_stack.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define SLOTS 64

const volatile __u32 target_tgid;

struct job {
	__u64 queued_at, run_at;
	__u32 pid;
};

struct ring {
	__u64 queued, started, done;
	__u64 wait_hist[SLOTS], exec_hist[SLOTS];
};

struct proc {
	__u64 jobs, busy_ns;
};

struct event {
	__u64 ts;
	__u64 job;
	__u32 phase, pid;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct job);
} jobs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct proc);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ring);
} rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} seq SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} events SEC(".maps");

__u64 lost, samples_lost;

/* stacks: as drm_sched_stream.bpf.c's, at the sizes --stacks loads them with */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
} stacks SEC(".maps");

struct stack_key {
	__u32 tgid;
	__s32 ustack_id, kstack_id;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct stack_key);
	__type(value, __u8);
} sampled SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct user_stack);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, USER_STACK_SAMPLE_RING);
} samples SEC(".maps");

/* The event's number for this CPU, or -1 when the syscall is not the loop's. */
static __always_inline long next_event(void)
{
	__u32 zero = 0;
	__u64 *n;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return -1;
	n = bpf_map_lookup_elem(&seq, &zero);
	return n ? (long)(*n)++ : -1;
}

static __always_inline __u32 slot(__u64 ns)
{
	__u32 s = 0;

	while (ns > 1 && s < SLOTS - 1) { /* a log2 slot, as the collector's coarse ones */
		ns >>= 1;
		s++;
	}
	return s;
}

static __always_inline int do_maps(void)
{
	long n = next_event();
	__u32 zero = 0, pid = (__u32)bpf_get_current_pid_tgid();
	__u64 key = (__u64)n / 3, now = bpf_ktime_get_ns();
	struct ring *r = bpf_map_lookup_elem(&rings, &zero);
	struct job fresh = { now, 0, pid }, *j;
	struct proc init = { 0 }, *p;

	if (n < 0 || !r)
		return 0;
	switch (n % 3) {
	case 0: /* queue */
		if (bpf_map_update_elem(&jobs, &key, &fresh, BPF_ANY))
			__sync_fetch_and_add(&lost, 1);
		__sync_fetch_and_add(&r->queued, 1);
		p = bpf_map_lookup_elem(&procs, &pid);
		if (!p) {
			bpf_map_update_elem(&procs, &pid, &init, BPF_NOEXIST);
			p = bpf_map_lookup_elem(&procs, &pid);
		}
		if (p)
			__sync_fetch_and_add(&p->jobs, 1);
		break;
	case 1: /* run */
		j = bpf_map_lookup_elem(&jobs, &key);
		if (!j)
			return 0;
		j->run_at = now;
		__sync_fetch_and_add(&r->started, 1);
		__sync_fetch_and_add(&r->wait_hist[slot(now - j->queued_at) & (SLOTS - 1)], 1);
		break;
	default: /* done */
		j = bpf_map_lookup_elem(&jobs, &key);
		if (!j)
			return 0;
		__sync_fetch_and_add(&r->done, 1);
		__sync_fetch_and_add(&r->exec_hist[slot(now - j->run_at) & (SLOTS - 1)], 1);
		p = bpf_map_lookup_elem(&procs, &j->pid);
		if (p)
			__sync_fetch_and_add(&p->busy_ns, now - j->run_at);
		bpf_map_delete_elem(&jobs, &key);
	}
	return 0;
}

/* Event n's 24 bytes into the ring buffer, no wakeup. */
static __always_inline int stream_record(long n)
{
	struct event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	e->ts = bpf_ktime_get_ns();
	e->job = (__u64)n / 3;
	e->phase = (__u32)(n % 3);
	e->pid = (__u32)bpf_get_current_pid_tgid();
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline int do_stream(void)
{
	long n = next_event();

	return n < 0 ? 0 : stream_record(n);
}

/* What --stacks adds at a queue event: stacks by id, and a copy when the key is new or the budget allows. */
static __always_inline void do_stacks(void *ctx, struct pt_regs *uregs)
{
	struct stack_key k = { .tgid = target_tgid };
	struct pt_regs regs;
	struct user_stack *s;
	__u32 zero = 0, used;
	__u8 one = 1;

	k.ustack_id = (__s32)bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	k.kstack_id = (__s32)bpf_get_stackid(ctx, &stacks, 0);
	if (bpf_map_lookup_elem(&sampled, &k)) {
		if (!user_stack_sample_allowed(&samples))
			return;
	} else {
		bpf_map_update_elem(&sampled, &k, &one, BPF_ANY);
	}
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s || bpf_probe_read_kernel(&regs, sizeof(regs), uregs))
		return;
	used = user_stack_capture(&regs, s);
	if (used > sizeof(*s))
		return;
	if (bpf_ringbuf_output(&samples, s, used, 0))
		__sync_fetch_and_add(&samples_lost, 1);
}

/* The same four on each path: a syscall tracepoint, and a uprobe on the loop's own function. */
SEC("raw_tp/sys_enter")
int empty(void *ctx)
{
	return 0;
}

SEC("raw_tp/sys_enter")
int filter(void *ctx)
{
	return next_event() < 0;
}

SEC("raw_tp/sys_enter")
int maps(void *ctx)
{
	return do_maps();
}

SEC("raw_tp/sys_enter")
int stream(void *ctx)
{
	return do_stream();
}

SEC("raw_tp/sys_enter")
int stack_stream(struct bpf_raw_tracepoint_args *ctx)
{
	long n = next_event();

	if (n < 0)
		return 0;
	if (n % 3 == 0) /* a queue event */
		do_stacks(ctx, (struct pt_regs *)ctx->args[0]);
	return stream_record(n);
}

SEC("uprobe")
int u_empty(void *ctx)
{
	return 0;
}

SEC("uprobe")
int u_filter(void *ctx)
{
	return next_event() < 0;
}

SEC("uprobe")
int u_maps(void *ctx)
{
	return do_maps();
}

SEC("uprobe")
int u_stream(void *ctx)
{
	return do_stream();
}
