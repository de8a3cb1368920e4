// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Replay: a reader thread reads and parses the recording one snapshot ahead,
 * so that the interface never waits on a large line; the front end takes the
 * parsed snapshot when it is due. Lines are bounded (REPLAY_LINE_MAX).
 */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../model/array.h"
#include "../model/model.h"
#include "../output/json_read.h"
#include "replay.h"

#define REPLAY_INTERVAL_MAX_S 3600.0
#define STEP_WAIT_NS (200 * 1000000ULL) /* a take with single steps pending waits this long at most */ /* a recorded interval is at most this (a bad one would stall) */

struct replay {
	FILE *f;
	char path[256];
	bool realtime;
	unsigned int steps; /* single steps asked for (n), not yet taken: each one snapshot */
	double delay_s; /* > 0: this interval instead of the recorded ones */
	uint64_t due_ns; /* when the next snapshot may be handed out */
	struct snapshot *cur; /* refs: ours plus the front end's; front end's thread only */
	uint32_t pid_filter;
	/* shared with the reader thread, under lock */
	pthread_t reader;
	bool reader_started;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* CLOCK_MONOTONIC: a snapshot read, one taken, stop */
	struct snapshot *next; /* read ahead, not yet handed out */
	struct snapshot **garbage; /* released by the front end, freed by the reader */
	size_t ngarbage, garbage_cap;
	bool eof, stop;
	char error[640];
	/* the reader's own */
	unsigned long line; /* lines read so far */
	uint64_t seq;
	char *buf;
	size_t bufsize;
	struct json_read_hints hints; /* each table's rows in the last line */
	char in[65536]; /* read from the file, not yet in a line */
	size_t in_pos, in_len;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct timespec ts_from_ns(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000ULL),
				  .tv_nsec = (long)(ns % 1000000000ULL) };
}

