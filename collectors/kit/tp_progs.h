/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Programs paired with tracepoints, one way for every collector: a table of
 * specs names each tracepoint and its program by name; the kit lists them in
 * the collector's status (available or missing, and why), finds the programs
 * in the opened object, loads only those whose tracepoint this kernel has,
 * attaches them in order and detaches them.
 *
 * Twins: a spec with twins N has programs <prog>, <prog>2 ... <prog>(N+1) on the
 * same tracepoint, attached right after each other (a tracepoint calls its
 * programs in that order); copy k of the i-th spec counts the events it
 * handled that the copies before it were skipped for in rescued[i][k] of its
 * object (bpf/drm_sched.h says why the kernel skips runs).
 */
#ifndef GPUTOP_TP_PROGS_H
#define GPUTOP_TP_PROGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "collectors/collector.h"

struct tp_spec {
	const char *group, *event; /* event NULL: this kernel has no such event (listed nowhere) */
	const char *prog; /* its program's name in the BPF object */
	unsigned int twins; /* copies after the primary (their programs: prog2, prog3 ...) */
	const char *lost; /* with twins: the drop counter of events every copy skipped */
	bool raw; /* SEC("raw_tp") with no target: attached to the raw tracepoint by name */
	const char *missing; /* why it is missing when its group exists (NULL: "not in this kernel") */
	const char *absent; /* why, when its group does not (NULL: "the <group> module is not loaded") */
};

/* One program on one tracepoint (a primary or a twin), and its run statistics. */
struct tp_prog {
	const char *group, *event;
	struct bpf_program *prog; /* NULL: not in the object */
	bool wanted; /* loaded and attached: the tracepoint exists and the collector uses it */
	bool raw;
	const __u64 *rescued; /* a twin: its count of events it handled that the copies before skipped */
	const char *lost_name; /* a twin: the drop counter of events every copy skipped */
	struct bpf_link *link; /* NULL until attached */
	uint64_t last_cnt, last_ns; /* run statistics at the last report */
	uint64_t misses; /* recursion misses at the last report */
};

/* The programs a spec table stands for: each spec and its twins. */
size_t tp_specs_count(const struct tp_spec *specs, size_t n);
/*
 * Adds each spec's tracepoint to the collector's status (available, or missing
 * with why); returns how many this kernel has.
 */
size_t tp_specs_list(struct collector *c, const struct tp_spec *specs, size_t n);
/*
 * Fills tps (tp_specs_count entries) from the specs and the opened (not yet
 * loaded) object, rescued its [n][copies] array of twins' counts (NULL without
 * twins), and switches off the autoload of every program whose tracepoint this
 * kernel lacks. -1 when a program is not in the object (a build error).
 */
int tp_progs_open(struct tp_prog *tps, const struct tp_spec *specs, size_t n,
		  struct bpf_object *obj, const __u64 *rescued);
/* Attaches the wanted programs, setting each tracepoint's state (and note on failure); returns how many. */
size_t tp_progs_attach(struct collector *c, struct tp_prog *tps, size_t n);
/* Their links go to the link reaper (collectors/kit/link_reaper.h); the core kernel's groups' hold no module. */
void tp_progs_detach(struct tp_prog *tps, size_t n);

#endif
