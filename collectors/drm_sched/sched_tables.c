// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The keys nest as 0.1.0's "rings" and "processes" did (exec_ns.p50 is
 * {"exec_ns": {"p50": ...}}), so recordings of formats 1 and 2 replay into
 * these tables.
 */
#include "collectors/drm_sched/sched_tables.h"

#define LAT(idx, base, what)                                                                   \
	[idx + LAT_COUNT] = { base ".count", "N", what ": samples", COL_U64, UNIT_COUNT, 8,       \
			      COL_DETAIL },                                                      \
	[idx + LAT_MEAN] = { base ".mean", "MEAN", what ": mean", COL_F64, UNIT_NS, 8, COL_DETAIL }, \
	[idx + LAT_P50] = { base ".p50", "p50", what ": median", COL_F64, UNIT_NS, 8, COL_DETAIL },  \
	[idx + LAT_P90] = { base ".p90", "p90", what ": 90th percentile", COL_F64, UNIT_NS, 8,      \
			    COL_DETAIL },                                                        \
	[idx + LAT_P99] = { base ".p99", "p99", what ": 99th percentile", COL_F64, UNIT_NS, 8,      \
			    COL_DETAIL },                                                        \
	[idx + LAT_MAX] = { base ".max", "MAX", what ": longest", COL_F64, UNIT_NS, 8, COL_DETAIL }

