// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clock.h"
#include "output/trace_calls.h"
#include "output/trace_counters.h"
#include "output/trace_display.h"
#include "output/trace_jobs.h"
#include "src/capture.h"

struct capture {
	pthread_mutex_t lock; /* the writer: the front end's thread and the poller's */
	FILE *out;
	struct trace_counters tc;
	struct trace_jobs jobs;
	struct trace_display display;
	struct trace_calls calls;
	bool stopped;
};

static pthread_mutex_t route_lock = PTHREAD_MUTEX_INITIALIZER; /* routed: the poller's thread reads it */
static struct capture *routed;
static atomic_bool routing;

static void on_jobs(void *arg, const struct job_span *spans, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	pthread_mutex_lock(&c->lock);
	if (!c->stopped)
		trace_jobs_add(&c->jobs, spans, n, lost);
	pthread_mutex_unlock(&c->lock);
}

static void on_marks(void *arg, const struct display_mark *marks, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	pthread_mutex_lock(&c->lock);
	if (!c->stopped)
		trace_display_add(&c->display, marks, n, lost);
	pthread_mutex_unlock(&c->lock);
}

static void on_calls(void *arg, const struct call_span *calls, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	pthread_mutex_lock(&c->lock);
	if (!c->stopped)
		trace_calls_add(&c->calls, calls, n, lost);
	pthread_mutex_unlock(&c->lock);
}

struct capture *capture_open(FILE *out, uint64_t limit_bytes, int *err)
{
	struct capture *c = calloc(1, sizeof(*c));
	int64_t off;

	*err = -ENOMEM;
	if (!c)
		return NULL;
	*err = trace_counters_init(&c->tc, out, limit_bytes);
	if (*err) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->out = out;
	off = (int64_t)(clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC));
	trace_jobs_init(&c->jobs, &c->tc, off);
	trace_display_init(&c->display, &c->tc, off);
	trace_calls_init(&c->calls, &c->tc, off);
	return c;
}

static void route_jobs(void *arg, const struct job_span *spans, size_t n, uint64_t lost)
{
	(void)arg;
	pthread_mutex_lock(&route_lock);
	if (routed)
		on_jobs(routed, spans, n, lost);
	pthread_mutex_unlock(&route_lock);
}

static void route_marks(void *arg, const struct display_mark *marks, size_t n, uint64_t lost)
{
	(void)arg;
	pthread_mutex_lock(&route_lock);
	if (routed)
		on_marks(routed, marks, n, lost);
	pthread_mutex_unlock(&route_lock);
}

static void route_calls(void *arg, const struct call_span *calls, size_t n, uint64_t lost)
{
	(void)arg;
	pthread_mutex_lock(&route_lock);
	if (routed)
		on_calls(routed, calls, n, lost);
	pthread_mutex_unlock(&route_lock);
}

const struct job_sink *capture_sink(void)
{
	static const struct job_sink sink = { .jobs = route_jobs,
					      .marks = route_marks,
					      .calls = route_calls,
					      .active = &routing };

	return &sink;
}

void capture_route(struct capture *c)
{
	pthread_mutex_lock(&route_lock);
	routed = c;
	atomic_store(&routing, c != NULL);
	pthread_mutex_unlock(&route_lock);
}

static void stats(struct capture *c, struct capture_stats *st)
{
	*st = (struct capture_stats){ .samples = c->tc.samples, .jobs = c->jobs.slices,
				      .jobs_lost = c->jobs.lost, .vblanks = c->display.vblanks,
				      .deliveries = c->display.deliveries,
				      .missed = c->display.missed, .marks_lost = c->display.lost,
				      .ioctls = c->calls.ioctls, .waits = c->calls.waits,
				      .launches = c->calls.launches, .syncs = c->calls.syncs,
				      .calls_lost = c->calls.lost,
				      .bytes = c->tc.w.bytes,
				      .dropped = c->tc.w.dropped };
}

void capture_progress(struct capture *c, struct capture_stats *st)
{
	pthread_mutex_lock(&c->lock);
	stats(c, st);
	pthread_mutex_unlock(&c->lock);
}

bool capture_add(struct capture *c, const struct snapshot *s)
{
	bool ok = true;

	pthread_mutex_lock(&c->lock);
	if (!c->stopped)
		ok = !trace_counters_add(&c->tc, s);
	pthread_mutex_unlock(&c->lock);
	return ok;
}

void capture_stop(struct capture *c)
{
	pthread_mutex_lock(&c->lock);
	c->stopped = true;
	pthread_mutex_unlock(&c->lock);
}

int capture_close(struct capture *c, struct capture_stats *st)
{
	int err;

	pthread_mutex_lock(&c->lock);
	err = trace_counters_finish(&c->tc);
	stats(c, st);
	trace_jobs_free(&c->jobs);
	if (fclose(c->out) && !err)
		err = -EIO;
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return err;
}
