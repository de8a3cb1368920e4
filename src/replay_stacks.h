/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --replay REC --stacks FILE: the recording's stacks tables (nvidia.stacks,
 * drm_sched.stacks, calls.stacks) written as the folded file, or with FILE.svg
 * the flame graph, that a live run writes at its end. Their rows are sums since
 * the capture began, so the last snapshot played has the run's: its rows, in
 * the weight asked for (struct stack_row, as the live file's lines are made).
 * What the tables left out (past their 1,000 heaviest rows) is not there.
 */
#ifndef GPUTOP_REPLAY_STACKS_H
#define GPUTOP_REPLAY_STACKS_H

#include <stddef.h>
#include "model/feed.h"
#include "symbols/stack_file.h"

/*
 * The last snapshot feed played, its stacks rows into FILE path (with the
 * user's rights) weighed by w. 0 with msg the end line ("stacks 'F': N stacks,
 * ..."), or -errno with msg saying why.
 */
int replay_stacks_write(struct feed *feed, const char *path, enum stack_weight w, char *msg, size_t size);

#endif
