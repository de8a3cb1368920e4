/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks for the scheduler (streamed design): each completed job's stacks
 * (struct job_span: the user and kernel stacks its queue event took in the
 * submitting ioctl) summed per (process, ring, stack) in jobs, GPU time (run ->
 * done) and queue wait (queue -> run); each process's mappings captured at its
 * first queue record; at the end one folded line per sum into the --stacks
 * file: "command;main;...;ioctl;entry_SYSCALL_64_[k];...;[ring DEV NAME]", in
 * the file's weight; where queue events' stacks were copied (DWARF, for code
 * without frame pointers), the user frames of their unwound chains instead,
 * each chain with its share of the sum. Every job of a known process is in one
 * sum: a process's weights add up to its totals, unless counted lost (the
 * file's lost). The same sums, each symbolized once, make the drm_sched.stacks
 * rows every interval (collectors/kit/stack_table.h). Called under the stream's
 * lock only.
 */
#ifndef GPUTOP_SCHED_STACKS_H
#define GPUTOP_SCHED_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include "bpf/drm_sched.h"
#include "bpf/drm_sched_stream.h"
#include "core/key_index.h"
#include "model/job_sink.h"
#include "symbols/dwarf_chains.h"
#include "symbols/stack_file.h"
#include "symbols/stack_procs.h"

struct sched_stack_sum;

/* (process, ring, stack) sums kept at most (48 bytes each): a job past them is counted lost. */
#define SCHED_STACK_SUMS_MAX (1U << 20)

struct sched_stacks {
	struct stack_file *sf; /* NULL: no stacks taken */
	struct key_index pairs; /* tgid << 32 | ring -> its first sum */
	struct sched_stack_sum *sums;
	size_t nsums, cap;
	struct stack_procs procs; /* by first sight */
	uint32_t last_seen; /* the process of the last queue record */
	int write_err;
	struct dwarf_chains dwarf; /* the queue events' stack copies, unwound, per sum's key */
};

/* Stacks for sf (NULL, or a weight without jobs: none taken). */
void sched_stacks_init(struct sched_stacks *ss, struct stack_file *sf);
/* A queue record of tgid: its mappings captured at the first one, while it lives. */
void sched_stacks_seen(struct sched_stacks *ss, uint32_t tgid, const char *comm);
/*
 * A queue event's stack copy (struct sched_stack_sample, size bytes): unwound
 * now with its process's mappings (captured now at its first sight), counted
 * under its sum's key; at the end the sum's weights are shared among its chains.
 */
void sched_stacks_sample(struct sched_stacks *ss, const void *data, size_t size);
/* A job completed on ring (a sched_job_fn's arguments). */
void sched_stacks_add(struct sched_stacks *ss, uint32_t ring, const struct job_span *span);
/* Frames sched_stacks_frames may give: the kernel's and the user's, the caller put back. */
#define SCHED_STACK_FRAMES_MAX (2 * SCHED_STACK_DEPTH + 1)
/*
 * The frames of a job's stacks (--trace with --stacks), leaf first: kernel
 * frames, then user ones symbolized through the mappings captured at its
 * process's first queue record; into out[max] (max at least
 * SCHED_STACK_FRAMES_MAX). How many; 0: none (stacks off, none taken, max short).
 */
size_t sched_stacks_frames(struct sched_stacks *ss, int stacks_fd, const struct stack_ref *s,
			   struct frame *out, size_t max);
/*
 * Every sum as a row to fn: its stacks from the stacks map, symbolized at its
 * first row only, its ring named by keys.
 */
void sched_stacks_rows(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys, stack_row_fn fn,
		       void *arg);
/* Every sum as a line, the stacks from the stacks map, rings named by keys; 0, or -errno. */
int sched_stacks_write(struct sched_stacks *ss, int stacks_fd, const struct ring_key *keys);
void sched_stacks_free(struct sched_stacks *ss);

#endif
