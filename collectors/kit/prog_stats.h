/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every collector's BPF programs cost and skip: the kernel's run-time
 * statistics (on while gputop-bpf runs) and recursion misses, one self.programs
 * row per program, and the drop counters of runs the kernel skipped.
 */
#ifndef GPUTOP_PROG_STATS_H
#define GPUTOP_PROG_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collectors/collector.h"
#include "collectors/kit/tp_progs.h"
#include "model/table.h"

enum self_prog_col {
	SELF_PROG_COLLECTOR, SELF_PROG_NAME, SELF_PROG_TRACEPOINT, SELF_PROG_PER_S,
	SELF_PROG_NS_PER_EVENT, SELF_PROG_CPU, SELF_PROG_EVENTS, SELF_PROG_MISSES, SELF_PROG_RESCUED,
	SELF_PROG_COLS,
};

extern const struct table_desc self_programs_table;

/* One program's statistics as read at a tick. */
struct prog_run {
	const char *collector, *program, *where;
	uint64_t run_cnt, run_time_ns; /* cumulative, while the statistics are on */
	uint64_t misses, rescued;
	bool twin, stats_on;
};

/* A self.programs row from a program's statistics now and at the last read. */
void prog_stats_row(struct cell *row, const struct prog_run *now, const struct prog_run *before,
		    double interval_s);

/*
 * The kernel's BPF run-time statistics (run count and time per program), on
 * while the returned descriptor is open: closing it restores the previous
 * setting. -1 with why filled when the kernel cannot (old, or not permitted).
 */
int bpf_cost_enable(char *why, size_t size);
/* Whether they are on, and if not why ("" when on). */
bool bpf_cost_available(const char **why);
/*
 * Adds the attached programs to this tick's self.programs table: events, their
 * rate, time per event and CPU share, per program (cost unknown when off); and
 * sets the collector's drops for runs the kernel skipped: bpf_recursion_misses
 * for programs without a twin, and for each twin its lost_name (the primary's
 * misses the twin did not rescue). One program-info read per program and tick.
 */
void tp_progs_report(struct collector *c, struct tp_prog *tps, size_t n, struct model *m);
/*
 * The same, without setting bpf_recursion_misses: returns the misses of programs
 * without twins, for a collector with several program sets to add up.
 */
uint64_t tp_progs_report_rows(struct collector *c, struct tp_prog *tps, size_t n, struct model *m);

#endif
