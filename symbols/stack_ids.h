/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Frames of the stacks a BPF stack map keeps (bpf_get_stackid: addresses leaf
 * first, 0-ended, depth at most), for the --stacks sources that take them: the
 * scheduler's jobs (collectors/drm_sched/sched_stacks.c) and GPU ioctls and fence
 * waits and CUDA syncs (collectors/kit/call_stacks.c).
 */
#ifndef GPUTOP_SYMBOLS_STACK_IDS_H
#define GPUTOP_SYMBOLS_STACK_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/frame.h"
#include "symbols/stack_procs.h"
#include "symbols/symbolizer.h"

/* f as a frame of no module named fmt with a and b (cut). */
void stack_frame_named(struct frame *f, const char *fmt, const char *a, const char *b);
/* Kernel frames into out, leaf first, the tracing machinery's at the top left out, mark: named "_[k]"; how many. */
size_t stack_kernel_frames(struct symbolizer *sym, const uint64_t *ips, size_t depth, bool mark,
			   struct frame *out);
/*
 * User frames of process p into out (depth + 1 at most), leaf first; caller, the
 * syscall wrapper's caller a frame-pointer walk leaves out (0: none), put back
 * after the first. Their number.
 */
size_t stack_user_frames(struct stack_proc *p, const uint64_t *ips, size_t depth, uint64_t caller, struct frame *out);

#endif
