/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What gputop-bpf itself costs: its own process (its BPF programs: collectors/kit/prog_stats.h). */
#ifndef GPUTOP_SELF_TABLES_H
#define GPUTOP_SELF_TABLES_H

#include <stdbool.h>
#include <stdint.h>
#include "model/table.h"

enum self_proc_col {
	SELF_CPU, SELF_RSS, SELF_BPF_CPU, SELF_UNWIND_CPU, SELF_PID, SELF_COLS,
};

extern const struct table_desc self_process_table;

/* What the monitor read of itself at a tick. */
struct self_reading {
	uint32_t pid;
	bool cpu_known; /* cpu_ticks read */
	uint64_t cpu_ticks; /* utime + stime, in clock ticks of clk_tck per second */
	long clk_tck;
	int64_t rss_bytes; /* < 0: unknown */
	double bpf_cpu_pct; /* its BPF programs' CPU share; NAN: unknown */
	bool unwind_known; /* unwind_cpu_ns read */
	uint64_t unwind_cpu_ns; /* its DWARF unwinding since it started (kit/stack_copy.h) */
};

/* The self.process row from this tick's reading and the last one. */
void self_process_row(struct cell *row, const struct self_reading *now,
		      const struct self_reading *before, double interval_s);

#endif
