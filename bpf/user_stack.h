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

/*
 * The sampling rule of stack copies (any collector's): at most
 * USER_STACK_SAMPLE_RATE a second per CPU, in bursts of USER_STACK_SAMPLE_BURST,
 * while the ring buffer is at most half full (and whatever first sights its
 * collector always copies).
 */
#define USER_STACK_SAMPLE_RATE 1000
#define USER_STACK_SAMPLE_BURST 512
/* Bytes of the ring buffer a collector's copies pass through (512 copies of the whole budget). */
#define USER_STACK_SAMPLE_RING (8u << 20)

/* Per CPU: the sampling budget, in nanoseconds of credit (a copy costs 1e9 / USER_STACK_SAMPLE_RATE). */
struct user_stack_credit {
	__u64 last_ns;
	__u64 credit_ns;
};

struct user_stack {
	__u64 ip, sp, bp; /* the user registers at the event */
	__u32 size; /* bytes copied from sp into data */
	__u32 flags; /* enum user_stack_flags */
	__u8 data[USER_STACK_BYTES];
};

#endif
