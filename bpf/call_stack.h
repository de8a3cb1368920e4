/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks of calls that block (GPU ioctls and fence waits: bpf/calls.bpf.c;
 * CUDA synchronisations: bpf/nvidia.bpf.c): the calls of one process from one
 * place, summed in BPF at each call's end in calls and time inside. Plain data
 * shared with collectors/kit/call_stacks.c, which writes the sums.
 */
#ifndef GPUTOP_CALL_STACK_H
#define GPUTOP_CALL_STACK_H

#include <linux/types.h>
#include "user_stack.h"

#define CALL_STACK_DEPTH 127 /* frames a stack of the stack map keeps (PERF_MAX_STACK_DEPTH) */

enum call_stack_source {
	CALL_STACK_IOCTL, /* a watched ioctl, at its exit */
	CALL_STACK_FENCE_WAIT, /* a dma_fence wait, at its end */
	CALL_STACK_SYNC, /* a CUDA synchronisation (cu*Synchronize), stack taken at its entry */
};

/*
 * Stacks by id in the source's stack map, -1 when not taken (the map full, or
 * no frames); caller: the return address a frame-pointer walk leaves out (the
 * syscall wrapper's caller, bpf/user_caller.bpf.h; a probed function's, read
 * at its entry), 0 when none was found.
 */
struct call_stack_key {
	__u32 tgid;
	__u32 source; /* enum call_stack_source */
	__u32 rdev, cmd; /* an ioctl's device and command; 0 otherwise */
	__s32 ustack_id, kstack_id;
	__u64 caller;
};

struct call_stack_sum {
	__u64 count;
	__u64 ns; /* time inside the calls: blocked */
};

/*
 * --stacks: a call's user stack copied for the DWARF unwind (user_stack.h),
 * under the key of the sum it is counted in. Taken at a key's first call and
 * otherwise as user_stack.h's sampling rule allows: for an ioctl or a fence
 * wait at its end (the thread still inside its syscall: the user registers
 * are the syscall's), for a sync at its entry.
 */
struct call_stack_sample {
	struct call_stack_key key;
	struct user_stack stack; /* last: only its used bytes are sent */
};

#endif
