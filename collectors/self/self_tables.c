// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include "collectors/self/self_tables.h"
#include "core/counter.h"

static const struct col_desc proc_cols[SELF_COLS] = {
	[SELF_CPU] = { "cpu_pct", "CPU%", "the monitor's own CPU time (its symbolizing child's included), % of one CPU",
		       COL_F64, UNIT_PCT, 6, COL_HISTORY },
	[SELF_RSS] = { "rss_bytes", "RSS", "the monitor's resident memory", COL_U64, UNIT_BYTES, 9, 0 },
	[SELF_BPF_CPU] = { "bpf_cpu_pct", "BPF CPU%", "its BPF programs' run time, % of one CPU", COL_F64, UNIT_PCT, 8,
			   0 },
	[SELF_UNWIND_CPU] = { "unwind_cpu_pct", "UNWIND%",
			      "its DWARF unwinding of --stacks' stack copies (in its symbolizing child), % of one CPU",
			      COL_F64, UNIT_PCT, 7, 0 },
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

void self_process_row(struct cell *row, const struct self_reading *now,
		      const struct self_reading *before, double interval_s)
{
	cell_set_u64(row, SELF_PID, now->pid);
	if (now->cpu_known && before->cpu_known && now->clk_tck > 0)
		cell_set_f64(row, SELF_CPU,
			     (double)counter_delta(now->cpu_ticks, before->cpu_ticks) /
				     (double)now->clk_tck / interval_s * 100.0);
	if (now->rss_bytes >= 0)
		cell_set_u64(row, SELF_RSS, (uint64_t)now->rss_bytes);
	if (!isnan(now->bpf_cpu_pct))
		cell_set_f64(row, SELF_BPF_CPU, now->bpf_cpu_pct);
	if (now->unwind_known && before->unwind_known)
		cell_set_f64(row, SELF_UNWIND_CPU,
			     counter_pct(now->unwind_cpu_ns, before->unwind_cpu_ns, interval_s));
}
