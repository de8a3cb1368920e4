// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clock.h"
#include "output/trace_calls.h"
#include "output/trace_counters.h"
#include "output/trace_display.h"
#include "output/trace_jobs.h"
#include "output/trace_kernels.h"
#include "src/capture.h"

struct capture {
	pthread_mutex_t lock; /* the writer: the front end's thread and the collectors' readers */
	FILE *out;
	struct trace_counters tc;
	struct trace_jobs jobs;
	struct trace_display display;
	struct trace_calls calls;
	struct trace_kernels kernels;
	int64_t wall_minus_mono_ns;
	bool stopped; /* no snapshot more */
	uint64_t end_ns; /* CLOCK_MONOTONIC: what happened after it is cut; 0: no end set */
	uint64_t jobs_lost, marks_lost, calls_lost, cuda_lost,
		kernels_lost; /* handed over as lost, by the collectors */
	uint64_t cut; /* events after the end */
};

static pthread_mutex_t route_lock = PTHREAD_MUTEX_INITIALIZER; /* routed: the readers' threads read it */
static struct capture *routed;
static atomic_bool routing;

typedef void (*add_fn)(struct capture *c, const void *items, size_t n, uint64_t lost);

/*
 * items[n] (size bytes each, their CLOCK_MONOTONIC time at time_off) to add,
 * in runs, those after the capture's end left out and counted (cut); the lock held.
 */
static void add_until_end(struct capture *c, const void *items, size_t n, size_t size, size_t time_off, uint64_t lost,
			  add_fn add)
{
	const unsigned char *p = items;
	size_t from = 0;

	for (size_t i = 0; i <= n; i++) {
		uint64_t t = 0;
		bool after = false;

		if (i < n) {
			memcpy(&t, p + i * size + time_off, sizeof(t));
			after = c->end_ns && t > c->end_ns;
		}
		if (i < n && !after)
			continue;
		if (i > from || lost)
			add(c, i > from ? p + from * size : NULL, i - from, lost); /* none: the losses alone */
		lost = 0;
		from = i + 1;
		c->cut += after;
	}
}

static void add_jobs(struct capture *c, const void *items, size_t n, uint64_t lost)
{
	trace_jobs_add(&c->jobs, items, n, lost);
}

static void add_marks(struct capture *c, const void *items, size_t n, uint64_t lost)
{
	trace_display_add(&c->display, items, n, lost);
}

static void add_calls(struct capture *c, const void *items, size_t n, uint64_t lost)
{
	trace_calls_add(&c->calls, items, n, lost);
}

static void add_kernels(struct capture *c, const void *items, size_t n, uint64_t lost)
{
	trace_kernels_add(&c->kernels, items, n, lost);
}

/* items[n] handed over by a collector, with lost (counted in *count), under the lock: see add_until_end. */
static void items_in(struct capture *c, const void *items, size_t n, size_t size, size_t time_off, uint64_t lost,
		     uint64_t *count, add_fn add)
{
	pthread_mutex_lock(&c->lock);
	*count += lost;
	add_until_end(c, items, n, size, time_off, lost, add);
	pthread_mutex_unlock(&c->lock);
}

static void on_jobs(void *arg, const struct job_span *spans, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	items_in(c, spans, n, sizeof(*spans), offsetof(struct job_span, done_ns), lost, &c->jobs_lost, add_jobs);
}

static void on_marks(void *arg, const struct display_mark *marks, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	items_in(c, marks, n, sizeof(*marks), offsetof(struct display_mark, ts_ns), lost, &c->marks_lost, add_marks);
}

static void on_calls(void *arg, const struct call_span *calls, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	items_in(c, calls, n, sizeof(*calls), offsetof(struct call_span, start_ns), lost, &c->calls_lost, add_calls);
}

static void on_cuda(void *arg, const struct call_span *calls, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	items_in(c, calls, n, sizeof(*calls), offsetof(struct call_span, start_ns), lost, &c->cuda_lost, add_calls);
}

static void on_kernels(void *arg, const struct kernel_span *kernels, size_t n, uint64_t lost)
{
	struct capture *c = arg;

	items_in(c, kernels, n, sizeof(*kernels), offsetof(struct kernel_span, start_ns), lost, &c->kernels_lost,
		 add_kernels);
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
	c->wall_minus_mono_ns = (int64_t)(clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC));
	trace_jobs_init(&c->jobs, &c->tc, c->wall_minus_mono_ns);
	trace_display_init(&c->display, &c->tc, c->wall_minus_mono_ns);
	trace_calls_init(&c->calls, &c->tc, c->wall_minus_mono_ns);
	trace_kernels_init(&c->kernels, &c->tc, c->wall_minus_mono_ns);
	return c;
}

/* The capture routed to, the route's lock held, fed: jobs, marks or calls. */
#define ROUTE(fn, type)                                                               \
	static void route_##fn(void *arg, const type *items, size_t n, uint64_t lost) \
	{                                                                             \
		(void)arg;                                                            \
		pthread_mutex_lock(&route_lock);                                      \
		if (routed)                                                           \
			on_##fn(routed, items, n, lost);                              \
		pthread_mutex_unlock(&route_lock);                                    \
	}
ROUTE(jobs, struct job_span)
ROUTE(marks, struct display_mark)
ROUTE(calls, struct call_span)
ROUTE(cuda, struct call_span)
ROUTE(kernels, struct kernel_span)

