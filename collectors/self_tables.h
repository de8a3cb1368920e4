/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What gputop-bpf itself costs: its BPF programs, and its own process. */
#ifndef GPUTOP_SELF_TABLES_H
#define GPUTOP_SELF_TABLES_H

#include "../model/table.h"

enum self_prog_col {
	SELF_PROG_COLLECTOR, SELF_PROG_NAME, SELF_PROG_TRACEPOINT, SELF_PROG_PER_S,
	SELF_PROG_NS_PER_EVENT, SELF_PROG_CPU, SELF_PROG_EVENTS, SELF_PROG_MISSES, SELF_PROG_RESCUED,
	SELF_PROG_COLS,
};

enum self_proc_col {
	SELF_CPU, SELF_RSS, SELF_BPF_CPU, SELF_PID, SELF_COLS,
};

extern const struct table_desc self_programs_table;
extern const struct table_desc self_process_table;

#endif
