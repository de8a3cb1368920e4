/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * DWARF unwinding of a copied user stack (bpf/user_stack.h), as perf's
 * --call-graph dwarf does: elfutils' libdwfl with our own thread callbacks
 * (registers from the copy's ip, sp, bp; memory from the copied bytes only),
 * the modules of the process's mappings captured while it lived, their
 * .eh_frame / .debug_frame CFI. Each mapped file is another user's: opened as
 * the symbolizer opens it (file_open.h: the very file mapped), read with
 * pread (elf_file.h), and only when a frame falls in it; its CFI checked
 * then, once, and refused past bounds (cfi_check.h).
 */
#ifndef GPUTOP_SYMBOLS_UNWIND_H
#define GPUTOP_SYMBOLS_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/proc_maps.h"

/* Frames one unwind gives at most (the kernel's PERF_MAX_STACK_DEPTH). */
#define UNWIND_FRAMES_MAX 127

struct unwind_proc;

/* What one event copied: the registers and the stack bytes from sp. */
struct unwind_input {
	uint64_t ip, sp, bp;
	const uint8_t *stack;
	size_t len;
	bool cut; /* the byte budget ended the copy, not the stack's end */
};

struct unwind_result {
	uint64_t ips[UNWIND_FRAMES_MAX]; /* the leaf first: ip, then return addresses */
	size_t n;
	bool truncated; /* the walk needed bytes the budget left out ([truncated]) */
	bool complete; /* the walk reached the outermost frame (not stopped by unknown code or memory) */
};

/*
 * An unwinder for process pid over its captured maps: their table and path pool
 * (not the struct proc_maps itself) must stay, unchanged, while it lives.
 */
struct unwind_proc *unwind_proc_new(pid_t pid, const struct proc_maps *maps);
void unwind_proc_free(struct unwind_proc *u);
/* Unwinds one copy into r; r->n is at least 1 (the ip) for any input. */
void unwind_stack(struct unwind_proc *u, const struct unwind_input *in, struct unwind_result *r);
/* Mapped files opened by u so far (each at most once). */
uint64_t unwind_files_opened(const struct unwind_proc *u);
/*
 * Of those, the files whose CFI was refused (symbols/cfi_check.h: a program
 * past a bound; their frames unwound by frame pointers); *why (may be NULL)
 * the first one's reason ("" when none).
 */
uint64_t unwind_cfi_refused(const struct unwind_proc *u, const char **why);

#endif
