/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A thread that drains a BPF ring buffer (libbpf's struct ring_buffer, every ring
 * added to it) as records come, not once an interval: when the programs force a
 * wake-up, else every period. Draining and the reader's own use of what the
 * records fed (a tick's read) take one lock. For the scheduler's stream, and
 * for stack copies, whose process's mappings must be read while it lives.
 */
#ifndef GPUTOP_KIT_RING_READER_H
#define GPUTOP_KIT_RING_READER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct ring_buffer;

struct ring_reader {
	struct ring_buffer *rb;
	int period_ms;
	void (*drain)(void *arg); /* the lock held: consume what came (NULL: ring_buffer__consume) */
	void *arg;
	pthread_mutex_t lock;
	pthread_t thread;
	bool started;
	atomic_bool stop;
};

/* The reader of rb (not started), draining with drain(arg) (NULL: consume rb) every period_ms at most. */
void ring_reader_init(struct ring_reader *r, struct ring_buffer *rb, int period_ms, void (*drain)(void *arg),
		      void *arg);
/* Its thread started: 0, or -1. */
int ring_reader_start(struct ring_reader *r);
/* The lock taken, and what came so far drained (whether or not the thread runs). */
void ring_reader_lock(struct ring_reader *r);
void ring_reader_unlock(struct ring_reader *r);
/* The thread stopped (its last drain done), the lock freed; rb is the caller's. */
void ring_reader_stop(struct ring_reader *r);

#endif