const struct job_sink *capture_sink(void)
{
	static const struct job_sink sink = { .jobs = route_jobs,
					      .marks = route_marks,
					      .calls = route_calls,
					      .cuda = route_cuda,
					      .kernels = route_kernels,
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
	const struct perfetto_writer *w = &c->tc.w;

	*st = (struct capture_stats){ .samples = c->tc.samples,
				      .jobs = c->jobs.slices,
				      .jobs_lost = c->jobs_lost,
				      .vblanks = c->display.vblanks,
				      .deliveries = c->display.deliveries,
				      .missed = c->display.missed,
				      .marks_lost = c->marks_lost,
				      .ioctls = c->calls.ioctls,
				      .waits = c->calls.waits,
				      .launches = c->calls.launches,
				      .syncs = c->calls.syncs,
				      .calls_lost = c->calls_lost,
				      .cuda_lost = c->cuda_lost,
				      .kernels = c->kernels.slices,
				      .kernels_lost = c->kernels_lost,
				      .kernels_refused = c->kernels.lost - c->kernels_lost,
				      .clock_err_max_ns = c->kernels.clock_err_max_ns,
				      .jobs_refused = c->jobs.lost - c->jobs_lost,
				      .marks_refused = c->display.lost - c->marks_lost,
				      .calls_refused = c->calls.lost - c->calls_lost - c->cuda_lost,
				      .bytes = w->bytes,
				      .limit_bytes = w->limit_bytes,
				      .over_limit = w->over_limit,
				      .dropped = w->dropped,
				      .cut = c->cut };
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

void capture_end(struct capture *c, const struct snapshot *s)
{
	uint64_t wall = (uint64_t)s->wall.tv_sec * 1000000000ULL + (uint64_t)s->wall.tv_nsec;

	pthread_mutex_lock(&c->lock);
	c->stopped = true;
	c->end_ns = wall - (uint64_t)c->wall_minus_mono_ns;
	pthread_mutex_unlock(&c->lock);
}

int capture_close(struct capture *c, struct capture_stats *st)
{
	int err;

	pthread_mutex_lock(&c->lock);
	err = trace_counters_finish(&c->tc);
	stats(c, st);
	trace_jobs_free(&c->jobs);
	trace_kernels_free(&c->kernels);
	if (fclose(c->out) && !err)
		err = -EIO;
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return err;
}

/* "N WHAT (WHERE)" when n is not 0, after "; " but for the first part (*first then cleared). */
static void part(FILE *f, bool *first, uint64_t n, const char *what, const char *where)
{
	if (!n)
		return;
	fprintf(f, "%s%llu %s%s%s%s", *first ? "" : "; ", (unsigned long long)n, what, where ? " (" : "",
		where ? where : "", where ? ")" : "");
	*first = false;
}

/* The events lost before the writer, each kind where: a buffer of its collector was full. */
static void lost_line(FILE *f, const char *prog, const char *path, const struct capture_stats *st)
{
	bool first = true;

	if (!(st->cuda_lost + st->calls_lost + st->marks_lost + st->jobs_lost + st->kernels_lost))
		return;
	fprintf(f, "%s: trace '%s': lost before the writer, a buffer full: ", prog, path);
	part(f, &first, st->cuda_lost, "CUDA launches and syncs", "the nvidia collector's capture ring buffer");
	part(f, &first, st->calls_lost, "ioctls and fence waits", "the calls collector's capture ring buffer");
	part(f, &first, st->marks_lost, "display events", "the display collector's capture ring buffer");
	part(f, &first, st->jobs_lost, "jobs", "the scheduler collector's jobs of one interval");
	part(f, &first, st->kernels_lost, "CUDA kernels and copies", "the gpu_time collector's capture ring buffer");
	fputc('\n', f);
}

/* The events the writer refused, by kind, and its packets refused, by reason. */
static void refused_line(FILE *f, const char *prog, const char *path, const struct capture_stats *st)
{
	bool first = true;

	if (!(st->over_limit + st->dropped))
		return;
	fprintf(f, "%s: trace '%s': not written: ", prog, path);
	part(f, &first, st->jobs_refused, "jobs", NULL);
	part(f, &first, st->marks_refused, "display events", NULL);
	part(f, &first, st->calls_refused, "GPU calls", NULL);
	part(f, &first, st->kernels_refused, "CUDA kernels and copies", NULL);
	fprintf(f,
		"%s%llu packets over the size limit (%llu MiB, --trace-max-mb), %llu too large or without a track or lane\n",
		first ? "" : "; why: ", (unsigned long long)st->over_limit, (unsigned long long)(st->limit_bytes >> 20),
		(unsigned long long)st->dropped);
}

void capture_summary(FILE *f, const char *prog, const char *path, const struct capture_stats *st)
{
	fprintf(f,
		"%s: trace '%s': %llu samples, %llu jobs, %llu vblanks, %llu display events (%llu missed frames), %llu ioctls, %llu fence waits, %llu CUDA launches, %llu CUDA syncs written, %llu bytes\n",
		prog, path, (unsigned long long)st->samples, (unsigned long long)st->jobs,
		(unsigned long long)st->vblanks, (unsigned long long)st->deliveries, (unsigned long long)st->missed,
		(unsigned long long)st->ioctls, (unsigned long long)st->waits, (unsigned long long)st->launches,
		(unsigned long long)st->syncs, (unsigned long long)st->bytes);
	lost_line(f, prog, path, st);
	refused_line(f, prog, path, st);
	if (st->kernels)
		fprintf(f,
			"%s: trace '%s': %llu CUDA kernels and copies written, their GPU times placed on the CPU's clock within %llu ns (CUPTI's clock read between two CLOCK_MONOTONIC reads)\n",
			prog, path, (unsigned long long)st->kernels, (unsigned long long)st->clock_err_max_ns);
	if (st->cut)
		fprintf(f, "%s: trace '%s': %llu events after its end (--duration) left out\n", prog, path,
			(unsigned long long)st->cut);
}
