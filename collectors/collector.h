/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One vtable for every data source. Lifecycle: probe (is it available here, and
 * if not why and how to fix it) -> open (open and load, with autoload switched
 * off for what this kernel lacks) -> attach -> read, each tick, into the model
 * -> close. Collectors never include curses; front ends never include skeletons.
 */
#ifndef GPUTOP_COLLECTOR_H
#define GPUTOP_COLLECTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "model/job_sink.h"
#include "model/model.h"

struct stack_file;

struct collector_config {
	bool all_irqs; /* watch every interrupt line, not only the GPU drivers' */
	const char *libcuda; /* --libcuda: the CUDA driver library to probe, NULL: search */
	struct stack_file *stacks; /* --stacks: the folded-stacks file, NULL: no stacks taken */
	bool sched_stream; /* --sched-design stream: the scheduler's events streamed, matched in user space */
	const struct job_sink *job_sink; /* --trace: completed jobs go here (streamed design only) */
};

struct collector;

struct collector_ops {
	const char *name; /* short id: --list, JSON */
	const char *description; /* one line for --list and --version */
	int order; /* place in --list, JSON and the interface: smaller first */
	/*
	 * It attaches more probes while running (uprobes on a library found later):
	 * the kernel asks CAP_SYS_ADMIN for those, so the monitor keeps it while
	 * such a collector is attached (privileges_drop_unneeded).
	 */
	bool attaches_later;
	/* It needs no privilege (sysfs, /proc, the user's own files): it runs in an unprivileged start too. */
	bool unprivileged;
	/*
	 * The kernel modules its tracepoints live in, any one of them enough (NULL: none, the core
	 * kernel's), and what loads them: where none is loaded (/sys/module), an unprivileged start
	 * says so, not that it needs root, for root would not make it run either.
	 */
	const char *const *modules;
	const char *modules_fix;
	void (*probe)(struct collector *c); /* fills status; UNAVAILABLE + reason + fix if unusable */
	int (*open)(struct collector *c); /* open and load; on error sets status FAILED */
	int (*attach)(struct collector *c); /* on error sets status FAILED */
	int (*read)(struct collector *c, struct model *m); /* feed this tick's counters */
	void (*close)(struct collector *c); /* frees everything; safe after any failure */
	/*
	 * A kernel module went away: what the collector shows of a device that went
	 * with it goes too (NULL: nothing to do). Called between ticks, in the poller.
	 */
	void (*module_removed)(struct collector *c);
};

struct collector {
	const struct collector_ops *ops;
	const struct collector_config *config;
	struct collector_info info; /* fixed once started */
	struct collector_status status; /* this tick's: status.info points at a published copy */
	void *priv; /* the collector's own state (skeleton ...) */
	struct collector_info **published; /* every copy of info snapshots were given */
	size_t npublished;
	uint64_t start_ns[3]; /* the last start's probe, open and attach, each its time (-v says them) */
};

/* The compiled-in collectors, in display order. */
const struct collector_ops *const *collector_registry(size_t *n);

/* In a collector's file: COLLECTOR_REGISTER(display_collector); */
#define COLLECTOR_REGISTER(ops)                                                             \
	static const struct collector_ops *const collector_reg_##ops                       \
		__attribute__((used, section("gputop_collectors"), aligned(sizeof(void *)))) = &ops

/*
 * An unprivileged start: from now on collector_start leaves the collectors that
 * load BPF programs unavailable, saying what root or the capabilities add.
 */
void collectors_unprivileged(void);

/* probe -> open -> attach; the status says how far it got. */
void collector_start(struct collector *c);
/* Stops it and starts it again (a module it needs was loaded); the poller's thread only. */
void collector_retry(struct collector *c);
void collector_stop(struct collector *c);

/* Helpers for collector implementations. */
void collector_set_state(struct collector *c, enum collector_state st, const char *reason,
			 const char *fix);
struct tracepoint_status *collector_add_tracepoint(struct collector *c, const char *group,
						   const char *event, enum tracepoint_state st,
						   const char *note);
/* Sets the state (and the note, unless NULL) of the tracepoint added as group:event. */
void collector_set_tracepoint(struct collector *c, const char *group, const char *event,
			      enum tracepoint_state st, const char *note);
/* Sets the loss counter called name (cumulative), adding it the first time. */
void collector_set_drop(struct collector *c, const char *name, uint64_t count);
/* Sets the loss counters names[i] = counts[i] (a BPF program's drops array). */
void collector_set_drops(struct collector *c, const char *const *names, const __u64 *counts,
			 size_t n);
/* The BPF object did not open or load (err: a negative errno): FAILED, with how to see why. */
void collector_load_failed(struct collector *c, int err);

#endif
