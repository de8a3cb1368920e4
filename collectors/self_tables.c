// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "self_tables.h"

static const struct col_desc prog_cols[SELF_PROG_COLS] = {
	[SELF_PROG_COLLECTOR] = { "collector", "COLLECTOR", "the collector the program belongs to",
				  COL_STR, UNIT_NONE, 10, COL_KEY | COL_ASCENDING },
	[SELF_PROG_NAME] = { "program", "PROGRAM", "the BPF program", COL_STR, UNIT_NONE, 22,
			     COL_KEY | COL_ASCENDING },
	[SELF_PROG_TRACEPOINT] = { "tracepoint", "TRACEPOINT", "where it is attached", COL_STR,
				   UNIT_NONE, 32, COL_WIDE | COL_ASCENDING },
	[SELF_PROG_PER_S] = { "events_per_s", "EVENTS/S", "runs per second", COL_F64, UNIT_PER_S, 8,
			      COL_HISTORY },
	[SELF_PROG_NS_PER_EVENT] = { "ns_per_event", "PER EVENT", "run time per event (kernel statistics)",
				     COL_F64, UNIT_NS, 9, 0 },
	[SELF_PROG_CPU] = { "cpu_pct", "CPU%", "its run time, % of one CPU", COL_F64, UNIT_PCT, 6, 0 },
	[SELF_PROG_EVENTS] = { "events_total", "EVENTS", "runs since the statistics were switched on",
			       COL_U64, UNIT_COUNT, 10, 0 },
	[SELF_PROG_MISSES] = { "recursion_misses", "MISSES",
			       "runs the kernel skipped (one of ours already running on the CPU)",
			       COL_U64, UNIT_COUNT, 6, COL_CUMULATIVE },
	[SELF_PROG_RESCUED] = { "rescued", "RESCUED",
				"a twin program: events it handled because the kernel skipped its primary",
				COL_U64, UNIT_COUNT, 7, COL_CUMULATIVE },
};

const struct table_desc self_programs_table = {
	.name = "self.programs",
	.title = "gputop-bpf's BPF programs",
	.empty = "No program attached.",
	.cols = prog_cols,
	.ncols = SELF_PROG_COLS,
	.sort_col = SELF_PROG_CPU,
};
TABLE_REGISTER(self_programs_table);

static const struct col_desc proc_cols[SELF_COLS] = {
	[SELF_CPU] = { "cpu_pct", "CPU%", "the monitor's own CPU time, % of one CPU", COL_F64, UNIT_PCT,
		       6, COL_HISTORY },
	[SELF_RSS] = { "rss_bytes", "RSS", "the monitor's resident memory", COL_U64, UNIT_BYTES, 9, 0 },
	[SELF_BPF_CPU] = { "bpf_cpu_pct", "BPF CPU%", "its BPF programs' run time, % of one CPU",
			   COL_F64, UNIT_PCT, 8, 0 },
	[SELF_PID] = { "pid", "PID", "the monitor's process", COL_U64, UNIT_NONE, 7, COL_DETAIL },
};

const struct table_desc self_process_table = {
	.name = "self.process",
	.title = "gputop-bpf itself",
	.cols = proc_cols,
	.ncols = SELF_COLS,
	.sort_col = SELF_CPU,
};
TABLE_REGISTER(self_process_table);
