// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../model/model.h"
#include "../output/json_read.h"
#include "replay.h"

struct replay {
	FILE *f;
	char path[256];
	unsigned long line; /* lines read so far */
	bool realtime, eof, step;
	double delay_s; /* > 0: this interval instead of the recorded ones */
	uint64_t due_ns; /* when the next snapshot may be handed out */
	uint64_t seq;
	struct snapshot *cur; /* refs: ours plus the front end's */
	char error[640];
	uint32_t pid_filter;
	char *buf;
	size_t bufsize;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
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

/* Reads the next snapshot line; false at the end or at a bad line (error set). */
static bool advance(struct replay *r)
{
	char reason[256];
	struct snapshot *s;
	ssize_t n;

	for (;;) {
		errno = 0;
		n = getline(&r->buf, &r->bufsize, r->f);
		if (n < 0) {
			if (errno)
				snprintf(r->error, sizeof(r->error), "%s:%lu: read error: %s", r->path,
					 r->line + 1, strerror(errno));
			r->eof = true;
			return false;
		}
		r->line++;
		if (strspn(r->buf, " \t\r\n") == (size_t)n)
			continue; /* blank line */
		break;
	}
	s = snapshot_from_json(r->buf, reason, sizeof(reason));
	if (!s) {
		snprintf(r->error, sizeof(r->error), "%s:%lu: %s%s", r->path, r->line, reason,
			 r->buf[n - 1] != '\n' ? " (truncated last line)" : "");
		r->eof = true;
		return false;
	}
	s->seq = ++r->seq;
	s->refs = 1;
	if (r->pid_filter)
		snapshot_filter_pid(s, r->pid_filter);
	put(r->cur);
	r->cur = s;
	return true;
}

static const struct snapshot *replay_take(void *impl, uint64_t after_seq, int timeout_ms)
{
	struct replay *r = impl;
	uint64_t now = mono_ns(), deadline = now + (uint64_t)timeout_ms * 1000000ULL;

	if (!(r->cur && r->cur->seq > after_seq)) {
		if (r->realtime && !r->step && !r->eof && now < r->due_ns) {
			uint64_t until = r->due_ns < deadline ? r->due_ns : deadline;
			struct timespec ts = { (time_t)((until - now) / 1000000000ULL),
					       (long)((until - now) % 1000000000ULL) };

			nanosleep(&ts, NULL);
			if (mono_ns() < r->due_ns)
				return NULL;
		}
		if (r->eof || !advance(r)) {
			if (r->eof && timeout_ms > 0 && r->realtime) {
				struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

				nanosleep(&ts, NULL);
			}
			return NULL;
		}
		r->step = false;
		r->due_ns = mono_ns() + (uint64_t)((r->delay_s > 0 ? r->delay_s :
					  r->cur->interval_s > 0 ? r->cur->interval_s : 1.0) * 1e9);
	}
	r->cur->refs++;
	return r->cur;
}

static void replay_release(void *impl, const struct snapshot *s)
{
	(void)impl;
	put((struct snapshot *)s);
}

static void replay_set_delay(void *impl, double delay_s)
{
	((struct replay *)impl)->delay_s = delay_s;
}

static void replay_step(void *impl)
{
	((struct replay *)impl)->step = true;
}

static const char *replay_error(void *impl)
{
	return ((struct replay *)impl)->error;
}

static bool replay_finished(void *impl)
{
	return ((struct replay *)impl)->eof;
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

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->f = fopen(path, "r");
	if (!r->f) {
		snprintf(err, errlen, "cannot open recording '%s': %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->realtime = realtime;
	r->delay_s = delay_s;
	return r;
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	put(r->cur);
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
}
