/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The stack sources' live tables, nvidia.stacks (CUDA launches) and
 * drm_sched.stacks (scheduler jobs): one row per (process, stack, leaf), its
 * sums since the capture began, the heaviest (by count) STACK_TABLE_ROWS of
 * them; the rows made from the same sums (struct stack_row) as the --stacks
 * file's lines. No rows while no stacks are taken.
 */
#ifndef GPUTOP_KIT_STACK_TABLE_H
#define GPUTOP_KIT_STACK_TABLE_H

#include <stddef.h>
#include "model/table.h"
#include "symbols/stack_row.h"

/* Rows a stacks table holds at most; the lightest past it are left out (the collector's drop). */
#define STACK_TABLE_ROWS 1000

enum stack_col {
	STACK_PID, STACK_COMM, STACK_SOURCE, STACK_LEAF, STACK_FRAMES, STACK_COUNT, STACK_GPU_NS,
	STACK_WAIT_NS, STACK_SAMPLED, STACK_BLOCKED_NS, STACK_COLS,
};

extern const struct table_desc nvidia_stacks_table;
extern const struct table_desc sched_stacks_table;
extern const struct table_desc calls_stacks_table;

/* Rows collected for one table, during one read. */
struct stack_rows {
	struct stack_row *rows;
	size_t n, cap;
	size_t failed; /* not kept: out of memory */
};

/* A row (a stack_row_fn): leaf and sampled copied, comm and frames must live until stack_rows_table. */
void stack_rows_add(void *rows, const struct stack_row *r);
/* The heaviest STACK_TABLE_ROWS rows into t, emptied after; how many were left out. */
size_t stack_rows_table(struct stack_rows *rs, struct table *t);
void stack_rows_free(struct stack_rows *rs);
/*
 * Each row of a stacks table (one read from a recording: --replay with
 * --stacks) back as the stack_row it was made from, to fn; a row of an unknown
 * source skipped. How many went to fn.
 */
size_t stack_table_rows(const struct table *t, stack_row_fn fn, void *arg);

#endif
