// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Replay: parser threads read the recording's lines in turn and parse them at
 * the same time, so that the interface never waits on a large line and a
 * batch run reads as fast as the parsers together; each hands its snapshot on
 * in the recording's order (a ticket per line). The front end takes the next
 * one when it is due. Lines are bounded (REPLAY_LINE_MAX).
 */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "core/clock.h"
#include "core/array.h"
#include "model/model.h"
#include "model/gpu_processes.h"
#include "model/ioctl_names.h"
#include "model/process_names.h"
#include "recording/json_read.h"
#include "recording/replay.h"

#define REPLAY_INTERVAL_MAX_S 3600.0
#define REPLAY_PARSERS 2 /* lines parsed at once: a 24 MB line takes 90 ms, mostly the parse */
#define STEP_WAIT_NS (200 * 1000000ULL) /* a take with single steps pending waits this long at most */ /* a recorded interval is at most this (a bad one would stall) */

struct replay;

/* A parser thread and its own: the line it parses, and its tables' sizes in the last line it read. */
struct parser {
	struct replay *r;
	pthread_t thread;
	bool started;
	char *buf;
	size_t bufsize;
	struct json_read_hints hints;
};

struct replay {
	FILE *f;
	char path[256];
	bool realtime;
	unsigned int steps; /* single steps asked for (n), not yet taken: each one snapshot */
	double delay_s; /* > 0: this interval instead of the recorded ones */
	uint64_t due_ns; /* when the next snapshot may be handed out */
	struct snapshot *cur; /* refs: ours plus the front end's; front end's thread only */
	uint32_t pid_filter;
	struct process_names names; /* the names the snapshots handed on gave: a later "?" named by them */
	struct parser parsers[REPLAY_PARSERS];
	bool reader_started; /* a parser runs */
	/* shared with the parsers, under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond; /* CLOCK_MONOTONIC: a snapshot read, one taken, a turn passed, stop */
	struct snapshot *next; /* read ahead, not yet handed out */
	struct snapshot **garbage; /* released by the front end, freed by a parser */
	size_t ngarbage, garbage_cap;
	bool eof, stop;
	char error[640];
	uint64_t seq;
	uint64_t total; /* the recording's snapshots (its lines that are not blank); 0: not known (a pipe) */
	uint64_t handed; /* tickets whose line has been handed on (or ended the replay) */
	/* the file, under file_lock */
	pthread_mutex_t file_lock;
	uint64_t tickets; /* lines taken by the parsers */
	unsigned long line; /* lines read so far */
	char in[65536]; /* read from the file, not yet in a line */
	size_t in_pos, in_len;
};

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

/* Room for want more bytes in p->buf (at most REPLAY_LINE_MAX + 1 in all); false when it cannot grow. */
static bool line_room(struct parser *p, size_t len, size_t want, char *why, size_t whylen)
{
	size_t size = p->bufsize ? p->bufsize : 65536;
	char *grown;

	if (len + want + 1 <= p->bufsize)
		return true;
	if (len + want > REPLAY_LINE_MAX) {
		snprintf(why, whylen, "a line longer than %d MiB: not a recording", REPLAY_LINE_MAX >> 20);
		return false;
	}
	while (size < len + want + 1)
		size *= 2;
	if (size > REPLAY_LINE_MAX + 1)
		size = REPLAY_LINE_MAX + 1;
	grown = realloc(p->buf, size);
	if (!grown) {
		snprintf(why, whylen, "out of memory");
		return false;
	}
	p->buf = grown;
	p->bufsize = size;
	return true;
}

/*
 * The next line into p->buf (NUL-terminated, its newline kept): its length, 0
 * at the end, -1 with why set: longer than REPLAY_LINE_MAX, or a NUL byte
 * (/dev/zero, a binary file): neither is a recording. Under file_lock.
 */
static ssize_t read_line(struct replay *r, struct parser *p, char *why, size_t whylen)
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
				if (p->buf)
					p->buf[len] = '\0';
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
		if (!line_room(p, len, take, why, whylen))
			return -1;
		memcpy(p->buf + len, start, take);
		len += take;
		r->in_pos += take;
		p->buf[len] = '\0';
		if (nl)
			return (ssize_t)len;
	}
}

/*
 * The next line that is not blank into p->buf, and its number: its length, 0 at
 * the end, -1 (why set) at one that is not a line of a recording. Under file_lock.
 */
