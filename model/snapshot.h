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
#include "histogram.h"
#include "history.h"
#include "table.h"

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

/*
 * What a collector found at start (name to tracepoints) is fixed once it has
 * started; detail and drops change each tick. Lists have no fixed length.
 */
struct collector_status {
	char name[NAME_LEN];
	char description[96];
	enum collector_state state;
	char reason[256]; /* empty when attached */
	char fix[256]; /* what the user can do, empty when nothing */
	struct tracepoint_status *tracepoints;
	size_t ntracepoints;
	/* changes each tick: */
	char detail[96]; /* e.g. which tracepoint generation is in use */
	struct drop_count *drops; /* every loss, counted by kind */
	size_t ndrops;
};

struct device_snap {
	char name[NAME_LEN]; /* card0, nvidia0 */
	char driver[NAME_LEN]; /* amdgpu, i915, xe, nvidia, vkms ... */
	char bus_id[NAME_LEN]; /* PCI address or platform device name; "" if none */
};

struct ring_snap {
	char dev[NAME_LEN]; /* device of the scheduler, "" when the kernel does not say */
	char name[NAME_LEN]; /* scheduler (ring) name, e.g. gfx_0.0.0 */
	uint64_t queued_total, started_total, completed_total; /* since start */
	uint64_t dep_waits_total, deps_total;
	double queued_per_s, completed_per_s, dep_waits_per_s;
	uint32_t queue_depth, queue_depth_max; /* software queue (queued, not yet run); max in interval */
	uint32_t in_flight, in_flight_max; /* on the hardware (run, not yet done) */
	double busy_pct; /* share of the interval with >= 1 job on the hardware */
	struct latency_summary wait, exec; /* this interval: queued -> run, run -> done */
	struct latency_summary wait_total, exec_total; /* since start */
	struct histogram wait_hist, exec_hist; /* since start */
	struct history hist_completed_per_s, hist_exec_p50_ns, hist_wait_p50_ns, hist_busy_pct;
};

struct proc_snap {
	uint32_t pid; /* thread group id of the submitter */
	char comm[COMM_LEN];
	double jobs_per_s; /* jobs submitted */
	double completed_per_s;
	uint64_t jobs_total;
	double gpu_ns; /* execution time of its jobs completed this interval */
	double gpu_pct; /* gpu_ns / interval (may pass 100 across rings) */
	double gpu_share_pct; /* share of all processes' GPU time this interval */
	double wait_mean_ns; /* mean queue wait of its jobs started this interval */
	uint64_t gpu_ns_total;
};

/* One process on one ring, for drill-down. */
struct proc_ring_snap {
	uint32_t pid;
	size_t ring; /* index into snapshot.rings */
	double jobs_per_s;
	double gpu_pct;
	uint64_t jobs_total;
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
	struct device_snap *devices;
	size_t ndevices;
	struct ring_snap *rings;
	size_t nrings;
	struct proc_snap *procs;
	size_t nprocs;
	struct proc_ring_snap *proc_rings;
	size_t nproc_rings;
	struct table **tables; /* the collectors' own tables, by name */
	size_t ntables;
};

void snapshot_free(struct snapshot *s);
/* The table of that name in s, or NULL. */
const struct table *snapshot_table(const struct snapshot *s, const char *name);
/* Deep copy (dst's lists are new allocations); -1 on allocation failure. */
int collector_status_copy(struct collector_status *dst, const struct collector_status *src);
void collector_status_clear(struct collector_status *st);
/* Appends to a status's lists; NULL on allocation failure. */
struct tracepoint_status *collector_status_add_tracepoint(struct collector_status *st);
/* Sets the drop counter called name, adding it the first time. */
int collector_status_set_drop(struct collector_status *st, const char *name, uint64_t count);
const char *collector_state_name(enum collector_state st);
const char *tracepoint_state_name(enum tracepoint_state st);

#endif
