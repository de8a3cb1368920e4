/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One (process, stack, leaf) sum of a stack source, since the capture began:
 * what both the --stacks file's line (stack_file_row) and the live table's row
 * (collectors/kit/stack_table.h) are made from, so that they agree.
 */
#ifndef GPUTOP_SYMBOLS_STACK_ROW_H
#define GPUTOP_SYMBOLS_STACK_ROW_H

#include <stdbool.h>
#include <stdint.h>

/* Which sources a weight takes stacks from. */
enum stack_source {
	STACK_SOURCE_LAUNCHES,
	STACK_SOURCE_JOBS,
	STACK_SOURCE_CALLS, /* GPU ioctls and fence waits (collectors/kit/call_stacks.c) */
	STACK_SOURCE_SYNCS, /* CUDA synchronisations (the same) */
};

struct stack_row {
	uint32_t pid;
	const char *comm; /* the command name, raw; "?" when unknown */
	enum stack_source source;
	const char *leaf; /* raw: the GPU kernel's name, or the ring as "DEV NAME" */
	const char *frames; /* folded_join's text: escaped, root first, without comm and leaf */
	const char *sampled; /* raw: "DWARF: 40 of 16201 launches unwound"; "" when every stack was taken */
	uint64_t count; /* launches or jobs */
	bool timed; /* jobs: gpu_ns and wait_ns known */
	uint64_t gpu_ns, wait_ns; /* run -> done, queue -> run; summed */
	uint64_t blocked_ns; /* GPU ioctls, fence waits, CUDA syncs: the time inside them, summed */
};

/* Where a source's rows go: the --stacks file, or a table's rows. */
typedef void (*stack_row_fn)(void *arg, const struct stack_row *r);

#endif