/* Drops a reference (front end's thread); the last one hands it to the reader to free. */
static void put_to(struct replay *r, struct snapshot *s)
{
	struct snapshot **slot;

	if (!s || --s->refs)
		return;
	pthread_mutex_lock(&r->lock);
	slot = r->reader_started && !r->stop ?
		       array_push(&r->garbage, &r->ngarbage, &r->garbage_cap, sizeof(*slot)) :
		       NULL;
	if (slot) {
		*slot = s;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	if (!slot)
		snapshot_free(s);
}

static void put(struct snapshot *s)
{
	if (s && --s->refs == 0)
		snapshot_free(s);
}

void replay_set_pid_filter(struct replay *r, uint32_t pid)
{
	r->pid_filter = pid;
}

/* Room for want more bytes in r->buf (at most REPLAY_LINE_MAX + 1 in all); false when it cannot grow. */
static bool line_room(struct replay *r, size_t len, size_t want, char *why, size_t whylen)
{
	size_t size = r->bufsize ? r->bufsize : 65536;
	char *grown;

	if (len + want + 1 <= r->bufsize)
		return true;
	if (len + want > REPLAY_LINE_MAX) {
		snprintf(why, whylen, "a line longer than %d MiB: not a recording", REPLAY_LINE_MAX >> 20);
		return false;
	}
	while (size < len + want + 1)
		size *= 2;
	if (size > REPLAY_LINE_MAX + 1)
		size = REPLAY_LINE_MAX + 1;
	grown = realloc(r->buf, size);
	if (!grown) {
		snprintf(why, whylen, "out of memory");
		return false;
	}
	r->buf = grown;
	r->bufsize = size;
	return true;
}

/*
 * The next line into r->buf (NUL-terminated, its newline kept): its length, 0
 * at the end, -1 with why set: longer than REPLAY_LINE_MAX, or a NUL byte
 * (/dev/zero, a binary file): neither is a recording.
 */
static ssize_t read_line(struct replay *r, char *why, size_t whylen)
{
	size_t len = 0;

	for (;;) {
		const char *start, *nl;
		size_t take;

		if (r->in_pos == r->in_len) {
			r->in_len = fread(r->in, 1, sizeof(r->in), r->f);
			r->in_pos = 0;
			if (!r->in_len) {
				if (ferror(r->f)) {
					snprintf(why, whylen, "read error: %s", strerror(errno));
					return -1;
				}
				if (r->buf)
					r->buf[len] = '\0';
				return (ssize_t)len;
			}
		}
		start = r->in + r->in_pos;
		nl = memchr(start, '\n', r->in_len - r->in_pos);
		take = nl ? (size_t)(nl - start) + 1 : r->in_len - r->in_pos;
		if (memchr(start, '\0', take)) {
			snprintf(why, whylen, "a NUL byte: not a recording");
			return -1;
		}
		if (!line_room(r, len, take, why, whylen))
			return -1;
		memcpy(r->buf + len, start, take);
		len += take;
		r->in_pos += take;
		r->buf[len] = '\0';
		if (nl)
			return (ssize_t)len;
	}
}

/* Reads and parses the next snapshot; NULL at the end (why "") or at a bad line (why set). */
static struct snapshot *read_next(struct replay *r, char *why, size_t whylen)
{
	char reason[256];
	struct snapshot *s;
	ssize_t n;

	why[0] = '\0';
	for (;;) {
		n = read_line(r, reason, sizeof(reason));
		if (n < 0) {
			snprintf(why, whylen, "%s:%lu: %s", r->path, r->line + 1, reason);
			return NULL;
		}
		if (n == 0)
			return NULL;
		r->line++;
		if (strspn(r->buf, " \t\r\n") != (size_t)n)
			break; /* not a blank line */
	}
	s = snapshot_from_json_hinted(r->buf, &r->hints, reason, sizeof(reason));
	if (!s) {
		snprintf(why, whylen, "%s:%lu: %s%s", r->path, r->line, reason,
			 r->buf[n - 1] != '\n' ? " (truncated last line)" : "");
		return NULL;
	}
	s->seq = ++r->seq;
	s->refs = 1;
	if (r->pid_filter)
		snapshot_filter_pid(s, r->pid_filter);
	return s;
}

/* Frees what the front end released (a large snapshot takes tens of ms: not on its thread). Locked. */
static void free_garbage(struct replay *r)
{
	while (r->ngarbage) {
		struct snapshot *s = r->garbage[--r->ngarbage];

		pthread_mutex_unlock(&r->lock);
		snapshot_free(s);
		pthread_mutex_lock(&r->lock);
	}
}

static void *reader_main(void *arg)
{
	struct replay *r = arg;

	pthread_mutex_lock(&r->lock);
	while (!r->stop) {
		struct snapshot *s;
		char why[640];

		free_garbage(r);
		if (r->next || r->eof) {
			pthread_cond_wait(&r->cond, &r->lock);
			continue;
		}
		pthread_mutex_unlock(&r->lock);
		s = read_next(r, why, sizeof(why));
		pthread_mutex_lock(&r->lock);
		if (s) {
			r->next = s;
		} else {
			snprintf(r->error, sizeof(r->error), "%s", why);
			r->eof = true;
		}
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* How long the snapshot s stays before the next: -d, else its recorded interval, bounded. */
static uint64_t hold_ns(const struct replay *r, const struct snapshot *s)
{
	double iv = r->delay_s > 0 ? r->delay_s : s->interval_s;

	if (!isfinite(iv) || iv <= 0)
		iv = 1.0;
	if (iv > REPLAY_INTERVAL_MAX_S)
		iv = REPLAY_INTERVAL_MAX_S;
	return (uint64_t)(iv * 1e9);
}

static const struct snapshot *replay_take(void *impl, uint64_t after_seq, int timeout_ms)
{
	struct replay *r = impl;
	uint64_t now = mono_ns(), deadline = now + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000ULL;
	struct timespec until;
	struct snapshot *s;
	bool got = false;

	if (r->cur && r->cur->seq > after_seq)
		goto out;
	if (r->steps && deadline < now + STEP_WAIT_NS) /* n was pressed: wait a moment for the reader */
		deadline = now + STEP_WAIT_NS;
	if (r->realtime && !r->steps && r->cur && now < r->due_ns) {
		uint64_t wake = r->due_ns < deadline ? r->due_ns : deadline;
		struct timespec ts = ts_from_ns(wake - now);

		nanosleep(&ts, NULL);
		if (mono_ns() < r->due_ns)
			return NULL;
	}
	until = ts_from_ns(deadline);
	do { /* one snapshot, or as many as single steps are pending (n pressed quickly) */
		pthread_mutex_lock(&r->lock);
		while (!r->next && !r->eof)
			if (pthread_cond_timedwait(&r->cond, &r->lock, &until) == ETIMEDOUT)
				break;
		s = r->next;
		r->next = NULL;
		pthread_cond_broadcast(&r->cond); /* the reader reads the one after */
		pthread_mutex_unlock(&r->lock);
		if (!s)
			break;
		if (r->steps && r->cur) /* the first snapshot is no step: n goes on from one shown */
			r->steps--;
		put_to(r, r->cur);
		r->cur = s;
		got = true;
	} while (r->steps);
	if (!got || r->cur->seq <= after_seq)
		return NULL;
	r->due_ns = mono_ns() + hold_ns(r, r->cur);
out:
	r->cur->refs++;
	return r->cur;
}

static void replay_release(void *impl, const struct snapshot *s)
{
	put_to(impl, (struct snapshot *)s);
}

static void replay_set_delay(void *impl, double delay_s)
{
	((struct replay *)impl)->delay_s = delay_s;
}

static void replay_step(void *impl)
{
	((struct replay *)impl)->steps++;
}

static const char *replay_error(void *impl)
{
	struct replay *r = impl;
	bool done;

	pthread_mutex_lock(&r->lock);
	done = r->eof && !r->next;
	pthread_mutex_unlock(&r->lock);
	return done ? r->error : ""; /* written once, before eof */
}

static bool replay_finished(void *impl)
{
	struct replay *r = impl;
	bool done;

	pthread_mutex_lock(&r->lock);
	done = r->eof && !r->next;
	pthread_mutex_unlock(&r->lock);
	return done;
}

static const struct feed_ops replay_ops = {
	.take = replay_take,
	.release = replay_release,
	.set_delay = replay_set_delay,
	.step = replay_step,
	.error = replay_error,
	.finished = replay_finished,
};

struct replay *replay_open(const char *path, bool realtime, double delay_s, char *err,
			   size_t errlen)
{
	struct replay *r = calloc(1, sizeof(*r));
	pthread_condattr_t attr;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->f = fopen(path, "re");
	if (!r->f) {
		snprintf(err, errlen, "cannot open recording '%s': %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->realtime = realtime;
	r->delay_s = delay_s;
	/*
	 * A large recording parses into many small blocks freed a moment later:
	 * keep the heap's pages rather than give them back and fault them in again
	 * for every snapshot (a 24 MB line: 1 s to parse the first time, 0.2 s after).
	 */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cond, &attr);
	pthread_condattr_destroy(&attr);
	return r;
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	if (r->reader_started) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->reader, NULL); /* a line being parsed is finished first */
	}
	put(r->cur);
	put(r->next);
	while (r->ngarbage)
		snapshot_free(r->garbage[--r->ngarbage]);
	free(r->garbage);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	fclose(r->f);
	free(r->buf);
	free(r);
}

void replay_feed(struct replay *r, struct feed *feed)
{
	feed->ops = &replay_ops;
	feed->impl = r;
	feed->replay = true;
	feed->name = r->path;
	if (!r->reader_started) { /* the filter is set: read ahead from now on */
		if (pthread_create(&r->reader, NULL, reader_main, r)) {
			snprintf(r->error, sizeof(r->error), "%s: cannot start the reader thread", r->path);
			r->eof = true;
		} else {
			r->reader_started = true;
		}
	}
}