static ssize_t take_line(struct replay *r, struct parser *p, unsigned long *line, char *why, size_t whylen)
{
	char reason[256];
	ssize_t n;

	for (;;) {
		n = read_line(r, p, reason, sizeof(reason));
		if (n < 0) {
			snprintf(why, whylen, "%s:%lu: %s", r->path, r->line + 1, reason);
			return -1;
		}
		if (n == 0)
			return 0;
		r->line++;
		*line = r->line;
		if (strspn(p->buf, " \t\r\n") != (size_t)n)
			return n; /* not a blank line */
	}
}

/*
 * A UVM command a recorder put on "nvidiaN" (one that named NVIDIA devices without a sysfs node by their
 * minor alone): on nvidia-uvm, the only NVIDIA device with commands of no ioctl type. -1 out of memory.
 */
static int uvm_device(struct cell *row, int dev, uint64_t cmd)
{
	if (dev < 0 || !row[dev].known || !ioctl_is_uvm((uint32_t)cmd) || strncmp(row[dev].s, "nvidia", 6) ||
	    !isdigit((unsigned char)row[dev].s[6]))
		return 0;
	free(row[dev].s);
	cell_set_str(row, (unsigned int)dev, "nvidia-uvm");
	return row[dev].known ? 0 : -1;
}

/*
 * NVIDIA ioctls a recorder could not name ("nvidia 0x2a": made before their names were
 * known) by the names this build knows; a name the recorder gave is kept. -1 out of memory.
 */
static int name_nvidia_ioctls(struct table *t)
{
	int drv = table_col(t->desc, "driver"), cmd = table_col(t->desc, "cmd"), name = table_col(t->desc, "command");
	int dev = table_col(t->desc, "device");
	char numbered[32], named[64];

	for (size_t r = 0; drv >= 0 && cmd >= 0 && name >= 0 && r < t->nrows; r++) {
		struct cell *row = table_row(t, r);

		if (!row[drv].known || strcmp(row[drv].s, "nvidia") || !row[cmd].known || !row[name].known)
			continue;
		if (uvm_device(row, dev, row[cmd].u))
			return -1;
		snprintf(numbered, sizeof(numbered), "nvidia 0x%02x", (unsigned int)(row[cmd].u & 0xff));
		ioctl_command_name(IOCTL_DEVICE_NVIDIA, "nvidia", (uint32_t)row[cmd].u, named, sizeof(named));
		if (strcmp(row[name].s, numbered) || !strcmp(named, numbered))
			continue;
		free(row[name].s);
		cell_set_str(row, (unsigned int)name, named);
		if (!row[name].known)
			return -1;
	}
	return 0;
}

/* name_nvidia_ioctls on s's calls.ioctls; -1 out of memory. */
static int name_ioctls(struct snapshot *s)
{
	for (size_t i = 0; i < s->ntables; i++)
		if (!strcmp(s->tables[i]->desc->name, "calls.ioctls") && name_nvidia_ioctls(s->tables[i]))
			return -1;
	return 0;
}

