/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Which rows of a snapshot a table shows, in which order: sorting and filtering, no curses. */
#ifndef GPUTOP_ROWS_H
#define GPUTOP_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include "../model/snapshot.h"

enum ring_col {
	RING_COL_NAME, RING_COL_DEV, RING_COL_QUEUE, RING_COL_INFLIGHT, RING_COL_JOBS,
	RING_COL_BUSY, RING_COL_WAIT, RING_COL_EXEC, RING_COL_TOTAL, RING_COLS,
};

enum proc_col {
	PROC_COL_PID, PROC_COL_COMM, PROC_COL_JOBS, PROC_COL_GPU, PROC_COL_SHARE, PROC_COL_WAIT,
	PROC_COL_TOTAL, PROC_COLS,
};

const char *ring_column_name(int col); /* "jobs", "busy" ... as in the config file */
const char *proc_column_name(int col);
int ring_column_by_name(const char *name); /* -1 when unknown */
int proc_column_by_name(const char *name);
const char *ring_column_title(int col); /* as in the table header */
const char *proc_column_title(int col);

/*
 * Fills out (room for s->nrings / s->nprocs) with the indices of the rows that
 * match filter (case-insensitive substring of name/device, comm, or the PID),
 * sorted by col: numbers largest first, names A to Z; reverse flips it.
 * Returns how many.
 */
size_t rows_rings(const struct snapshot *s, int col, bool reverse, const char *filter,
		  size_t *out);
size_t rows_procs(const struct snapshot *s, int col, bool reverse, const char *filter,
		  size_t *out);

#endif
