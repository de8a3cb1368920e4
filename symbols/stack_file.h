/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The --stacks FILE every stack source writes into: CUDA launches
 * (collectors/nvidia/launch_stacks.c), DRM scheduler jobs
 * (collectors/drm_sched/sched_stacks.c), GPU ioctls, fence waits and CUDA
 * synchronisations (collectors/kit/call_stacks.c), one weight for the whole file
 * (--stacks-weight). Folded lines, those of one text summed, go to FILE when
 * it closes, or with FILE.svg drawn as a flame graph; with FILE "-" nowhere (the
 * stacks live in the sources' tables only). One symbolizer shared by the
 * sources. Sources write from their collector's close, one after another (the
 * poller is stopped then): no lock. A file opened live (the interface's key,
 * "-") is opened by the interface's thread while the poller runs: the sources
 * look at it through stack_file_on only, until it says open.
 */
#ifndef GPUTOP_SYMBOLS_STACK_FILE_H
#define GPUTOP_SYMBOLS_STACK_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "symbols/folded_sum.h"
#include "symbols/frame.h"
#include "symbols/stack_row.h"
#include "symbols/symbolizer.h"

enum stack_weight {
	STACK_WEIGHT_COUNT, /* each CUDA launch and each scheduler job counts one (the default) */
	STACK_WEIGHT_LAUNCHES, /* CUDA launches only */
	STACK_WEIGHT_JOBS, /* scheduler jobs only */
	STACK_WEIGHT_GPU_TIME, /* scheduler jobs' run -> done, CUDA kernels' start -> end (launch stacks), ns */
	STACK_WEIGHT_QUEUE_WAIT, /* scheduler jobs' queue -> run, CUDA kernels' queued -> start, ns */
	STACK_WEIGHT_CALLS, /* GPU ioctls and fence waits, each counts one */
	STACK_WEIGHT_BLOCKED, /* GPU ioctls' and fence waits' time inside, ns */
	STACK_WEIGHT_SYNCS, /* CUDA synchronisations, each counts one */
	STACK_WEIGHT_SYNC_TIME, /* CUDA synchronisations' time inside, ns */
	STACK_WEIGHT_MAX,
};

struct stack_file {
	bool open; /* stacks taken (into the tables; into out where there is one) */
	FILE *out; /* the folded lines: the file, or with .svg a buffer drawn into svg at the end; NULL: "-" */
	FILE *svg;
	char *folded;
	size_t folded_len;
	enum stack_weight weight;
	struct symbolizer sym;
	struct folded_sum sum; /* the lines, written at the close */
	uint64_t lines, total; /* distinct lines, and their weights' sum */
	uint64_t lost; /* launches, jobs or calls a source could not keep (its table full, no memory) */
	uint64_t untimed; /* a time weight: launches of rows without their kernels' times (no CUPTI library) */
};

/* "count", "launches", "jobs", "gpu-time", "queue-wait", "calls", "blocked", "syncs", "sync-time"; -1: another. */
int stack_weight_parse(const char *word);
const char *stack_weight_name(enum stack_weight w);
/* Whether w is a time in ns (else a count). */
bool stack_weight_ns(enum stack_weight w);
/* Whether a file of weight w takes stacks of source s (off: that source takes none). */
bool stack_weight_takes(enum stack_weight w, enum stack_source s);

/* FILE opened with the invoking user's rights ("-": no file); -errno with why filled. */
int stack_file_open(struct stack_file *sf, const char *path, enum stack_weight w, char *why,
		    size_t size);
/* Whether sf is open: its sources take stacks (read by the poller while another thread may open it). */
bool stack_file_on(struct stack_file *sf);
/*
 * One sum as a line "comm;[sampled];[truncated];frames;leaf weight", root
 * first (the command the root), the jobs' leaf as "[ring DEV NAME]", in the
 * file's weight (0, or a source the weight does not take: nothing); added to
 * the line of the same text where there is one (written at the close).
 * 0, or -ENOMEM.
 */
int stack_file_row(struct stack_file *sf, const struct stack_row *r);
/* The end line's note on launches without a time (sf->untimed): "" or ", N launches without ...". */
void stack_file_untimed_note(const struct stack_file *sf, char *out, size_t size);
/* Writes the lines (and draws the SVG); 0, or -errno; everything freed. */
int stack_file_close(struct stack_file *sf);

#endif
