/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every BPF collector does with its tracepoint programs: load only those
 * whose tracepoint this kernel has, attach each and record how it went in the
 * collector's status, count the runs the kernel skipped, detach.
 */
#ifndef GPUTOP_BPF_UTIL_H
#define GPUTOP_BPF_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "collector.h"

/*
 * One tracepoint and the program that reads it. Twins (more programs on the same
 * tracepoint that handle the events the kernel made those before them skip, see
 * bpf/drm_sched.h) are the entries right after their primary, with rescued set:
 * entries attach in order, and a tracepoint calls its programs in that order.
 */
struct tp_prog {
	const char *group, *event;
	struct bpf_program *prog; /* set after the skeleton is opened */
	bool wanted; /* loaded and attached: the tracepoint exists and the collector uses it */
	bool by_name; /* SEC("raw_tp") with no target: attached to the raw tracepoint event */
	const __u64 *rescued; /* a twin: its count of events it handled that the copies before skipped */
	const char *lost_name; /* a twin: the drop counter of events every copy skipped */
	struct bpf_link *link; /* NULL until attached */
	uint64_t last_cnt, last_ns; /* run statistics at the last report */
	uint64_t misses; /* recursion misses at the last report */
};

/* Before load: only the wanted programs load (bpf_program__set_autoload). */
void tp_progs_autoload(struct tp_prog *tps, size_t n);
/* Attaches the wanted programs, setting each tracepoint's state (and note on failure); returns how many. */
size_t tp_progs_attach(struct collector *c, struct tp_prog *tps, size_t n);
void tp_progs_detach(struct tp_prog *tps, size_t n);
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
 * without twins (untwinned: there were such programs), for a collector with
 * several program sets to add up.
 */
uint64_t tp_progs_report_rows(struct collector *c, struct tp_prog *tps, size_t n, struct model *m,
			      bool *untwinned);

/*
 * Deletes the entries of a map keyed by pid_tgid whose thread no longer exists
 * (it exited inside a call the map was waiting on); returns how many went.
 */
uint64_t bpf_sweep_gone_threads(int fd);

/* The skeleton did not open or load (err: a negative errno): FAILED, with how to see why. */
void collector_load_failed(struct collector *c, int err);
/* Sets the loss counters names[i] = counts[i] (a BPF program's drops array). */
void collector_set_drops(struct collector *c, const char *const *names, const __u64 *counts,
			 size_t n);

struct cell;
struct latency_summary;
/*
 * Columns p50 and p99 of row from what a cumulative BPF histogram (HIST_SLOTS
 * slots) gained since the last read (before); left unknown when it gained
 * nothing. out: the interval's summary.
 */
void cells_set_quantiles(struct cell *row, unsigned int p50, unsigned int p99, const __u64 *now,
			 const __u64 *before, double sum_ns, struct latency_summary *out);

#endif
