/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A Perfetto trace of the snapshots' counters (--trace FILE): per device a
 * track, under it counter tracks for VRAM / GTT and other memory regions,
 * busy % of the GPU, its engines and rings, ring queue depth and jobs in
 * flight, temperatures, clocks and power where known. A value that is unknown
 * is no sample (never a zero). Timestamps: the snapshot's wall clock, in ns.
 */
#ifndef GPUTOP_TRACE_COUNTERS_H
#define GPUTOP_TRACE_COUNTERS_H

#include <stdint.h>
#include <stdio.h>
#include "model/snapshot.h"
#include "output/perfetto.h"
#include "output/trace_stacks.h"

/* One counter series: a column of a table, a track per row (group, and part if any). */
struct trace_series {
	const char *table;
	const char *group; /* the column naming the device: the parent track "GPU <group>" */
	const char *part; /* the column naming a ring, region or engine; NULL: the device itself */
	const char *col; /* the value */
	const char *label; /* the track's name, after the part's: "queue depth" */
};

/* The series written (for the tests: every table and column exists). */
const struct trace_series *trace_series_list(size_t *n);

struct trace_counters {
	struct perfetto_writer w;
	struct perfetto_intern described; /* the tracks written, by their key */
	uint64_t samples; /* values written */
	struct trace_stacks stacks; /* the events' CPU stacks written (trace_stacks.h) */
};

/* Writes to out (left open) at most limit_bytes. 0, or a negative errno. */
int trace_counters_init(struct trace_counters *tc, FILE *out, uint64_t limit_bytes);
/* FNV-1a of a track's key: its uuid (never 0). */
uint64_t trace_key_uuid(const char *key);
/* The track of key, described the first time (name given); false when it could not be. */
bool trace_track_ready(struct trace_counters *tc, const char *key, uint64_t parent,
		       const char *name, enum perfetto_track_kind kind, enum perfetto_unit unit);
/*
 * A process's track (pid, named comm when it is not ""), described the first
 * time it is asked for: its uuid, 0 when none.
 */
uint64_t trace_process_track(struct trace_counters *tc, uint32_t pid, const char *comm);
/* A thread's track (named thread when not ""), under its process's (named comm): its uuid, 0 when none. */
uint64_t trace_thread_track(struct trace_counters *tc, uint32_t pid, uint32_t tid,
			    const char *comm, const char *thread);
/* A device's track ("GPU <dev>", the parent of its counters and rings): its uuid, 0 when none. */
uint64_t trace_device_track(struct trace_counters *tc, const char *dev);
/* The counters of one snapshot; 0, or -EIO (what did not fit is counted, not an error). */
int trace_counters_add(struct trace_counters *tc, const struct snapshot *s);
/* The note of what was dropped, a flush; frees. 0, or -EIO. */
int trace_counters_finish(struct trace_counters *tc);

#endif
