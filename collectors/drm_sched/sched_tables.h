/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The DRM scheduler collector's tables: rings, processes, and each process on each ring. */
#ifndef GPUTOP_SCHED_TABLES_H
#define GPUTOP_SCHED_TABLES_H

#include "model/table.h"

/* A latency summary's columns, in this order, from a base: base.count ... base.max. */
enum lat_col { LAT_COUNT, LAT_MEAN, LAT_P50, LAT_P90, LAT_P99, LAT_MAX, LAT_COLS };

enum ring_col {
	RING_NAME, RING_DEV, RING_QUEUE, RING_INFL, RING_DONE_PER_S, RING_BUSY, RING_WAIT_P50,
	RING_WAIT_P99, RING_EXEC_P50, RING_EXEC_P99, RING_DONE,
	RING_QUEUED, RING_STARTED, RING_QUEUED_PER_S, RING_QUEUE_MAX, RING_INFL_MAX,
	RING_DEP_WAITS, RING_DEP_WAITS_PER_S, RING_DEPS,
	RING_WAIT_COUNT, RING_WAIT_MEAN, RING_WAIT_P90, RING_WAIT_MAX, /* this interval */
	RING_EXEC_COUNT, RING_EXEC_MEAN, RING_EXEC_P90, RING_EXEC_MAX,
	RING_WAIT_TOTAL, /* LAT_COLS columns each: since start */
	RING_EXEC_TOTAL = RING_WAIT_TOTAL + LAT_COLS,
	RING_WAIT_HIST = RING_EXEC_TOTAL + LAT_COLS, /* since start */
	RING_EXEC_HIST,
	RING_COLS,
};

enum proc_col {
	PROC_PID, PROC_COMM, PROC_JOBS_PER_S, PROC_GPU, PROC_SHARE, PROC_WAIT, PROC_JOBS, PROC_RINGS,
	PROC_DONE_PER_S, PROC_GPU_NS, PROC_GPU_NS_TOTAL, PROC_COLS,
};

enum proc_ring_col { PR_PID, PR_DEV, PR_RING, PR_JOBS_PER_S, PR_GPU, PR_JOBS, PR_COLS };

extern const struct table_desc sched_rings_table;
extern const struct table_desc sched_procs_table;
extern const struct table_desc sched_proc_rings_table;

#endif
