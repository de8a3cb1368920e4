/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The scheduler collector's streamed design (--sched-design stream): its BPF
 * object (bpf/drm_sched_stream.bpf.c), its ring buffer and the thread that
 * drains it into the matcher (sched_match.h) every SCHED_STREAM_PERIOD_MS, or
 * at once when the programs say a batch is waiting. drm_sched.c reads the
 * matcher's counters at each tick, as it reads the map design's maps.
 */
#ifndef GPUTOP_SCHED_STREAM_H
#define GPUTOP_SCHED_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "collectors/drm_sched/sched_match.h"
#include "collectors/kit/tp_progs.h"

#define SCHED_STREAM_PERIOD_MS 50

struct sched_stream;

/*
 * Opens and loads the object: tps (tp_specs_count(specs, n)) filled from specs,
 * the twins' rescues counted by the matcher; stacks: queue events take their
 * submitter's stacks (--stacks). NULL with *err (a negative errno)
 * on failure; -ENOENT when a program is missing.
 */
struct sched_stream *sched_stream_open(struct tp_prog *tps, const struct tp_spec *specs, size_t n,
				       bool track_deps, bool stacks, __u64 spin_ns, int *err);
/* Before the programs attach: jobs started before now are not counted. */
void sched_stream_set_attach_ns(struct sched_stream *s, __u64 ns);
/* After they attach: the draining thread starts. -1 when it cannot. */
int sched_stream_start(struct sched_stream *s);
/*
 * Drains what is waiting and holds the matcher for the caller until
 * sched_stream_unlock (the thread waits meanwhile).
 */
struct sched_match *sched_stream_lock(struct sched_stream *s);
void sched_stream_unlock(struct sched_stream *s);
/* Each job completed, to fn (sched_match_on_job): before sched_stream_start. */
void sched_stream_on_job(struct sched_stream *s, sched_job_fn fn, void *arg);
/* The ring_ids map (ring key -> index) of the object. */
int sched_stream_ring_ids_fd(const struct sched_stream *s);
/*
 * --stacks: each queue record with stacks, to fn as it is drained (its process
 * still there, most likely): before sched_stream_start.
 */
typedef void (*sched_queue_fn)(void *arg, __u32 tgid, const char *comm);
void sched_stream_on_queue(struct sched_stream *s, sched_queue_fn fn, void *arg);
/*
 * --stacks: each stack copy (struct sched_stack_sample, size bytes) to fn as it
 * is drained, in the same drains as the records (the lock held): before
 * sched_stream_start. 0, or a negative errno.
 */
typedef void (*sched_sample_fn)(void *arg, const void *data, size_t size);
int sched_stream_on_sample(struct sched_stream *s, sched_sample_fn fn, void *arg);
/* --stacks: stack copies the ring buffer had no room for. */
__u64 sched_stream_samples_lost(const struct sched_stream *s);
/* --stacks: the stacks map (id -> SCHED_STACK_DEPTH addresses). */
int sched_stream_stacks_fd(const struct sched_stream *s);
/* Kernel-side losses: records with no room per event kind; rings not interned (table full). */
const __u64 *sched_stream_rb_full(const struct sched_stream *s);
__u64 sched_stream_ring_full(const struct sched_stream *s);
void sched_stream_close(struct sched_stream *s);

#endif