/* The snapshot of line (n bytes in p->buf); NULL with why set at a bad line. */
static struct snapshot *parse_line(struct replay *r, struct parser *p, ssize_t n, unsigned long line, char *why,
				   size_t whylen)
{
	char reason[256];
	struct snapshot *s = snapshot_from_json_hinted(p->buf, &p->hints, reason, sizeof(reason));

	if (!s) {
		snprintf(why, whylen, "%s:%lu: %s%s", r->path, line, reason,
			 p->buf[n - 1] != '\n' ? " (truncated last line)" : "");
		return NULL;
	}
	snapshot_drop_recorder(s); /* before the tables derived from its rows */
	if (name_ioctls(s) || snapshot_derive(s)) {
		snprintf(why, whylen, "%s:%lu: out of memory", r->path, line);
		snapshot_free(s);
		return NULL;
	}
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

/*
 * A parser: takes the next line (its ticket), parses it while the other parser
 * parses its own, then waits for its turn (every earlier ticket handed on) and
 * for the slot (the front end took the one before), and hands it on: a bad
 * line or the end ends the replay there, and what later tickets read is dropped.
 */
static void *parser_main(void *arg)
{
	struct parser *p = arg;
	struct replay *r = p->r;

	pthread_mutex_lock(&r->lock);
	while (!r->stop && !r->eof) {
		struct snapshot *s = NULL;
		unsigned long line = 0;
		uint64_t ticket;
		char why[640] = "";
		ssize_t n;

		free_garbage(r);
		pthread_mutex_unlock(&r->lock);
		pthread_mutex_lock(&r->file_lock);
		ticket = r->tickets++;
		n = take_line(r, p, &line, why, sizeof(why));
		pthread_mutex_unlock(&r->file_lock);
		if (n > 0)
			s = parse_line(r, p, n, line, why, sizeof(why));
		pthread_mutex_lock(&r->lock);
		while (!r->stop && !r->eof && (r->handed != ticket || r->next)) {
			if (r->ngarbage)
				free_garbage(r);
			else
				pthread_cond_wait(&r->cond, &r->lock);
		}
		if (r->stop || r->eof) { /* an earlier line ended it, or the replay is closing */
			pthread_mutex_unlock(&r->lock);
			snapshot_free(s);
			pthread_mutex_lock(&r->lock);
			break;
		}
		if (s) {
			s->seq = ++r->seq;
			/* a row named here: the processes' table derived again with its name (out of memory: "?") */
			if (process_names_carry(&r->names, s) > 0)
				gpu_processes_derive(s);
			r->next = s;
		} else if (!why[0] && !r->seq) { /* the end, before any snapshot: nothing to play is no replay */
			snprintf(r->error, sizeof(r->error), "%s: the recording is empty (no snapshot in it)", r->path);
			r->eof = true;
		} else {
			snprintf(r->error, sizeof(r->error), "%s", why);
			r->eof = true;
		}
		r->handed++;
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
		struct timespec ts = timespec_from_ns(wake - now);

		nanosleep(&ts, NULL);
		if (mono_ns() < r->due_ns)
			return NULL;
	}
	until = timespec_from_ns(deadline);
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

static uint64_t replay_total(void *impl)
{
	return ((struct replay *)impl)->total;
}

/* The lines of a regular file that are not blank (the snapshots take_line hands on); 0 for a pipe. */
static uint64_t count_snapshots(FILE *f, const char *path)
{
	struct stat st;
	uint64_t n = 0;
	bool text = false;
	char buf[65536];
	size_t got;
	FILE *c;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || !(c = fopen(path, "re")))
		return 0;
	while ((got = fread(buf, 1, sizeof(buf), c)) > 0) {
		for (size_t i = 0; i < got;) {
			const char *nl;

			while (!text && i < got && buf[i] != '\n') /* blank so far: look for its text */
				text = !strchr(" \t\r", buf[i++]);
			nl = memchr(buf + i, '\n', got - i); /* the rest of the line: its end alone */
			if (!nl)
				break;
			n += text;
			text = false;
			i = (size_t)(nl - buf) + 1;
		}
	}
	fclose(c);
	return n + text;
}

static const struct feed_ops replay_ops = {
	.take = replay_take,
	.release = replay_release,
	.set_delay = replay_set_delay,
	.step = replay_step,
	.error = replay_error,
	.finished = replay_finished,
	.total = replay_total,
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
	r->total = count_snapshots(r->f, path);
	r->delay_s = delay_s;
	/*
	 * A large recording parses into many small blocks freed a moment later:
	 * keep the heap's pages rather than give them back and fault them in again
	 * for every snapshot (a 24 MB line: 1 s to parse the first time, 0.2 s after).
	 */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->file_lock, NULL);
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
	}
	for (unsigned int i = 0; i < REPLAY_PARSERS; i++) {
		if (r->parsers[i].started)
			pthread_join(r->parsers[i].thread, NULL); /* a line being parsed is finished first */
		free(r->parsers[i].buf);
	}
	put(r->cur);
	put(r->next);
	while (r->ngarbage)
		snapshot_free(r->garbage[--r->ngarbage]);
	free(r->garbage);
	process_names_free(&r->names);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->file_lock);
	fclose(r->f);
	free(r);
}

void replay_feed(struct replay *r, struct feed *feed)
{
	feed->ops = &replay_ops;
	feed->impl = r;
	feed->replay = true;
	feed->name = r->path;
	if (r->reader_started || r->eof)
		return;
	/* the filter is set: read ahead from now on */
	for (unsigned int i = 0; i < REPLAY_PARSERS; i++) {
		struct parser *p = &r->parsers[i];

		p->r = r;
		p->started = !pthread_create(&p->thread, NULL, parser_main, p);
		r->reader_started |= p->started; /* one is enough */
	}
	if (!r->reader_started) {
		snprintf(r->error, sizeof(r->error), "%s: cannot start the reader thread", r->path);
		r->eof = true;
	}
}
