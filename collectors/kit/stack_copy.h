/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks: a stack copy from a BPF program (bpf/user_stack.h) unwound with
 * DWARF (symbols/unwind.h) in its process's captured mappings, by the
 * confined symbolizing child (symbols/sym_child.h). Shared by the collectors
 * that copy stacks (CUDA launches, the scheduler's queue events).
 */
#ifndef GPUTOP_KIT_STACK_COPY_H
#define GPUTOP_KIT_STACK_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bpf/user_stack.h"
#include "symbols/stack_procs.h"
#include "symbols/unwind.h"

/*
 * The copy s (size bytes received from it) of p unwound into r. false:
 * malformed, p unknown or its mappings not read, or the child did not answer
 * (counted in sym_child_stats).
 */
bool stack_copy_unwind(struct stack_proc *p, const struct user_stack *s, size_t size,
		       struct unwind_result *r);

/* What the monitor's DWARF unwinding has cost since it started, all threads together. */
struct stack_copy_cost {
	uint64_t copies; /* copies unwound by stack_copy_unwind */
	uint64_t cpu_ns; /* the symbolizing child's CPU time unwinding them (its files' reading included), ns */
	uint64_t cfi_refused; /* mapped files whose CFI was refused (unwind.h), each process's count */
};
/* Thread-safe; the time read covers at least the copies read. */
struct stack_copy_cost stack_copy_cost_read(void);

#endif
