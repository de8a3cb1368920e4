/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Decoding of gpu_scheduler records into one generation-neutral event.
 *
 * The same functions compile for BPF (CO-RE reads, probe-read strings) and for
 * the host, where unit tests feed them synthetic records of every layout.
 */
#ifndef GPUTOP_SCHED_DECODE_H
#define GPUTOP_SCHED_DECODE_H

#include "drm_sched.h"
#include "sched_records.h"

#ifdef __bpf__
#define REC_READ(p, field) BPF_CORE_READ(p, field)
#define REC_STR_AT(dst, src) bpf_probe_read_kernel_str(dst, sizeof(dst), src)
#else
#include <stddef.h>
#define REC_READ(p, field) ((p)->field)
static inline void rec_str_copy(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	for (; src && i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}
#define REC_STR_AT(dst, src) rec_str_copy(dst, sizeof(dst), (const char *)(src))
#endif

/* A __data_loc field: low 16 bits are the offset from the record start, high 16 the length. */
#define REC_LOC_STR(dst, rec, loc) REC_STR_AT(dst, (const char *)(rec) + ((loc) & 0xffff))

/* What a queue or run record says about a job. */
struct sched_job_ev {
	struct job_key key;
	struct ring_key ring; /* ring.dev is "" where the record has no device */
	__u64 entity; /* <= 6.16 only: the entity pointer, to find the device */
	__u32 job_count; /* entity's software queue length */
	int hw_job_count; /* scheduler's hw_rq_count or credit_count */
	__u64 client_id; /* >= 6.17: drm_file client id; 0 otherwise */
};

static inline __attribute__((always_inline)) void
sched_decode_job_v617(const struct trace_event_raw_drm_sched_job *e, struct sched_job_ev *ev)
{
	ev->key.a = REC_READ(e, fence_context);
	ev->key.b = REC_READ(e, fence_seqno);
	REC_LOC_STR(ev->ring.name, e, REC_READ(e, __data_loc_name));
	REC_LOC_STR(ev->ring.dev, e, REC_READ(e, __data_loc_dev));
	ev->entity = 0;
	ev->job_count = REC_READ(e, job_count);
	ev->hw_job_count = REC_READ(e, hw_job_count);
	ev->client_id = REC_READ(e, client_id);
}

static inline __attribute__((always_inline)) void
sched_decode_job_v61(const struct trace_event_raw_drm_sched_job___v61 *e, struct sched_job_ev *ev)
{
	ev->key.a = (__u64)(unsigned long)REC_READ(e, fence);
	ev->key.b = 0;
	REC_LOC_STR(ev->ring.name, e, REC_READ(e, __data_loc_name));
	ev->ring.dev[0] = '\0';
	ev->entity = (__u64)(unsigned long)REC_READ(e, entity);
	ev->job_count = REC_READ(e, job_count);
	ev->hw_job_count = REC_READ(e, hw_job_count);
	ev->client_id = 0;
}

static inline __attribute__((always_inline)) void
sched_decode_job_v515(const struct trace_event_raw_drm_sched_job___v515 *e,
		      struct sched_job_ev *ev)
{
	ev->key.a = (__u64)(unsigned long)REC_READ(e, fence);
	ev->key.b = 0;
	REC_STR_AT(ev->ring.name, REC_READ(e, name));
	ev->ring.dev[0] = '\0';
	ev->entity = (__u64)(unsigned long)REC_READ(e, entity);
	ev->job_count = REC_READ(e, job_count);
	ev->hw_job_count = REC_READ(e, hw_job_count);
	ev->client_id = 0;
}

/* The ring that waits, from a <= 6.16 wait_dep record (which names the ring, not the job). */
static inline __attribute__((always_inline)) void
sched_decode_wait_dep_v61(const struct trace_event_raw_drm_sched_job_wait_dep *e,
			  struct ring_key *ring)
{
	REC_LOC_STR(ring->name, e, REC_READ(e, __data_loc_name));
	ring->dev[0] = '\0';
}

static inline __attribute__((always_inline)) void
sched_decode_wait_dep_v515(const struct trace_event_raw_drm_sched_job_wait_dep___v515 *e,
			   struct ring_key *ring)
{
	REC_STR_AT(ring->name, REC_READ(e, name));
	ring->dev[0] = '\0';
}

/* The job that depends, from a >= 6.17 add_dep or unschedulable record. */
static inline __attribute__((always_inline)) void
sched_decode_dep_v617(const struct trace_event_raw_drm_sched_job_add_dep *e, struct job_key *key)
{
	key->a = REC_READ(e, fence_context);
	key->b = REC_READ(e, fence_seqno);
}

#endif
