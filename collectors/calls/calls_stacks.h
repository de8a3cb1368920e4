/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks for GPU ioctls and fence waits: the calls collector's BPF programs
 * sum each ioctl (at its exit) and fence wait (at its end) per (process, call,
 * user stack, kernel stack) in calls and time blocked (bpf/calls.h,
 * struct calls_stack_key); here each process's mappings are captured at its
 * first sight in the sums (while it lives), and at the end one folded line per
 * sum goes into the --stacks file: "command;main;...;ioctl;entry_SYSCALL_64_[k];
 * ...;DRM_IOCTL_NAME" (source "ioctl", the command named as calls.ioctls names
 * it) or "command;...;dma_fence_wait_timeout_[k];...;fence wait" (source
 * "fence-wait"), in the file's weight. Every call the calls tables count is in
 * one sum, unless counted lost (the sums' table full: the file's lost).
 */
#ifndef GPUTOP_CALLS_STACKS_H
#define GPUTOP_CALLS_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include "symbols/stack_file.h"
#include "symbols/stack_procs.h"

/* The name of ioctl command cmd on device rdev into out[size], as calls.ioctls names it. */
typedef void (*calls_ioctl_name_fn)(void *ctx, uint32_t rdev, uint32_t cmd, char *out, size_t size);

struct calls_stacks {
	struct stack_file *sf; /* NULL: no stacks taken */
	struct stack_procs procs; /* by first sight */
	uint32_t last_seen; /* the process of the last key seen */
};

/* Stacks for sf (NULL, or a weight without calls: none taken). */
void calls_stacks_init(struct calls_stacks *cs, struct stack_file *sf);
/* Each interval: the processes new in the sums map (sums_fd) seen, their mappings captured. */
void calls_stacks_tick(struct calls_stacks *cs, int sums_fd);
/* Every sum as a line, the stacks from stacks_fd; lost: calls with no sum; 0, or -errno. */
int calls_stacks_write(struct calls_stacks *cs, int sums_fd, int stacks_fd, uint64_t lost,
		       calls_ioctl_name_fn name, void *ctx);
void calls_stacks_free(struct calls_stacks *cs);

#endif
