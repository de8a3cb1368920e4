/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What gputop-bpf itself costs: its own process (its BPF programs: collectors/kit/prog_stats.h). */
#ifndef GPUTOP_SELF_TABLES_H
#define GPUTOP_SELF_TABLES_H

#include "model/table.h"

enum self_proc_col {
	SELF_CPU, SELF_RSS, SELF_BPF_CPU, SELF_PID, SELF_COLS,
};

extern const struct table_desc self_process_table;

#endif
