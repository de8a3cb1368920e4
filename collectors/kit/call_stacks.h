/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks of calls that block: GPU ioctls and fence waits (the calls
 * collector) and CUDA synchronisations (the NVIDIA collector). Their BPF
 * programs sum each call at its end per (process, source, call, user stack,
 * kernel stack) in calls and time inside (bpf/call_stack.h), and copy the user
 * stack for a DWARF unwind at a sum's first call and as sampled after; here
 * each process's mappings are captured at its first sight in the copies or
 * the sums (while it lives), each copy is unwound, and a sum whose copies were
 * unwound gives a row per chain with its share of the sum (symbols/dwarf_chains.h),
 * else one by frame pointers. At the end each row is a line of the --stacks file:
 * "command;main;...;ioctl;entry_SYSCALL_64_[k];...;COMMAND" (an ioctl, its
 * command named as calls.ioctls names it), "command;...;dma_fence_wait_timeout_[k];
 * ...;fence wait" (a fence wait), "command;main;...;caller;cuCtxSynchronize"
 * (a CUDA sync: the function its stack was taken in the leaf), in the file's
 * weight. Every call the source's tables count is in one sum, unless counted
 * lost (its sums' table full: the file's lost).
 */
#ifndef GPUTOP_CALL_STACKS_H
#define GPUTOP_CALL_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include "collectors/kit/key_text.h"
#include "collectors/kit/ring_reader.h"
#include "symbols/dwarf_chains.h"
#include "symbols/stack_file.h"
#include "symbols/stack_row.h"
#include "symbols/stack_procs.h"

/* The name of ioctl command cmd on device rdev into out[size], as calls.ioctls names it. */
typedef void (*call_ioctl_name_fn)(void *ctx, uint32_t rdev, uint32_t cmd, char *out, size_t size);

/* How a source names its ioctls' leaves (name NULL: no ioctls, syncs). */
struct call_names {
	call_ioctl_name_fn name;
	void *ctx;
};

struct ring_buffer;
struct call_sum;

struct call_stacks {
	struct stack_file *sf; /* NULL: no stacks taken */
	struct stack_procs procs; /* by first sight */
	struct key_text texts, leaves; /* each key's frame-pointer frames and a sync's leaf, symbolized once */
	struct ring_buffer *samples; /* the stack copies (struct call_stack_sample); NULL: none */
	struct ring_reader reader; /* its thread: each copy unwound as it comes, its process's mappings read then */
	struct dwarf_chains dwarf; /* the copies unwound, per sum's key */
	uint64_t copies_lost; /* copies not unwound (dwarf.lost) at the last rows pass */
	struct call_sum *sums; /* the sums of a rows pass */
	size_t nsums, cap;
	int write_err;
};

/* Stacks of source s for sf (NULL, or a weight without s: none taken). */
void call_stacks_init(struct call_stacks *cs, struct stack_file *sf, enum stack_source s);
/*
 * --stacks: the source's stack copies (samples_fd: a ring buffer of struct
 * call_stack_sample), read by a thread of their own as they come (a key's first
 * at once: its process's mappings are read while it lives); 0, or -errno.
 */
int call_stacks_attach(struct call_stacks *cs, int samples_fd);
/* Every sum as a row to fn (stack_rows_add: the live tables), each stack symbolized once. */
void call_stacks_rows(struct call_stacks *cs, int sums_fd, int stacks_fd, const struct call_names *names,
		      stack_row_fn fn, void *arg);
/* At the end: every sum as a line, the stacks from stacks_fd; lost: calls with no sum; 0, or -errno. */
int call_stacks_write(struct call_stacks *cs, int sums_fd, int stacks_fd, uint64_t lost,
		      const struct call_names *names);
void call_stacks_free(struct call_stacks *cs);

#endif
