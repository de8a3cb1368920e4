// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clock.h"
#include "output/trace_counters.h"
#include "output/trace_jobs.h"
#include "src/capture.h"

struct capture {
	pthread_mutex_t lock; /* the writer: the front end's thread and the poller's */
	FILE *out;
	struct trace_counters tc;
	struct trace_jobs jobs;
	struct job_sink sink;
	bool stopped;
};

static void on_jobs(void *arg, const struct job_span *spans, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	pthread_mutex_lock(&c->lock);
	if (!c->stopped)
		trace_jobs_add(&c->jobs, spans, n, lost);
	pthread_mutex_unlock(&c->lock);
}

struct capture *capture_open(FILE *out, uint64_t limit_bytes, int *err)
{
	struct capture *c = calloc(1, sizeof(*c));

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
	trace_jobs_init(&c->jobs, &c->tc,
			(int64_t)(clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC)));
	c->sink = (struct job_sink){ .jobs = on_jobs, .arg = c };
	return c;
}

const struct job_sink *capture_job_sink(struct capture *c)
{
	return &c->sink;
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
	*st = (struct capture_stats){ .samples = c->tc.samples, .jobs = c->jobs.slices,
				      .jobs_lost = c->jobs.lost };
	err = trace_counters_finish(&c->tc);
	st->bytes = c->tc.w.bytes;
	st->dropped = c->tc.w.dropped;
	trace_jobs_free(&c->jobs);
	if (fclose(c->out) && !err)
		err = -EIO;
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return err;
}