static const struct col_desc ring_cols[RING_COLS] = {
	[RING_NAME] = { "name", "RING", "scheduler (ring) name, e.g. gfx_0.0.0", COL_STR, UNIT_NONE, 14,
			COL_KEY | COL_ASCENDING },
	[RING_DEV] = { "dev", "DEVICE", "the scheduler's device (\"\" when the kernel does not say)",
		       COL_STR, UNIT_NONE, 14, COL_KEY | COL_ASCENDING | COL_WIDE },
	[RING_QUEUE] = { "queue_depth", "QUEUE", "jobs queued, not yet run", COL_U64, UNIT_COUNT, 5, 0 },
	[RING_INFL] = { "in_flight", "INFL", "jobs on the hardware (run, not yet done)", COL_U64,
			UNIT_COUNT, 4, 0 },
	[RING_DONE_PER_S] = { "completed_per_s", "DONE/S", "jobs completed per second", COL_F64,
			      UNIT_PER_S, 7, COL_HISTORY },
	[RING_BUSY] = { "busy_pct", "BUSY%", "share of the interval with a job on the hardware",
			COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[RING_WAIT_P50] = { "wait_ns.p50", "WAIT p50", "queue wait (queued -> run), median", COL_F64,
			    UNIT_NS, 8, COL_HISTORY },
	[RING_WAIT_P99] = { "wait_ns.p99", "WAIT p99", "queue wait, 99th percentile", COL_F64, UNIT_NS,
			    8, COL_WIDE },
	[RING_EXEC_P50] = { "exec_ns.p50", "EXEC p50", "execution (run -> done), median", COL_F64,
			    UNIT_NS, 8, COL_HISTORY },
	[RING_EXEC_P99] = { "exec_ns.p99", "EXEC p99", "execution, 99th percentile", COL_F64, UNIT_NS,
			    8, COL_WIDE },
	[RING_DONE] = { "completed_total", "DONE", "jobs completed since start", COL_U64, UNIT_COUNT, 8,
			0 },
	[RING_QUEUED] = { "queued_total", "QUEUED", "jobs queued since start", COL_U64, UNIT_COUNT, 8,
			  COL_DETAIL },
	[RING_STARTED] = { "started_total", "STARTED", "jobs run since start", COL_U64, UNIT_COUNT, 8,
			   COL_DETAIL },
	[RING_QUEUED_PER_S] = { "queued_per_s", "QUEUED/S", "jobs queued per second", COL_F64,
				UNIT_PER_S, 8, COL_DETAIL },
	[RING_QUEUE_MAX] = { "queue_depth_max", "QMAX", "deepest queue in the interval", COL_U64,
			     UNIT_COUNT, 5, COL_DETAIL },
	[RING_INFL_MAX] = { "in_flight_max", "IMAX", "most jobs on the hardware in the interval",
			    COL_U64, UNIT_COUNT, 5, COL_DETAIL },
	[RING_DEP_WAITS] = { "dep_waits_total", "DEPWAIT", "waits for a dependency since start",
			     COL_U64, UNIT_COUNT, 8, COL_DETAIL },
	[RING_DEP_WAITS_PER_S] = { "dep_waits_per_s", "DEPWAIT/S", "dependency waits per second",
				   COL_F64, UNIT_PER_S, 8, COL_DETAIL },
	[RING_DEPS] = { "deps_total", "DEPS", "dependencies declared (kernels >= 6.17; else unknown)",
			COL_U64, UNIT_COUNT, 8, COL_DETAIL },
	[RING_WAIT_COUNT] = { "wait_ns.count", "N", "jobs started this interval", COL_U64,
			      UNIT_COUNT, 8, COL_DETAIL },
	[RING_WAIT_MEAN] = { "wait_ns.mean", "MEAN", "queue wait, mean", COL_F64, UNIT_NS, 8,
			     COL_DETAIL },
	[RING_WAIT_P90] = { "wait_ns.p90", "p90", "queue wait, 90th percentile", COL_F64, UNIT_NS, 8,
			    COL_DETAIL },
	[RING_WAIT_MAX] = { "wait_ns.max", "MAX", "queue wait, longest", COL_F64, UNIT_NS, 8,
			    COL_DETAIL },
	[RING_EXEC_COUNT] = { "exec_ns.count", "N", "jobs completed this interval", COL_U64,
			      UNIT_COUNT, 8, COL_DETAIL },
	[RING_EXEC_MEAN] = { "exec_ns.mean", "MEAN", "execution, mean", COL_F64, UNIT_NS, 8,
			     COL_DETAIL },
	[RING_EXEC_P90] = { "exec_ns.p90", "p90", "execution, 90th percentile", COL_F64, UNIT_NS, 8,
			    COL_DETAIL },
	[RING_EXEC_MAX] = { "exec_ns.max", "MAX", "execution, longest", COL_F64, UNIT_NS, 8,
			    COL_DETAIL },
	LAT(RING_WAIT_TOTAL, "wait_ns_total", "queue wait since start"),
	LAT(RING_EXEC_TOTAL, "exec_ns_total", "execution since start"),
	[RING_WAIT_HIST] = { "wait_hist_total", "WAIT HIST", "queue-wait histogram since start",
			     COL_HIST, UNIT_NS, 8, COL_DETAIL },
	[RING_EXEC_HIST] = { "exec_hist_total", "EXEC HIST", "execution histogram since start",
			     COL_HIST, UNIT_NS, 8, COL_DETAIL },
};

const struct table_desc sched_rings_table = {
	.name = "drm_sched.rings",
	.title = "Rings",
	.empty = "No GPU job seen yet.",
	.cols = ring_cols,
	.ncols = RING_COLS,
	.sort_col = RING_DONE_PER_S,
};
TABLE_REGISTER(sched_rings_table);

static const struct col_desc proc_cols[PROC_COLS] = {
	[PROC_PID] = { "pid", "PID", "thread group that submitted the jobs", COL_U64, UNIT_NONE, 7,
		       COL_KEY | COL_ASCENDING },
	[PROC_COMM] = { "comm", "COMM", "its group leader's command name", COL_STR, UNIT_NONE, 16,
			COL_ASCENDING },
	[PROC_JOBS_PER_S] = { "jobs_per_s", "SUBM/S", "jobs submitted per second", COL_F64, UNIT_PER_S,
			      7, COL_HISTORY },
	[PROC_GPU] = { "gpu_pct", "GPU%",
		       "time with one of its jobs on a ring's hardware over the interval, summed over its rings (may pass 100 with several)",
		       COL_F64, UNIT_PCT, 6, 0 },
	[PROC_SHARE] = { "gpu_share_pct", "SHARE%", "share of all processes' GPU time", COL_F64,
			 UNIT_PCT, 6, 0 },
	[PROC_WAIT] = { "wait_mean_ns", "WAIT avg", "mean queue wait of its jobs started", COL_F64,
			UNIT_NS, 9, 0 },
	[PROC_JOBS] = { "jobs_total", "JOBS", "jobs submitted since start", COL_U64, UNIT_COUNT, 8, 0 },
	[PROC_RINGS] = { "ring_names", "RINGS", "the rings it submits to", COL_STR, UNIT_NONE, 24, 0 },
	[PROC_DONE_PER_S] = { "completed_per_s", "DONE/S", "its jobs completed per second", COL_F64,
			      UNIT_PER_S, 7, COL_DETAIL },
	[PROC_GPU_NS] = { "gpu_ns", "GPU time", "time with one of its jobs on a ring's hardware this interval, summed over its rings", COL_F64,
			  UNIT_NS, 9, COL_DETAIL },
	[PROC_GPU_NS_TOTAL] = { "gpu_ns_total", "GPU total", "the same since start",
				COL_U64, UNIT_NS, 9, COL_DETAIL },
};

const struct table_desc sched_procs_table = {
	.name = "drm_sched.processes",
	.title = "Processes",
	.empty = "No process has submitted GPU jobs since the monitor started.",
	.cols = proc_cols,
	.ncols = PROC_COLS,
	.sort_col = PROC_GPU,
};
TABLE_REGISTER(sched_procs_table);

static const struct col_desc proc_ring_cols[PR_COLS] = {
	[PR_PID] = { "pid", "PID", "the process", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[PR_DEV] = { "dev", "DEVICE", "the ring's device", COL_STR, UNIT_NONE, 14,
		     COL_KEY | COL_ASCENDING },
	[PR_RING] = { "name", "RING", "the ring", COL_STR, UNIT_NONE, 14, COL_KEY | COL_ASCENDING },
	[PR_JOBS_PER_S] = { "jobs_per_s", "SUBM/S", "its jobs submitted to this ring per second", COL_F64,
			    UNIT_PER_S, 7, 0 },
	[PR_GPU] = { "gpu_pct", "GPU%",
		     "time with one of its jobs on this ring's hardware over the interval: at most the ring's busy %",
		     COL_F64, UNIT_PCT, 6, 0 },
	[PR_JOBS] = { "jobs_total", "JOBS", "its jobs on this ring since start", COL_U64, UNIT_COUNT, 8,
		      0 },
};

const struct table_desc sched_proc_rings_table = {
	.name = "drm_sched.process_rings",
	.title = "Processes on rings",
	.cols = proc_ring_cols,
	.ncols = PR_COLS,
	.sort_col = PR_GPU,
};
TABLE_REGISTER(sched_proc_rings_table);
