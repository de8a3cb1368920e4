// SPDX-License-Identifier: GPL-2.0
/*
 * GPU ioctls and fence waits, per process:
 *  - syscalls:sys_enter_ioctl / sys_exit_ioctl on file descriptors whose
 *    character device has a watched major (DRM 226, NVIDIA 195, set before
 *    load): count, errors and time per (process, device, command);
 *  - dma_fence:dma_fence_wait_start / _wait_end: time each process spends
 *    blocked on a fence (dma_fence_wait_timeout), per fence driver. The driver
 *    name is taken at the start: from 6.17 the end event names a signalled
 *    fence's driver "detached-driver".
 * A thread's open call waits in `pending` (one insert and one delete per call).
 * While no process but the monitor has a GPU device file open, the ioctl
 * programs return at once (the gate below): an idle host's ioctls cost the
 * empty programs and two loads.
 * Every program has a twin (calls.h): an enter or start twin finds the entry its
 * primary wrote for this call still fresh, or else writes it (a rescue); an exit
 * or end twin finds an entry only when its primary was skipped, and counts it.
 * The handlers take the record, the task and the time as arguments so that the
 * decoding tests can run them on synthetic records (tests/bpf/decode.c).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <asm/ptrace.h>
#include <bpf/bpf_tracing.h>
#include "calls.h"
#include "common.bpf.h"
#include "fd_table.bpf.h"
#include "syscall_ioctl.bpf.h"
#include "user_caller.bpf.h"
#include "user_stack.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u32 majors[CALLS_MAJORS]; /* watched character-device majors, set by user space; 0: unused */

__u32 self_tgid; /* the monitor's: its own calls (NVML's) are neither counted nor open files */

/*
 * The gate. gpu_opens counts the opens of a watched device by other processes
 * (chrdev_open runs for every open of a character device). When user space has
 * found no GPU file open in any process twice with gpu_opens at n in between,
 * it writes n + 1 into idle_at; the programs then run while gpu_opens + 1 !=
 * idle_at, that is from the next open on. 0: never idle (the gate is open).
 */
__u64 gpu_opens;
__u64 idle_at;

__u64 drops[CALLS_DROP_MAX];
/*
 * Entries of ioctl_pending, never fewer: up after an insert, down after an exit's
 * delete and by user space for those it takes out. At 0 an ioctl's exit returns
 * before its lookup; an entry overwritten leaves it high (a lookup more, no miss).
 */
__u64 ioctls_open;
__u32 capture_on; /* user space's: a capture runs, calls go to capture_rb */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, CALLS_CAPTURE_RB_BYTES);
} capture_rb SEC(".maps");
/* --stacks: set before load; off, an exit or end costs nothing more (the maps: one entry each). */
const volatile bool capture_stacks;

/* --stacks: the user and kernel stacks of calls, by id. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, CALLS_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, CALL_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/*
 * --stacks: the syscall wrapper's caller per (process, user stack), found at the
 * first call from that stack: the scan (up to 32 words, each a possible call's
 * bytes read) costs more than the rest together. A frame-pointer stack with the
 * wrapper's frame left out still holds the return address into the caller's
 * caller: one call site, so one caller (but for an indirect call: its first).
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CALLS_MAX_STACKS);
	__type(key, __u64); /* tgid << 32 | user stack id */
	__type(value, __u64);
} callers SEC(".maps");

/* --stacks: calls and time blocked per (process, call, stacks). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CALLS_MAX_STACK_SUMS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct call_stack_key);
	__type(value, struct call_stack_sum);
} stack_sums SEC(".maps");

/* --stacks: stack copies for the DWARF unwind (sized at load: USER_STACK_SAMPLE_RING with --stacks). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

/* Where a stack copy is made before it goes into samples (too large for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct call_stack_sample);
} sample_scratch SEC(".maps");

__u64 rescued[CALLS_EVENTS][2]; /* [event][1]: events the twin handled because its primary was skipped */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CALLS_MAX_KEYS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct ioctl_key);
	__type(value, struct call_stats);
} ioctls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CALLS_MAX_KEYS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct wait_key);
	__type(value, struct call_stats);
} waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CALLS_MAX_PENDING);
	__type(key, __u64); /* pid_tgid */
	__type(value, struct ioctl_pending);
} ioctl_pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CALLS_MAX_PENDING);
	__type(key, __u64);
	__type(value, struct wait_pending);
} wait_pending SEC(".maps");

