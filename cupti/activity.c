// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CUPTI's activity buffers to probe calls: buffers of BUFFER_MIN to BUFFER_MAX bytes (next_size), at
 * most BUFFERS given out at once (past that CUPTI is given none and drops, and counts, what it could
 * not store); each
 * completed buffer's kernel, memcpy and memset records turned into fixed records and handed to
 * gputop_cupti_records GPUTOP_CUPTI_CHUNK at a time, with the drop counts and a clock pair.
 * CUPTI's records are read by the oldest layouts that hold every field used (Kernel4, Memcpy,
 * Memset): later CUPTI versions add fields after these, never before.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cupti/cupti_lib.h"

#define BUFFER_MIN (16u << 10)
#define BUFFER_MAX (1u << 20)
#define BUFFERS 16
#define GROW_BELOW_NS 250000000u /* a request this soon after the last: buffers 4 times larger */
#define SHRINK_PAST_NS 2000000000u /* this long after it: half as large */

static const struct cupti_api *cupti;
/*
 * Two locks, never held together, so that no thread waits on one held by a thread inside CUPTI:
 * CUPTI asks for a buffer from within a launch (holding its own locks), and a completed buffer is
 * read with CUPTI calls (its clock, its drop count), which may wait for those locks.
 *   buffers_lock: the buffers given out and their size (no CUPTI call under it);
 *   lock: the reading of completed buffers, the batch and the names, the status calls.
 */
static pthread_mutex_t buffers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int buffers_out;
static size_t buffer_bytes = BUFFER_MIN;
static uint64_t last_request_ns;
static struct gputop_cupti_batch batch = { .abi = GPUTOP_CUPTI_ABI };
static struct gputop_cupti_record chunk[GPUTOP_CUPTI_CHUNK];

void activity_start(const struct cupti_api *api)
{
	pthread_mutex_lock(&lock);
	cupti = api;
	names_resend();
	pthread_mutex_unlock(&lock);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The next buffer's size, by how soon CUPTI asks again (it asks when one is full): CUPTI hands over
 * only full buffers, so a program of tens of kernels a second would wait minutes for a megabyte's
 * worth; one of 100k a second fills 16 KiB in a millisecond and gets 1 MiB within three requests.
 */
static size_t next_size(uint64_t now)
{
	if (last_request_ns && now - last_request_ns < GROW_BELOW_NS)
		buffer_bytes = buffer_bytes * 4 < BUFFER_MAX ? buffer_bytes * 4 : BUFFER_MAX;
	else if (last_request_ns && now - last_request_ns > SHRINK_PAST_NS && buffer_bytes / 2 >= BUFFER_MIN)
		buffer_bytes /= 2;
	last_request_ns = now;
	return buffer_bytes;
}

void CUPTIAPI activity_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	size_t bytes = 0;
	void *b = NULL;

	pthread_mutex_lock(&buffers_lock);
	if (buffers_out < BUFFERS && (b = aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, bytes = next_size(mono_ns()))))
		buffers_out++;
	pthread_mutex_unlock(&buffers_lock);
	*buffer = b;
	*size = b ? bytes : 0;
	*max_records = 0; /* as many as fit */
}

static void send_chunk(void)
{
	gputop_cupti_records(&batch, chunk);
	batch.sent += batch.count;
	batch.count = 0;
}

static void from_kernel(struct gputop_cupti_record *r, const CUpti_ActivityKernel4 *k)
{
	*r = (struct gputop_cupti_record){
		.start = k->start,
		.end = k->end,
		.queued = k->queued,
		.submitted = k->submitted,
		.kind = GPUTOP_CUPTI_KERNEL,
		.correlation_id = k->correlationId,
		.device_id = k->deviceId,
		.context_id = k->contextId,
		.stream_id = k->streamId,
		.name_id = name_id(k->name),
		.grid = { (uint32_t)k->gridX, (uint32_t)k->gridY, (uint32_t)k->gridZ },
		.block = { (uint32_t)k->blockX, (uint32_t)k->blockY, (uint32_t)k->blockZ },
	};
}

static void from_memcpy(struct gputop_cupti_record *r, const CUpti_ActivityMemcpy *m)
{
	*r = (struct gputop_cupti_record){
		.start = m->start,
		.end = m->end,
		.bytes = m->bytes,
		.kind = GPUTOP_CUPTI_MEMCPY,
		.correlation_id = m->correlationId,
		.device_id = m->deviceId,
		.context_id = m->contextId,
		.stream_id = m->streamId,
		.grid = { m->copyKind },
	};
}

