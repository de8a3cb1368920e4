/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A copy of a thread's user stack and the registers a DWARF unwinder starts
 * from (x86-64: ip, sp, bp), taken at an event in BPF (user_stack.bpf.h) and
 * unwound in user space (symbols/unwind.h), for code built without frame
 * pointers. Plain data, shared by both sides; any collector may embed it.
 */
#ifndef GPUTOP_USER_STACK_H
#define GPUTOP_USER_STACK_H

#include <linux/types.h>

#define USER_STACK_PAGE 4096
/* Bytes of stack copied from sp at most (the byte budget of one event). */
#define USER_STACK_BYTES (16 * 1024)

enum user_stack_flags {
	USER_STACK_CUT = 1, /* the budget ended the copy before the end of the stack's mapping */
	USER_STACK_NO_REGS = 2, /* no user registers (a kernel thread): nothing copied */
};

struct user_stack {
	__u64 ip, sp, bp; /* the user registers at the event */
	__u32 size; /* bytes copied from sp into data */
	__u32 flags; /* enum user_stack_flags */
	__u8 data[USER_STACK_BYTES];
};

#endif