/* A zeroed value to create entries from (never written). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct call_stats);
} zero_stats SEC(".maps");

struct trace_entry {
	unsigned short type;
} __core;

struct trace_event_raw_dma_fence {
	struct trace_entry ent;
	__u32 __data_loc_driver;
} __core;

static __always_inline bool watched_major(__u32 major)
{
	for (int i = 0; i < CALLS_MAJORS; i++)
		if (major && majors[i] == major)
			return true;
	return false;
}

/* The character device of the current task's file descriptor fd when its major is watched, else 0. */
static __always_inline __u32 watched_rdev(unsigned long fd)
{
	__u32 rdev = fd_char_rdev(fd);

	return watched_major(rdev >> MINORBITS) ? rdev : 0;
}

/* Some process other than the monitor may have a GPU file open (the gate is open). */
static __always_inline bool gpu_files_open(void)
{
	return *(volatile __u64 *)&gpu_opens + 1 != *(volatile __u64 *)&idle_at;
}

static __always_inline void count_open(struct inode *inode)
{
	if (watched_major(BPF_CORE_READ(inode, i_rdev) >> MINORBITS) &&
	    bpf_get_current_pid_tgid() >> 32 != self_tgid)
		__sync_fetch_and_add(&gpu_opens, 1);
}

/* chrdev_open(inode, file): by kprobe, or by fentry where the kernel has no kprobes. */
SEC("kprobe/chrdev_open")
int BPF_KPROBE(open_kprobe, struct inode *inode)
{
	count_open(inode);
	return 0;
}

SEC("fentry/chrdev_open")
int BPF_PROG(open_fentry, struct inode *inode)
{
	count_open(inode);
	return 0;
}

static __always_inline void stats_add(void *map, const void *key, __u64 ns, bool error)
{
	__u32 zero = 0;
	void *init = bpf_map_lookup_elem(&zero_stats, &zero);
	struct call_stats *s;

	if (!init)
		return;
	s = lookup_or_init(map, key, init);
	if (!s) {
		drop_count(drops, CALLS_DROP_KEYS_FULL, CALLS_DROP_MAX);
		return;
	}
	if (!s->comm[0]) { /* every kernel has it; the decoding tests' own BTF does not (left unnamed there) */
		struct task_struct *task = (struct task_struct *)bpf_get_current_task();

		if (bpf_core_field_exists(task->group_leader))
			BPF_CORE_READ_STR_INTO(&s->comm, task, group_leader, comm);
	}
	__sync_fetch_and_add(&s->count, 1);
	__sync_fetch_and_add(&s->ns, ns);
	if (error)
		__sync_fetch_and_add(&s->errors, 1);
	if (ns > s->max_ns)
		s->max_ns = ns; /* a racing CPU may keep the smaller: the histogram stays exact */
	hist_count(s->hist, ns);
}

/* The call, ended now, into the capture's ring buffer while one runs; driver: a fence wait's. */
static __always_inline void capture(__u32 kind, __u64 id, __u64 start, __u64 end,
				    const struct ioctl_key *ik, __s64 ret, const char *driver)
{
	struct calls_rec *r = capture_reserve(&capture_rb, sizeof(*r), &capture_on,
					      &drops[CALLS_DROP_CAPTURE_FULL]);
	struct task_struct *task;

	if (!r)
		return;
	r->start_ns = start;
	r->end_ns = end;
	r->tgid = id >> 32;
	r->tid = (__u32)id;
	r->rdev = ik ? ik->rdev : 0;
	r->cmd = ik ? ik->cmd : 0;
	r->ret = ret;
	r->kind = kind;
	r->pad = 0;
	bpf_get_current_comm(r->thread, sizeof(r->thread));
	r->comm[0] = 0;
	task = (struct task_struct *)bpf_get_current_task();
	if (bpf_core_field_exists(task->group_leader))
		BPF_CORE_READ_STR_INTO(&r->comm, task, group_leader, comm);
	r->driver[0] = 0;
	if (driver)
		__builtin_memcpy(r->driver, driver, CALLS_NAME);
	capture_submit(&capture_rb, r);
}

/* The syscall wrapper's caller of a call from user stack ustack_id of tgid (callers above). */
static __always_inline __u64 wrapper_caller(__u32 tgid, __s32 ustack_id)
{
	__u64 key = (__u64)tgid << 32 | (__u32)ustack_id, caller, *known;

	if (ustack_id < 0)
		return syscall_caller();
	known = bpf_map_lookup_elem(&callers, &key);
	if (known)
		return *known;
	caller = syscall_caller();
	bpf_map_update_elem(&callers, &key, &caller, BPF_ANY);
	return caller;
}

