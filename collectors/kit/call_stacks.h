/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks of calls that block: GPU ioctls and fence waits (the calls
 * collector) and CUDA synchronisations (the NVIDIA collector). Their BPF
 * programs sum each call at its end per (process, source, call, user stack,
 * kernel stack) in calls and time inside (bpf/call_stack.h); here each
 * process's mappings are captured at its first sight in the sums (while it
 * lives), and at the end one folded line per sum goes into the --stacks file:
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

struct call_stacks {
	struct stack_file *sf; /* NULL: no stacks taken */
	struct stack_procs procs; /* by first sight */
	uint32_t last_seen; /* the process of the last key seen */
	struct key_text texts, leaves; /* each key's frames and a sync's leaf, symbolized once */
	int write_err;
};

/* Stacks of source s for sf (NULL, or a weight without s: none taken). */
void call_stacks_init(struct call_stacks *cs, struct stack_file *sf, enum stack_source s);
/* Every sum as a row to fn (stack_rows_add: the live tables), each stack symbolized once. */
void call_stacks_rows(struct call_stacks *cs, int sums_fd, int stacks_fd, const struct call_names *names,
		      stack_row_fn fn, void *arg);
/* At the end: every sum as a line, the stacks from stacks_fd; lost: calls with no sum; 0, or -errno. */
int call_stacks_write(struct call_stacks *cs, int sums_fd, int stacks_fd, uint64_t lost,
		      const struct call_names *names);
void call_stacks_free(struct call_stacks *cs);

#endif
