/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rows of a BPF hash of per-process counters whose key starts with the
 * process's tgid (a u32): each entry read with map_delta, the process's name
 * from the cache, one row of the table per entry; an entry whose process
 * exited is shown once more, then deleted from the map.
 */
#ifndef GPUTOP_PROC_ROWS_H
#define GPUTOP_PROC_ROWS_H

#include "collectors/kit/map_delta.h"
#include "collectors/kit/proc_cache.h"
#include "model/table.h"

/* Fills row from one entry: its key, its process's name, its counters now and at the last read. */
typedef void (*proc_row_fn)(struct cell *row, const void *key, const char *comm, const void *now,
			    const void *before, double interval_s, void *ctx);

/* Every entry of the map fd as a row of t (NULL: none made, still read); map_delta_read's result. */
long proc_rows_read(struct map_delta *d, int fd, struct proc_cache *procs, struct table *t,
		    double interval_s, proc_row_fn row, void *ctx);

#endif
