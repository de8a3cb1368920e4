/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The processes a stack source has seen, by first sight: each one's mappings
 * captured then (while it lives: it may exit before the stacks are written) and
 * its command name, for the root frame. Shared by the --stacks sources.
 */
#ifndef GPUTOP_SYMBOLS_STACK_PROCS_H
#define GPUTOP_SYMBOLS_STACK_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/symbolizer.h"

struct stack_proc {
	uint32_t pid;
	bool captured; /* its mappings were read (it may have exited before) */
	char comm[16];
	struct sym_process sp;
	uint64_t cfi_refused; /* its files whose CFI was refused (unwind.h), as its last unwind said */
	char cfi_why[64]; /* the first one's reason */
	uint64_t events, dwarf_events, dwarf_samples; /* at the end: all (launches, jobs), those of keys with chains, their samples */
};

struct stack_procs {
	struct stack_proc *procs;
	size_t n, cap;
};

struct stack_proc *stack_procs_find(struct stack_procs *ps, uint32_t pid);
/* pid at its first sight: its mappings captured now, comm ("" or NULL: "?") kept; NULL when seen before or out of memory. */
struct stack_proc *stack_procs_add(struct stack_procs *ps, uint32_t pid, const char *comm);
/* The frame of a user address of p: "[unknown]" when p is NULL or its mappings were not read. */
void stack_procs_frame(struct stack_proc *p, uint64_t addr, struct frame *out);
/*
 * Texts of frames: the mark before one is made; after, whether a frame since was "[unknown]" for now
 * (the symbolizing child was late: sym_child_provisional): that text is to be made again at its next use.
 */
uint64_t stack_frames_mark(void);
bool stack_frames_provisional(uint64_t mark);
/* Before a source's rows: every process's counts (events, dwarf_events, dwarf_samples) zeroed. */
void stack_procs_count_reset(struct stack_procs *ps);
/* One key of p (NULL: none) with events, unwound in samples copies (0: no DWARF chain). */
void stack_proc_count(struct stack_proc *p, uint64_t events, uint64_t samples);
/*
 * What was sampled of p's events (unit: "jobs", ...) for its DWARF rows: "DWARF: S of E jobs unwound", then
 * where files' CFI was refused (unwind.h) "; N file's CFI refused (why)"; or "". out: STACK_NOTE_MAX bytes.
 */
#define STACK_NOTE_MAX 192
void stack_proc_sampled(const struct stack_proc *p, const char *unit, char *out, size_t size);
void stack_procs_free(struct stack_procs *ps);

#endif
