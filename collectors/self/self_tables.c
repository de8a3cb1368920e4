// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collectors/self/self_tables.h"

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