/* --stacks: the calling thread's user registers and stack copied for the DWARF unwind, under key k (first: its first). */
static __always_inline void stack_copy(const struct call_stack_key *k, bool first)
{
	struct pt_regs regs;
	__u32 z = 0;
	struct call_stack_sample *s = bpf_map_lookup_elem(&sample_scratch, &z);

	if (!s || user_stack_current_regs(&regs))
		return;
	s->key = *k;
	if (user_stack_send(&samples, s, offsetof(struct call_stack_sample, stack), &regs, first))
		drop_count(drops, CALLS_DROP_SAMPLE_LOST, CALLS_DROP_MAX);
}

/*
 * --stacks: the call (source, ioctl key ik or none), ns long, into the sum of its
 * process's stacks now. ctx: the tracepoint's (NULL in the decoding tests).
 */
static __always_inline void stack_sum_add(void *ctx, __u32 source, __u64 id,
					  const struct ioctl_key *ik, __u64 ns)
{
	struct call_stack_key k = { .tgid = id >> 32, .source = source };
	struct call_stack_sum zero = {}, *s;
	__s64 sid;
	bool first;

	if (!capture_stacks || !ctx)
		return;
	/*
	 * Either stack not taken (its hash's bucket held by another stack, the
	 * kernel's callchain buffer in use on this CPU, a user stack unreadable
	 * in a kernel thread): the call still counts, its line lacks those frames.
	 */
	sid = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	k.ustack_id = sid < 0 ? -1 : (__s32)sid; /* written "[no stack]" */
	if (sid < 0 && BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), mm))
		drop_count(drops, CALLS_DROP_STACK_UNREAD, CALLS_DROP_MAX);
	if (ik) {
		k.rdev = ik->rdev;
		k.cmd = ik->cmd;
	}
	k.caller = wrapper_caller(k.tgid, k.ustack_id); /* a wait: its syscall's (0 in a kernel thread) */
	sid = bpf_get_stackid(ctx, &stacks, 0);
	k.kstack_id = sid < 0 ? -1 : (__s32)sid;
	if (sid < 0)
		drop_count(drops, CALLS_DROP_STACK_UNREAD, CALLS_DROP_MAX);
	s = lookup_or_init(&stack_sums, &k, &zero);
	if (!s) {
		drop_count(drops, CALLS_DROP_STACK_SUMS_FULL, CALLS_DROP_MAX);
		return;
	}
	__sync_fetch_and_add(&s->ns, ns);
	/* the sum's first call is copied always (its chains exist), later ones as sampled */
	first = __sync_fetch_and_add(&s->count, 1) == 0;
	if (first || user_stack_sample_allowed(&samples))
		stack_copy(&k, first);
}

/* twin: the copy run after the primary, handling the call only where the primary was skipped. */
static __always_inline int on_ioctl_enter(__u64 id, __u32 rdev, __u32 cmd, __u64 now, bool twin)
{
	struct ioctl_pending p = { .ns = now,
				   .key = { .tgid = id >> 32, .rdev = rdev, .cmd = cmd },
				   .fresh = !twin };
	struct ioctl_pending *old;

	if (!rdev)
		return 0;
	if (twin) {
		old = bpf_map_lookup_elem(&ioctl_pending, &id);
		if (old && old->fresh) { /* the primary ran for this call */
			old->fresh = 0;
			return 0;
		}
		__sync_fetch_and_add(&rescued[CALLS_IOCTL_ENTER][1], 1);
	}
	if (bpf_map_update_elem(&ioctl_pending, &id, &p, BPF_ANY))
		drop_count(drops, CALLS_DROP_PENDING_FULL, CALLS_DROP_MAX);
	else
		__sync_fetch_and_add(&ioctls_open, 1);
	return 0;
}

static __always_inline int on_ioctl_exit(void *ctx, __u64 id, __s64 ret, __u64 now, bool twin)
{
	struct ioctl_pending *p = bpf_map_lookup_elem(&ioctl_pending, &id);
	struct ioctl_key key;
	__u64 start;

	if (!p)
		return 0;
	if (twin) /* the primary, had it run, would have taken the entry */
		__sync_fetch_and_add(&rescued[CALLS_IOCTL_EXIT][1], 1);
	key = p->key;
	start = p->ns;
	if (!bpf_map_delete_elem(&ioctl_pending, &id))
		__sync_fetch_and_sub(&ioctls_open, 1);
	stats_add(&ioctls, &key, now > start ? now - start : 0, ret < 0);
	stack_sum_add(ctx, CALL_STACK_IOCTL, id, &key, now > start ? now - start : 0);
	capture(CALLS_REC_IOCTL, id, start, now, &key, ret, NULL);
	return 0;
}