static void from_memset(struct gputop_cupti_record *r, const CUpti_ActivityMemset *m)
{
	*r = (struct gputop_cupti_record){
		.start = m->start,
		.end = m->end,
		.bytes = m->bytes,
		.kind = GPUTOP_CUPTI_MEMSET,
		.correlation_id = m->correlationId,
		.device_id = m->deviceId,
		.context_id = m->contextId,
		.stream_id = m->streamId,
	};
}

/*
 * One record into the chunk (sent when full); other kinds than ours are left out, uncounted. One
 * without an end (a forced flush hands over activities not finished) is counted as the library's drop.
 */
static void take(const CUpti_Activity *a)
{
	struct gputop_cupti_record *r = &chunk[batch.count];

	switch (a->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		from_kernel(r, (const CUpti_ActivityKernel4 *)a);
		break;
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		from_memcpy(r, (const CUpti_ActivityMemcpy *)a);
		break;
	case CUPTI_ACTIVITY_KIND_MEMSET:
		from_memset(r, (const CUpti_ActivityMemset *)a);
		break;
	default:
		return;
	}
	if (!r->start || r->end < r->start) {
		batch.library_dropped++;
		return;
	}
	if (++batch.count == GPUTOP_CUPTI_CHUNK)
		send_chunk();
}

/* The records of BUFFER and CUPTI's drop count of its context and stream; a clock pair first. */
static void read_buffer(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t valid)
{
	uint64_t before = batch.library_dropped + batch.cupti_dropped;
	CUpti_Activity *a = NULL;
	CUptiResult st;
	size_t dropped = 0;

	batch.mono_before = mono_ns();
	if (cupti->timestamp(&batch.cupti_ns) != CUPTI_SUCCESS)
		batch.cupti_ns = 0;
	batch.mono_after = mono_ns();
	while ((st = cupti->next_record(buffer, valid, &a)) == CUPTI_SUCCESS)
		take(a);
	if (st != CUPTI_ERROR_MAX_LIMIT_REACHED)
		batch.library_dropped++; /* a record CUPTI could not read: the rest of the buffer is lost */
	if (cupti->dropped(ctx, stream, &dropped) == CUPTI_SUCCESS)
		batch.cupti_dropped += dropped;
	if (batch.count || batch.library_dropped + batch.cupti_dropped != before)
		send_chunk();
}

void CUPTIAPI activity_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
	(void)size;
	pthread_mutex_lock(&lock);
	if (buffer && cupti)
		read_buffer(ctx, stream, buffer, valid);
	pthread_mutex_unlock(&lock);
	if (buffer) {
		pthread_mutex_lock(&buffers_lock);
		buffers_out--;
		pthread_mutex_unlock(&buffers_lock);
	}
	free(buffer);
}

void status_send(uint32_t state, const char *detail)
{
	pthread_mutex_lock(&lock);
	gputop_cupti_status(state, detail);
	pthread_mutex_unlock(&lock);
}

/* The probe functions: empty but for what keeps their arguments and calls (the monitor's uprobes read them). */
#define KEEP(x) __asm__ volatile("" : : "r"(x) : "memory")

LIB_API __attribute__((noinline)) void gputop_cupti_records(const struct gputop_cupti_batch *b,
							    const struct gputop_cupti_record *r)
{
	KEEP(b);
	KEEP(r);
#ifdef GPUTOP_TEST_HOOKS
	hook_records(b, r);
#endif
}

LIB_API __attribute__((noinline)) void gputop_cupti_name(uint32_t id, const char *name, uint32_t len, uint32_t cut)
{
	KEEP(id);
	KEEP(name);
	KEEP(len);
	KEEP(cut);
#ifdef GPUTOP_TEST_HOOKS
	hook_name(id, name, len, cut);
#endif
}

LIB_API __attribute__((noinline)) void gputop_cupti_status(uint32_t state, const char *detail)
{
	KEEP(state);
	KEEP(detail);
#ifdef GPUTOP_TEST_HOOKS
	hook_status(state, detail);
#endif
}

LIB_API __attribute__((noinline)) void gputop_cupti_launch(uint32_t correlation_id)
{
	KEEP(correlation_id);
}
