/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The streamed design's user-space half: scheduler event records in (a drain
 * of the ring buffer at a time), the same per-ring and per-process counters out
 * that the map design's BPF programs keep in their maps (struct ring_stats,
 * struct proc_stats), so that both designs publish alike. No BPF here: the
 * unit tests feed it synthetic records.
 *
 * A drain's records are taken in timestamp order (records of different CPUs
 * may come slightly out of it); a job is followed from queue to done by its
 * key and seqno in a bounded table (job_table.h). A twin's record that repeats
 * an event already seen is dropped and counted (twin_repeats); one that is new
 * is a rescue, counted per event kind and copy as the map design's are.
 */
#ifndef GPUTOP_SCHED_MATCH_H
#define GPUTOP_SCHED_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "bpf/drm_sched_stream.h"
#include "model/job_sink.h"

/* Jobs in flight followed at most: past it the oldest is evicted, counted (about 80 MB). */
#define SCHED_STREAM_MAX_JOBS (1U << 20)
/* (process, ring) pairs at most: past it a new one is not attributed (process_table_full). */
#define SCHED_STREAM_MAX_PROCS 65536
/* Completed jobs, dependency and wait events remembered to know a twin's repeat. */
#define SCHED_MATCH_RECENT 4096

struct sched_match;

struct sched_match *sched_match_new(size_t max_jobs, size_t max_procs, bool track_deps);
void sched_match_free(struct sched_match *m);
/* One record of the drain in progress (copied). -1 when out of memory (counted). */
int sched_match_add(struct sched_match *m, const struct sched_rec *r);
/* A queue record with its stacks (--stacks): the job carries them to its report. */
int sched_match_add_stacked(struct sched_match *m, const struct sched_rec_stacked *r);
/* The drain is over: its records applied in timestamp order. */
void sched_match_drain_end(struct sched_match *m);
/* Ring id's counters; NULL when it has had no event. */
const struct ring_stats *sched_match_ring(const struct sched_match *m, __u32 id);
/*
 * Each (process, ring) pair's counters, as map_walk hands a map's entries
 * (struct proc_key, struct proc_stats): fn returns true to forget the pair.
 */
void sched_match_procs(struct sched_match *m,
		       bool (*fn)(const void *key, void *value, void *arg),
		       void *arg);
/* A new interval: the max_* fields from now on belong to generation gen. */
void sched_match_interval(struct sched_match *m, uint64_t gen);
/* Losses by enum sched_drop (job_table_full: jobs evicted from the table). */
const __u64 *sched_match_drops(const struct sched_match *m);
/* Twins' rescues, [SCHED_EV_MAX][SCHED_COPIES], as tp_progs_open wants them. */
const __u64 *sched_match_rescued(const struct sched_match *m);
/* Twins' records that repeated an event already seen (not counted twice). */
uint64_t sched_match_twin_repeats(const struct sched_match *m);

/*
 * Each job counted completed, as it completes (during sched_match_drain_end):
 * its span on ring id (dev and ring left "" for the caller to name), its
 * process, its flow (sched_flow_id), and the flow of the job it depended on
 * (declared by add_dep, >= 6.17, or waited for by dep_wait) when that job was
 * in flight or among the last SCHED_MATCH_RECENT done then; the stacks its
 * queue record took (ids -1 when none).
 */
typedef void (*sched_job_fn)(void *arg, __u32 ring, const struct job_span *span);
void sched_match_on_job(struct sched_match *m, sched_job_fn fn, void *arg);
/* A job's flow id (never 0): from its key and seqno, unique among jobs in flight. */
uint64_t sched_flow_id(uint64_t key, uint64_t seq);

#endif
