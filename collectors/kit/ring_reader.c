// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <sys/epoll.h>
#include <bpf/libbpf.h>
#include "collectors/kit/ring_reader.h"

static void drain(struct ring_reader *r)
{
	if (r->drain)
		r->drain(r->arg);
	else
		ring_buffer__consume(r->rb);
}

/* Wakes every period, or when the programs force a wake-up: never per record. */
static void *reader_main(void *arg)
{
	struct ring_reader *r = arg;
	int efd = ring_buffer__epoll_fd(r->rb);
	struct epoll_event ev;

	while (!atomic_load(&r->stop)) {
		if (epoll_wait(efd, &ev, 1, r->period_ms) < 0 && errno != EINTR)
			break;
		pthread_mutex_lock(&r->lock);
		drain(r);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

void ring_reader_init(struct ring_reader *r, struct ring_buffer *rb, int period_ms, void (*fn)(void *arg),
		      void *arg)
{
	r->rb = rb;
	r->period_ms = period_ms;
	r->drain = fn;
	r->arg = arg;
	r->started = false;
	atomic_init(&r->stop, false);
	pthread_mutex_init(&r->lock, NULL);
}

int ring_reader_start(struct ring_reader *r)
{
	if (pthread_create(&r->thread, NULL, reader_main, r))
		return -1;
	r->started = true;
	return 0;
}

void ring_reader_lock(struct ring_reader *r)
{
	pthread_mutex_lock(&r->lock);
	drain(r);
}

void ring_reader_unlock(struct ring_reader *r)
{
	pthread_mutex_unlock(&r->lock);
}

void ring_reader_stop(struct ring_reader *r)
{
	if (r->started) {
		atomic_store(&r->stop, true);
		pthread_join(r->thread, NULL);
		r->started = false;
	}
	pthread_mutex_destroy(&r->lock);
}
