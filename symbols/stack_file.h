/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The --stacks FILE every stack source writes into: CUDA launches
 * (collectors/nvidia/launch_stacks.c), DRM scheduler jobs
 * (collectors/drm_sched/sched_stacks.c), GPU ioctls, fence waits and CUDA
 * synchronisations (collectors/kit/call_stacks.c), one weight for the whole file
 * (--stacks-weight). Folded lines go to FILE, or with FILE.svg into a buffer
 * drawn as a flame graph when the file closes. One symbolizer shared by the
 * sources. Sources write from their collector's close, one after another (the
 * poller is stopped then): no lock.
 */
#ifndef GPUTOP_SYMBOLS_STACK_FILE_H
#define GPUTOP_SYMBOLS_STACK_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "symbols/frame.h"
#include "symbols/symbolizer.h"

enum stack_weight {
	STACK_WEIGHT_COUNT, /* each CUDA launch and each scheduler job counts one (the default) */
	STACK_WEIGHT_LAUNCHES, /* CUDA launches only */
	STACK_WEIGHT_JOBS, /* scheduler jobs only */
	STACK_WEIGHT_GPU_TIME, /* scheduler jobs' run -> done, ns */
	STACK_WEIGHT_QUEUE_WAIT, /* scheduler jobs' queue -> run, ns */
	STACK_WEIGHT_CALLS, /* GPU ioctls and fence waits, each counts one */
	STACK_WEIGHT_BLOCKED, /* GPU ioctls' and fence waits' time inside, ns */
	STACK_WEIGHT_SYNCS, /* CUDA synchronisations, each counts one */
	STACK_WEIGHT_SYNC_TIME, /* CUDA synchronisations' time inside, ns */
	STACK_WEIGHT_MAX,
};

/* Which sources a weight takes stacks from. */
enum stack_source {
	STACK_SOURCE_LAUNCHES,
	STACK_SOURCE_JOBS,
	STACK_SOURCE_CALLS, /* GPU ioctls and fence waits (collectors/kit/call_stacks.c) */
	STACK_SOURCE_SYNCS, /* CUDA synchronisations (the same) */
};

struct stack_file {
	FILE *out; /* the folded lines: the file, or with .svg a buffer drawn into svg at the end */
	FILE *svg;
	char *folded;
	size_t folded_len;
	enum stack_weight weight;
	struct symbolizer sym;
	uint64_t lines, total; /* written, and their weights' sum */
	uint64_t lost; /* launches, jobs or calls a source could not keep (its table full, no memory) */
};

/* "count", "launches", "jobs", "gpu-time", "queue-wait", "calls", "blocked", "syncs", "sync-time"; -1: another. */
int stack_weight_parse(const char *word);
const char *stack_weight_name(enum stack_weight w);
/* Whether w is a time in ns (else a count). */
bool stack_weight_ns(enum stack_weight w);
/* Whether a file of weight w takes stacks of source s (off: that source takes none). */
bool stack_weight_takes(enum stack_weight w, enum stack_source s);

/* FILE opened with the invoking user's rights; -errno with why filled. */
int stack_file_open(struct stack_file *sf, const char *path, enum stack_weight w, char *why,
		    size_t size);
/* One line, frames leaf first; a weight of 0 writes nothing. 0, or -EIO. */
int stack_file_line(struct stack_file *sf, const struct frame *frames, size_t n, bool truncated,
		    uint64_t weight);
/* Flushes (and draws the SVG); 0, or -errno; everything freed. */
int stack_file_close(struct stack_file *sf);

#endif