static __always_inline int on_wait_start(void *rec, __u64 id, __u64 now, bool twin)
{
	struct wait_pending p = { .ns = now, .key = { .tgid = id >> 32 }, .fresh = !twin };
	__u32 loc = BPF_CORE_READ((struct trace_event_raw_dma_fence *)rec, __data_loc_driver);
	struct wait_pending *old = bpf_map_lookup_elem(&wait_pending, &id);

	if (twin) {
		if (old && old->fresh) { /* the primary ran for this wait */
			old->fresh = 0;
			return 0;
		}
		__sync_fetch_and_add(&rescued[CALLS_WAIT_START][1], 1);
	} else if (old) { /* dma_fence_wait inside a fence's wait: the outer one is lost */
		drop_count(drops, CALLS_DROP_NESTED_WAIT, CALLS_DROP_MAX);
	}
	bpf_probe_read_kernel_str(p.key.driver, sizeof(p.key.driver), rec + (loc & 0xffff));
	if (bpf_map_update_elem(&wait_pending, &id, &p, BPF_ANY))
		drop_count(drops, CALLS_DROP_PENDING_FULL, CALLS_DROP_MAX);
	return 0;
}

static __always_inline int on_wait_end(void *ctx, __u64 id, __u64 now, bool twin)
{
	struct wait_pending *p = bpf_map_lookup_elem(&wait_pending, &id);
	struct wait_key key;
	__u64 start;

	if (!p)
		return 0;
	if (twin)
		__sync_fetch_and_add(&rescued[CALLS_WAIT_END][1], 1);
	key = p->key;
	start = p->ns;
	bpf_map_delete_elem(&wait_pending, &id);
	stats_add(&waits, &key, now > start ? now - start : 0, false);
	stack_sum_add(ctx, CALL_STACK_FENCE_WAIT, id, NULL, now > start ? now - start : 0);
	capture(CALLS_REC_WAIT, id, start, now, NULL, 0, key.driver);
	return 0;
}

static __always_inline int ioctl_enter_copy(struct sys_enter_ioctl_args *ctx, bool twin)
{
	__u64 id;

	if (!majors[0] || !gpu_files_open()) /* nothing to watch: every ioctl costs nothing more */
		return 0;
	id = bpf_get_current_pid_tgid();
	if (id >> 32 == self_tgid)
		return 0;
	return on_ioctl_enter(id, watched_rdev(ctx->fd), (__u32)ctx->cmd, bpf_ktime_get_ns(), twin);
}

static __always_inline int ioctl_exit_copy(struct sys_exit_args *ctx, bool twin)
{
	/* no GPU device (a driver cannot unload with calls in flight), the gate closed (what
	 * was left in flight user space took out), or no GPU ioctl in flight */
	if (!majors[0] || !gpu_files_open() || !*(volatile __u64 *)&ioctls_open)
		return 0;
	return on_ioctl_exit(ctx, bpf_get_current_pid_tgid(), ctx->ret, bpf_ktime_get_ns(), twin);
}

SEC("tp/syscalls/sys_enter_ioctl")
int ioctl_enter(struct sys_enter_ioctl_args *ctx)
{
	return ioctl_enter_copy(ctx, false);
}

SEC("tp/syscalls/sys_enter_ioctl")
int ioctl_enter2(struct sys_enter_ioctl_args *ctx)
{
	return ioctl_enter_copy(ctx, true);
}

SEC("tp/syscalls/sys_exit_ioctl")
int ioctl_exit(struct sys_exit_args *ctx)
{
	return ioctl_exit_copy(ctx, false);
}

SEC("tp/syscalls/sys_exit_ioctl")
int ioctl_exit2(struct sys_exit_args *ctx)
{
	return ioctl_exit_copy(ctx, true);
}

SEC("tp/dma_fence/dma_fence_wait_start")
int wait_start(void *ctx)
{
	return on_wait_start(ctx, bpf_get_current_pid_tgid(), bpf_ktime_get_ns(), false);
}

SEC("tp/dma_fence/dma_fence_wait_start")
int wait_start2(void *ctx)
{
	return on_wait_start(ctx, bpf_get_current_pid_tgid(), bpf_ktime_get_ns(), true);
}

SEC("tp/dma_fence/dma_fence_wait_end")
int wait_end(void *ctx)
{
	return on_wait_end(ctx, bpf_get_current_pid_tgid(), bpf_ktime_get_ns(), false);
}

SEC("tp/dma_fence/dma_fence_wait_end")
int wait_end2(void *ctx)
{
	return on_wait_end(ctx, bpf_get_current_pid_tgid(), bpf_ktime_get_ns(), true);
}
