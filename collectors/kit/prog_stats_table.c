// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* self.programs: what each BPF program of every collector costs (filled by prog_stats.c). */
#include "collectors/kit/prog_stats.h"
#include "core/counter.h"

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

void prog_stats_row(struct cell *row, const struct prog_run *now, const struct prog_run *before,
		    double interval_s)
{
	uint64_t cnt = counter_delta(now->run_cnt, before->run_cnt);
	uint64_t ns = counter_delta(now->run_time_ns, before->run_time_ns);

	cell_set_str(row, SELF_PROG_COLLECTOR, now->collector);
	cell_set_str(row, SELF_PROG_NAME, now->program);
	cell_set_str(row, SELF_PROG_TRACEPOINT, now->where);
	cell_set_u64(row, SELF_PROG_MISSES, now->misses);
	if (now->twin)
		cell_set_u64(row, SELF_PROG_RESCUED, now->rescued);
	if (!now->stats_on)
		return; /* the kernel's run-time statistics are off: cost unknown */
	cell_set_u64(row, SELF_PROG_EVENTS, now->run_cnt);
	cell_set_f64(row, SELF_PROG_PER_S, (double)cnt / interval_s);
	if (cnt)
		cell_set_f64(row, SELF_PROG_NS_PER_EVENT, (double)ns / (double)cnt);
	cell_set_f64(row, SELF_PROG_CPU, (double)ns / (interval_s * 1e9) * 100.0);
}
