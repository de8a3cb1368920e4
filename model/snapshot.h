/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An immutable snapshot of everything gputop-bpf knows at one tick. The poller
 * thread builds it, publishes it, and never touches it again; front ends read it.
 * Units are in the field names or comments; rates are per second of the interval.
 */
#ifndef GPUTOP_SNAPSHOT_H
#define GPUTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "model/histogram.h"
#include "model/history.h"
#include "model/table.h"

#define NAME_LEN 32
#define COMM_LEN 16

enum collector_state {
	COLLECTOR_ATTACHED, /* loaded and attached: its data is live */
	COLLECTOR_UNAVAILABLE, /* its sources do not exist here: reason and fix say why */
	COLLECTOR_FAILED, /* sources exist but load or attach failed: reason says how */
};

enum tracepoint_state {
	TRACEPOINT_ATTACHED,
	TRACEPOINT_AVAILABLE, /* exists here, not used (e.g. the other generation's twin) */
	TRACEPOINT_MISSING,
	TRACEPOINT_FAILED,
};

struct tracepoint_status {
	char group[NAME_LEN];
	char event[48];
	enum tracepoint_state state;
	char note[128]; /* why it is missing or failed, or which kernels have it */
};

struct drop_count {
	char name[NAME_LEN];
	uint64_t count; /* cumulative since start */
};

/* What a collector found when it started: fixed from then on, shared by every snapshot. */
struct collector_info {
	char name[NAME_LEN];
	char description[96];
	enum collector_state state;
	char reason[256]; /* empty when attached */
	char fix[256]; /* what the user can do, empty when nothing */
	struct tracepoint_status *tracepoints; /* no fixed length */
	size_t ntracepoints;
};

/* A collector at one tick: its fixed info and what changes each tick. */
struct collector_status {
	const struct collector_info *info; /* the collector's own (live), or the snapshot's (replay) */
	char detail[96]; /* e.g. which tracepoint generation is in use */
	struct drop_count *drops; /* every loss, counted by kind, no fixed length */
	size_t ndrops;
};

struct device_snap {
	char name[NAME_LEN]; /* card0, nvidia0 */
	char driver[NAME_LEN]; /* amdgpu, i915, xe, nvidia, vkms ... */
	char bus_id[NAME_LEN]; /* PCI address or platform device name; "" if none */
};

struct snapshot {
	int refs; /* references held, managed by the poller under its lock */
	uint64_t seq; /* 1, 2, ... */
	double interval_s; /* measured length of the interval the rates cover */
	struct timespec wall; /* CLOCK_REALTIME at the tick */
	double uptime_s; /* since the monitor started */
	char hostname[64];
	char kernel[64];
	struct collector_status *collectors;
	size_t ncollectors;
	struct collector_info *infos; /* owned here when read from a recording, else NULL */
	size_t ninfos;
	struct device_snap *devices;
	size_t ndevices;
	struct table **tables; /* the collectors' own tables, by name */
	size_t ntables;
	/* while read from a recording: 16-byte cells its tables may still take (json_read.c) */
	size_t read_budget;
};

void snapshot_free(struct snapshot *s);
/* Keeps only the rows of process pid in every table -p filters (table_pid_filtered). */
void snapshot_filter_pid(struct snapshot *s, uint32_t pid);

/*
 * A recording's rows of its recorder's own PID (self.process) removed: a monitor counts nothing of
 * its own, and recordings made before it left itself out hold them.
 */
void snapshot_drop_recorder(struct snapshot *s);
/* Whether a table -p filters has a row of process pid (-p of a PID a recording never saw says so). */
bool snapshot_has_pid(const struct snapshot *s, uint32_t pid);
/*
 * What every snapshot gets from its own tables, live and in replay alike: its
 * quantiles clamped to their exact maxima, nvidia.process_gpus' joined columns
 * filled, the merged process table built (gpu.processes); each in time linear
 * in the rows. -1 out of memory.
 */
int snapshot_derive(struct snapshot *s);
/* The collector of that name in s, or NULL. */
const struct collector_status *snapshot_collector(const struct snapshot *s, const char *name);
/* The table of that name in s, or NULL. */
const struct table *snapshot_table(const struct snapshot *s, const char *name);
/* Copy with a list of drops of its own (the info is shared); -1 on allocation failure. */
int collector_status_copy(struct collector_status *dst, const struct collector_status *src);
void collector_status_clear(struct collector_status *st);
void collector_info_clear(struct collector_info *info);
/* Appends to the info's tracepoints; NULL on allocation failure. */
struct tracepoint_status *collector_info_add_tracepoint(struct collector_info *info);
/* Sets the drop counter called name, adding it the first time. */
int collector_status_set_drop(struct collector_status *st, const char *name, uint64_t count);
const char *collector_state_name(enum collector_state st);
const char *tracepoint_state_name(enum tracepoint_state st);

#endif
