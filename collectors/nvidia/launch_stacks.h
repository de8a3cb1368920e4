/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks FILE: the CPU call stacks CUDA launches came from, as folded stacks
 * weighted by launches ("comm;main;...;cuLaunchKernel;kernel N"): the stacks
 * and counts from BPF (nvidia.bpf.c, launch_stacks and stacks), each process's
 * mappings captured at its first sight, symbolized at the end (symbols/) into
 * the --stacks file (symbols/stack_file.h) when its weight takes launches.
 * Where a launch's stack copy was unwound with DWARF (symbols/dwarf_chains.h), its
 * chains replace the frame-pointer stack of its key.
 */
#ifndef GPUTOP_LAUNCH_STACKS_H
#define GPUTOP_LAUNCH_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collectors/kit/proc_cache.h"
#include "bpf/nvidia.h"
#include "symbols/dwarf_chains.h"
#include "symbols/stack_file.h"
#include "symbols/stack_procs.h"

struct stack_kernel;
struct ring_buffer;

struct launch_stacks {
	struct stack_file *sf; /* NULL: no stacks taken */
	struct stack_procs procs; /* every process seen launching, by first sight */
	struct stack_kernel *kernels; /* kernel names, kept while their processes live */
	size_t nkernels, kcap;
	int names_fd;
	struct ring_buffer *samples; /* the stack copies, unwound at each tick */
	struct dwarf_chains dwarf;
	struct proc_cache *pcache; /* during a tick */
	uint64_t lines, launches; /* written at the end */
};

/* Launches' stacks for sf (NULL, or a weight without launches: none taken). */
void launch_stacks_open(struct launch_stacks *ls, struct stack_file *sf);
/* Reads the stack copies of the ring buffer map samples_fd from now on. 0, or -errno. */
int launch_stacks_attach(struct launch_stacks *ls, int samples_fd);
/*
 * Each interval, before the names of exited processes go: the mappings and
 * command names of processes launching for the first time, the names of kernels
 * launched for the first time.
 */
void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache);
/* At the end: every (process, stack, kernel) as a folded line; 0, or -errno. */
int launch_stacks_write(struct launch_stacks *ls, int counts_fd, int stacks_fd);
void launch_stacks_close(struct launch_stacks *ls);

#endif
