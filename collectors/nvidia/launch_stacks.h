/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks FILE: the CPU call stacks CUDA launches came from, as folded stacks
 * weighted by launches ("comm;main;...;cuLaunchKernel;kernel N"): the stacks
 * and counts from BPF (nvidia.bpf.c, launch_stacks and stacks), each process's
 * mappings captured at its first sight, symbolized at the end (symbols/) into
 * the --stacks file (symbols/stack_file.h) when its weight takes launches,
 * and every interval into the nvidia.stacks rows (collectors/kit/stack_table.h).
 * Where a launch's stack copy was unwound with DWARF (symbols/dwarf_chains.h), its
 * chains replace the frame-pointer stack of its key. Where the CUPTI companion
 * library's records were joined to the keys (launch_join.h), a key's rows carry
 * its kernels' GPU time and queued -> start time too (the gpu-time and
 * queue-wait weights).
 */
#ifndef GPUTOP_LAUNCH_STACKS_H
#define GPUTOP_LAUNCH_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collectors/kit/key_text.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/ring_reader.h"
#include "bpf/nvidia.h"
#include "model/job_sink.h"
#include "symbols/dwarf_chains.h"
#include "symbols/stack_file.h"
#include "symbols/stack_procs.h"

struct stack_kernel;
struct ring_buffer;

struct launch_stacks {
	struct stack_file *sf; /* NULL: no stacks taken */
	struct stack_file *armed; /* not open yet: stacks start when it opens (launch_stacks_live) */
	struct stack_procs procs; /* every process seen launching, by first sight */
	struct stack_kernel *kernels; /* kernel names, kept while their processes live */
	size_t nkernels, kcap;
	int names_fd;
	struct ring_buffer *samples; /* the stack copies, unwound as they come */
	struct ring_reader reader; /* its thread; its lock: procs, dwarf, kernels, fp */
	struct dwarf_chains dwarf;
	uint64_t copies_lost; /* dwarf.lost at the last rows pass */
	struct key_text fp; /* each key's frame-pointer stack, symbolized once */
	uint64_t lines, launches; /* written at the end */
	int write_err;
	int gpu_fd; /* BPF's stack_gpu (the GPU time join): each key's kernels' GPU time; -1: none */
};

/*
 * Launches' stacks for sf (NULL, or a weight without launches: none taken); sf
 * not open yet: none until it opens.
 */
void launch_stacks_open(struct launch_stacks *ls, struct stack_file *sf);
/* Each read: whether stacks start now (the armed file opened, live): the BPF side's flag is the caller's. */
bool launch_stacks_live(struct launch_stacks *ls);
/*
 * Reads the stack copies of the ring buffer map samples_fd from now on, in a
 * thread of its own as they come (a key's first at once: its process's
 * mappings are read while it lives). 0, or -errno.
 */
int launch_stacks_attach(struct launch_stacks *ls, int samples_fd);
/*
 * Each interval, before the names of exited processes go: the mappings and
 * command names of processes launching for the first time, the names of kernels
 * launched for the first time.
 */
void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache);
/* Frames launch_stacks_frames may give: a DWARF chain's, or the frame pointers' and the caller. */
#define LAUNCH_STACK_FRAMES_MAX \
	(UNWIND_FRAMES_MAX > NV_STACK_DEPTH + 1 ? UNWIND_FRAMES_MAX : NV_STACK_DEPTH + 1)
/*
 * A launch's frames for the trace (--trace with --stacks; r: its stack key:
 * pid, ustack_id, caller, aux the kernel's handle), leaf first, into out[max]
 * (max at least LAUNCH_STACK_FRAMES_MAX): the key's most sampled DWARF chain
 * where it has one (unless it stopped short where the frame pointers went
 * deeper), else its frame-pointer stack. After the tick that saw its process
 * first. How many; 0: none.
 */
size_t launch_stacks_frames(struct launch_stacks *ls, int stacks_fd, const struct stack_ref *r,
			    struct frame *out, size_t max);
/*
 * Every (process, stack, kernel) as a row to fn (after a tick): each key's
 * stack, and each DWARF chain, symbolized at its first row only.
 */
void launch_stacks_rows(struct launch_stacks *ls, int counts_fd, int stacks_fd, stack_row_fn fn, void *arg);
/* At the end: every (process, stack, kernel) as a folded line; 0, or -errno. */
int launch_stacks_write(struct launch_stacks *ls, int counts_fd, int stacks_fd);
void launch_stacks_close(struct launch_stacks *ls);

#endif
