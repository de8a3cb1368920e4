// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The stacks tables' schema, registered so that the recording reader and the
 * Stacks view (tui/stacks_view.c) know them: one row per (process, stack,
 * leaf), sums since the capture began. The collectors that fill them publish
 * with these descriptors (nvidia_stacks_table, drm_sched_stacks_table).
 */
#include "model/table.h"

#define STACK_COLS(COUNT_HELP)                                                                               \
	{ "pid", "PID", "the process (thread group)", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },        \
	{ "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },                         \
	{ "source", "SOURCE", "what the stack was taken at: launch, job (later ioctl, fence-wait, sync)",      \
	  COL_STR, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },                                                    \
	{ "leaf", "LEAF", "the GPU kernel launched, or the ring (\"DEV NAME\") the job ran on", COL_STR,        \
	  UNIT_NONE, 24, COL_KEY | COL_ASCENDING },                                                            \
	{ "count", "COUNT", COUNT_HELP, COL_U64, UNIT_COUNT, 8, COL_CUMULATIVE },                              \
	{ "gpu_time_ns", "GPU TIME", "GPU execution time of its jobs (run to done) since the capture began",   \
	  COL_U64, UNIT_NS, 9, 0 },                                                                            \
	{ "queue_wait_ns", "QUEUE WAIT", "queue wait of its jobs since the capture began (launches: none)",    \
	  COL_U64, UNIT_NS, 10, 0 },                                                                           \
	{ "frames", "FRAMES", "the CPU call stack, root first, ';' between; '[truncated]' first where cut",     \
	  COL_STR, UNIT_NONE, 40, COL_KEY | COL_WIDE },                                                        \
	{ "sampled", "SAMPLED", "what of the stacks was sampled, or empty: all", COL_STR, UNIT_NONE, 20,        \
	  COL_DETAIL }

static const struct col_desc nvidia_stacks_cols[] = { STACK_COLS("CUDA launches with this stack") };
static const struct col_desc drm_sched_stacks_cols[] = { STACK_COLS("scheduler jobs with this stack") };

const struct table_desc nvidia_stacks_table = {
	.name = "nvidia.stacks",
	.title = "CUDA launch stacks",
	.empty = "No CUDA launch with a stack yet (start with --stacks FILE)",
	.cols = nvidia_stacks_cols,
	.ncols = sizeof(nvidia_stacks_cols) / sizeof(nvidia_stacks_cols[0]),
	.sort_col = 4,
};
TABLE_REGISTER(nvidia_stacks_table);

const struct table_desc drm_sched_stacks_table = {
	.name = "drm_sched.stacks",
	.title = "Scheduler job stacks",
	.empty = "No scheduler job with a stack yet (start with --stacks FILE)",
	.cols = drm_sched_stacks_cols,
	.ncols = sizeof(drm_sched_stacks_cols) / sizeof(drm_sched_stacks_cols[0]),
	.sort_col = 4,
};
TABLE_REGISTER(drm_sched_stacks_table);
