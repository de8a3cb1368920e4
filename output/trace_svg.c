// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A Perfetto trace read into rows of pixels (trace_svg_model.h), in two passes: tracks and time, then events. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/utf8_clean.h"
#include "output/pb_read.h"
#include "output/trace_svg_model.h"

/* Field numbers (tests/perfetto/trace.proto). */
enum {
	F_TRACE_PACKET = 1,
	F_PKT_TIMESTAMP = 8,
	F_PKT_TRACK_EVENT = 11,
	F_PKT_INTERNED = 12,
	F_PKT_SEQ_FLAGS = 13,
	F_PKT_TRACK_DESCRIPTOR = 60,
	F_INTERNED_EVENT_NAMES = 2,
	F_NAME_IID = 1,
	F_NAME_NAME = 2,
	F_TD_UUID = 1,
	F_TD_NAME = 2,
	F_TD_PROCESS = 3,
	F_TD_THREAD = 4,
	F_TD_PARENT = 5,
	F_TD_COUNTER = 8,
	F_PROC_PID = 1,
	F_PROC_NAME = 6,
	F_THREAD_PID = 1,
	F_THREAD_TID = 2,
	F_THREAD_NAME = 5,
	F_TE_TYPE = 9,
	F_TE_NAME_IID = 10,
	F_TE_TRACK = 11,
	F_TE_NAME = 23,
	F_TE_COUNTER = 30,
	F_TE_DOUBLE_COUNTER = 44,
};

enum { TE_BEGIN = 1, TE_END = 2, TE_INSTANT = 3, TE_COUNTER = 4 };
#define SEQ_INCREMENTAL_STATE_CLEARED 1

struct packet {
	uint64_t ts;
	bool has_ts;
	struct pb_field event, descriptor, interned;
	bool has_event, has_descriptor, has_interned;
	uint64_t seq_flags;
};

static void copy_name(char *dst, const struct pb_field *f)
{
	utf8_clean((const char *)f->data, f->len, dst, TSVG_NAME_MAX, NULL);
}

static bool read_packet(const struct pb_field *pf, struct packet *p)
{
	struct pb_reader r;
	struct pb_field f;

	memset(p, 0, sizeof(*p));
	pb_reader_init(&r, pf->data, pf->len);
	while (pb_next(&r, &f)) {
		if (f.number == F_PKT_TIMESTAMP && f.wire == 0) {
			p->ts = f.v;
			p->has_ts = true;
		} else if (f.number == F_PKT_TRACK_EVENT && f.wire == 2) {
			p->event = f;
			p->has_event = true;
		} else if (f.number == F_PKT_TRACK_DESCRIPTOR && f.wire == 2) {
			p->descriptor = f;
			p->has_descriptor = true;
		} else if (f.number == F_PKT_INTERNED && f.wire == 2) {
			p->interned = f;
			p->has_interned = true;
		} else if (f.number == F_PKT_SEQ_FLAGS && f.wire == 0) {
			p->seq_flags = f.v;
		}
	}
	return !r.bad;
}

/* A process's or thread's descriptor into the track. */
static void read_owner(struct tsvg_track *k, const struct pb_field *pf, bool thread)
{
	struct pb_reader r;
	struct pb_field f;

	k->kind = thread ? TSVG_THREAD : TSVG_PROCESS;
	pb_reader_init(&r, pf->data, pf->len);
	while (pb_next(&r, &f)) {
		if (f.wire == 0 && f.number == (thread ? F_THREAD_PID : F_PROC_PID))
			k->pid = (int32_t)f.v;
		else if (thread && f.wire == 0 && f.number == F_THREAD_TID)
			k->tid = (int32_t)f.v;
		else if (f.wire == 2 && f.number == (thread ? F_THREAD_NAME : F_PROC_NAME) && f.len)
			copy_name(k->name, &f);
	}
}

static int add_track(struct tsvg *t, const struct pb_field *pf)
{
	struct tsvg_track *k;
	struct pb_reader r;
	struct pb_field f;

	if (t->n >= TRACE_SVG_TRACKS_MAX) {
		t->tracks_dropped++;
		return 0;
	}
	k = array_push(&t->tracks, &t->n, &t->cap, sizeof(*t->tracks));
	if (!k)
		return -ENOMEM;
	pb_reader_init(&r, pf->data, pf->len);
	while (pb_next(&r, &f)) {
		if (f.number == F_TD_UUID && f.wire == 0)
			k->uuid = f.v;
		else if (f.number == F_TD_PARENT && f.wire == 0)
			k->parent = f.v;
		else if (f.number == F_TD_NAME && f.wire == 2 && !k->name[0])
			copy_name(k->name, &f);
		else if ((f.number == F_TD_PROCESS || f.number == F_TD_THREAD) && f.wire == 2)
			read_owner(k, &f, f.number == F_TD_THREAD);
		else if (f.number == F_TD_COUNTER && f.wire == 2)
			k->kind = TSVG_COUNTER;
	}
	if (!k->uuid) /* no track to put events on */
		t->n--;
	return 0;
}

static int by_uuid_cmp(const void *a, const void *b, void *arg)
{
	const struct tsvg_track *tr = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (tr[i].uuid != tr[j].uuid)
		return tr[i].uuid < tr[j].uuid ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The index by uuid (a uuid described twice: the first stands), then each track under its parent. */
static int build_tree(struct tsvg *t)
{
	size_t kept = 0;

	t->by_uuid = malloc((t->n ? t->n : 1) * sizeof(*t->by_uuid));
	if (!t->by_uuid)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++)
		t->by_uuid[i] = i;
	qsort_r(t->by_uuid, t->n, sizeof(*t->by_uuid), by_uuid_cmp, t->tracks);
	for (size_t i = 0; i < t->n; i++)
		if (!kept || t->tracks[t->by_uuid[i]].uuid != t->tracks[t->by_uuid[kept - 1]].uuid)
			t->by_uuid[kept++] = t->by_uuid[i];
	t->n_indexed = kept;
	for (size_t i = t->n; i-- > 0;) { /* backwards: children in the order they were described */
		struct tsvg_track *k = &t->tracks[i], *parent;

		if (tsvg_track(t, k->uuid) != k) /* a second description */
			continue;
		parent = k->parent && k->parent != k->uuid ? tsvg_track(t, k->parent) : NULL;
		if (!parent)
			continue;
		k->has_parent = true;
		k->next_sibling = parent->first_child;
		parent->first_child = i + 1;
	}
	return 0;
}

struct tsvg_track *tsvg_track(const struct tsvg *t, uint64_t uuid)
{
	size_t lo = 0, hi = t->n_indexed;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct tsvg_track *k = &t->tracks[t->by_uuid[mid]];

		if (k->uuid == uuid)
			return k;
		if (k->uuid < uuid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *tsvg_name(const struct tsvg *t, uint32_t index)
{
	if (index == TSVG_MIXED)
		return "several";
	return index < t->nnames ? t->names[index] : "?";
}

/* An interned EventName: its iid to our copy of the name. */
static int intern(struct tsvg *t, const struct pb_field *pf)
{
	struct pb_reader r;
	struct pb_field f;
	uint64_t iid = 0;
	char name[TSVG_NAME_MAX] = "";
	char **slot;

	pb_reader_init(&r, pf->data, pf->len);
	while (pb_next(&r, &f)) {
		if (f.number == F_NAME_IID && f.wire == 0)
			iid = f.v;
		else if (f.number == F_NAME_NAME && f.wire == 2)
			copy_name(name, &f);
	}
	if (!iid || iid >= TRACE_SVG_IIDS_MAX)
		return 0;
	t->iid[iid] = 0;
	if (t->nnames >= TSVG_NAMES_MAX) {
		t->names_dropped++;
		return 0;
	}
	slot = array_push(&t->names, &t->nnames, &t->capnames, sizeof(*t->names));
	if (!slot || !(*slot = strdup(name)))
		return -ENOMEM;
	t->iid[iid] = (uint32_t)t->nnames; /* index + 1 */
	return 0;
}

static int read_interned(struct tsvg *t, const struct pb_field *pf)
{
	struct pb_reader r;
	struct pb_field f;
	int err = 0;

	pb_reader_init(&r, pf->data, pf->len);
	while (!err && pb_next(&r, &f))
		if (f.number == F_INTERNED_EVENT_NAMES && f.wire == 2)
			err = intern(t, &f);
	return err;
}

static double column(const struct tsvg *t, uint64_t ts)
{
	double span = t->t1 > t->t0 ? (double)(t->t1 - t->t0) : 1.0;

	if (ts <= t->t0)
		return 0;
	if (ts >= t->t1)
		return TSVG_COLS;
	return (double)(ts - t->t0) * TSVG_COLS / span;
}

/* A slice from begin to end on row d: merged into the row's last box where they share pixels. */
static int add_run(struct tsvg *t, struct tsvg_track *k, unsigned int d, const struct tsvg_open *o,
		   uint64_t end, bool open)
{
	double x0 = column(t, o->ts), x1 = end > o->ts ? column(t, end) : x0;
	size_t n = k->nruns[d];
	struct tsvg_run *last = n ? &k->runs[d][n - 1] : NULL, *r;

	t->slices++;
	k->events++;

	if (last && (n >= TSVG_RUNS_MAX ||
		     (x0 <= last->x1 + 0.5 && (x1 - x0 < 1.5 || last->x1 - last->x0 < 1.5 || last->name == o->name)))) {
		last->x0 = x0 < last->x0 ? x0 : last->x0;
		last->x1 = x1 > last->x1 ? x1 : last->x1;
		last->ns += end > o->ts ? end - o->ts : 0;
		last->n++;
		last->open |= open;
		if (last->name != o->name)
			last->name = TSVG_MIXED;
		return 0;
	}
	r = array_push(&k->runs[d], &k->nruns[d], &k->capruns[d], sizeof(*r));
	if (!r)
		return -ENOMEM;
	*r = (struct tsvg_run){ x0, x1, end > o->ts ? end - o->ts : 0, o->name, 1, open };
	return 0;
}

static int slice(struct tsvg *t, struct tsvg_track *k, uint64_t ts, int type, uint32_t name)
{
	unsigned int d;

	if (type == TE_BEGIN) {
		if (k->depth < TSVG_STACK)
			k->stack[k->depth] = (struct tsvg_open){ ts, name };
		k->depth++;
		return 0;
	}
	if (!k->depth)
		return 0; /* an end of nothing */
	d = --k->depth;
	if (d >= TSVG_STACK || ts < t->t0 || k->stack[d].ts > t->t1) /* out of the window */
		return 0;
	return add_run(t, k, d < TRACE_SVG_DEPTH ? d : TRACE_SVG_DEPTH - 1, &k->stack[d], ts, false);
}

static int instant(struct tsvg *t, struct tsvg_track *k, uint64_t ts, uint32_t name)
{
	int c = (int)column(t, ts);

	if (!k->ticks) {
		k->ticks = calloc(TSVG_COLS, sizeof(*k->ticks));
		k->tick_name = calloc(TSVG_COLS, sizeof(*k->tick_name));
		if (!k->ticks || !k->tick_name)
			return -ENOMEM;
	}
	c = c < TSVG_COLS ? c : TSVG_COLS - 1;
	t->instants++;
	k->events++;
	if (k->ticks[c]++ && k->tick_name[c] != name)
		k->tick_name[c] = TSVG_MIXED;
	else if (k->ticks[c] == 1)
		k->tick_name[c] = name;
	return 0;
}

static int counter(struct tsvg *t, struct tsvg_track *k, uint64_t ts, double v)
{
	int c = (int)column(t, ts);

	if (v != v) /* NaN: not drawn */
		return 0;
	if (!k->chas) {
		k->cmin = calloc(TSVG_COLS, sizeof(*k->cmin));
		k->cmax = calloc(TSVG_COLS, sizeof(*k->cmax));
		k->clast = calloc(TSVG_COLS, sizeof(*k->clast));
		k->chas = calloc(TSVG_COLS, 1);
		if (!k->cmin || !k->cmax || !k->clast || !k->chas)
			return -ENOMEM;
		k->vmin = k->vmax = v;
	}
	c = c < TSVG_COLS ? c : TSVG_COLS - 1;
	t->samples++;
	k->events++;
	if (!k->chas[c]) {
		k->cmin[c] = k->cmax[c] = v;
		k->chas[c] = 1;
	}
	k->cmin[c] = v < k->cmin[c] ? v : k->cmin[c];
	k->cmax[c] = v > k->cmax[c] ? v : k->cmax[c];
	k->clast[c] = v;
	k->vmin = v < k->vmin ? v : k->vmin;
	k->vmax = v > k->vmax ? v : k->vmax;
	return 0;
}

struct event {
	int type;
	uint64_t track;
	uint32_t name; /* index into names, TSVG_MIXED - 1: unknown */
	double value;
};

/* An event's name given in place (not interned): kept as interned ones are, within the same bound. */
static uint32_t inline_name(struct tsvg *t, const struct pb_field *f)
{
	char name[TSVG_NAME_MAX], **slot;

	if (t->nnames >= TSVG_NAMES_MAX) {
		t->names_dropped++;
		return TSVG_MIXED - 1;
	}
	copy_name(name, f);
	if (t->nnames && !strcmp(t->names[t->nnames - 1], name))
		return (uint32_t)t->nnames - 1; /* the same as the last: one copy */
	slot = array_push(&t->names, &t->nnames, &t->capnames, sizeof(*t->names));
	if (!slot || !(*slot = strdup(name)))
		return TSVG_MIXED - 1;
	return (uint32_t)t->nnames - 1;
}

static bool read_event(struct tsvg *t, const struct pb_field *pf, struct event *e)
{
	struct pb_reader r;
	struct pb_field f;

	*e = (struct event){ .name = TSVG_MIXED - 1 };
	pb_reader_init(&r, pf->data, pf->len);
	while (pb_next(&r, &f)) {
		if (f.number == F_TE_TYPE && f.wire == 0)
			e->type = (int)(f.v & 0xff);
		else if (f.number == F_TE_TRACK && f.wire == 0)
			e->track = f.v;
		else if (f.number == F_TE_NAME_IID && f.wire == 0 && f.v < TRACE_SVG_IIDS_MAX && t->iid[f.v])
			e->name = t->iid[f.v] - 1;
		else if (f.number == F_TE_NAME && f.wire == 2)
			e->name = inline_name(t, &f);
		else if (f.number == F_TE_COUNTER && f.wire == 0)
			e->value = (double)(int64_t)f.v;
		else if (f.number == F_TE_DOUBLE_COUNTER && f.wire == 1)
			e->value = pb_field_double(&f);
	}
	return !r.bad && e->type >= TE_BEGIN && e->type <= TE_COUNTER;
}

static int on_event(struct tsvg *t, const struct packet *p)
{
	struct tsvg_track *k;
	struct event e;

	if (!read_event(t, &p->event, &e) || !p->has_ts)
		return 0;
	k = tsvg_track(t, e.track);
	if (!k) {
		t->no_track++;
		return 0;
	}
	if (e.type == TE_COUNTER && p->ts < t->t0 && e.value == e.value) { /* the value the window starts with */
		k->carry = e.value;
		k->has_carry = true;
		return 0;
	}
	if ((e.type == TE_INSTANT || e.type == TE_COUNTER) && (p->ts < t->t0 || p->ts > t->t1))
		return 0; /* out of the window */
	switch (e.type) {
	case TE_BEGIN:
	case TE_END:
		return slice(t, k, p->ts, e.type, e.name);
	case TE_INSTANT:
		return instant(t, k, p->ts, e.name);
	default:
		return counter(t, k, p->ts, e.value);
	}
}

/* The first pass: tracks and the time the events span; the second: the events. */
static int one_pass(struct tsvg *t, const void *trace, size_t len, bool events)
{
	struct pb_reader r;
	struct pb_field f;
	struct packet p;
	int err = 0;

	pb_reader_init(&r, trace, len);
	while (!err && pb_next(&r, &f)) {
		if (f.number != F_TRACE_PACKET || f.wire != 2 || !read_packet(&f, &p))
			continue;
		if (!events) {
			t->packets++;
			if (p.has_descriptor)
				err = add_track(t, &p.descriptor);
			if (p.has_event && p.has_ts) {
				t->t0 = !t->have_time || p.ts < t->t0 ? p.ts : t->t0;
				t->t1 = !t->have_time || p.ts > t->t1 ? p.ts : t->t1;
				t->have_time = true;
			}
			continue;
		}
		if (p.seq_flags & SEQ_INCREMENTAL_STATE_CLEARED)
			memset(t->iid, 0, TRACE_SVG_IIDS_MAX * sizeof(*t->iid));
		if (p.has_interned)
			err = read_interned(t, &p.interned);
		if (!err && p.has_event)
			err = on_event(t, &p);
	}
	t->cut = r.bad;
	return err;
}

/* Counters that had a value before the window: it holds from the window's start to its first sample there. */
static int carry_counters(struct tsvg *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct tsvg_track *k = &t->tracks[i];
		int err;

		if (!k->has_carry)
			continue;
		if (k->chas && k->chas[0]) { /* a sample in the first pixel too: the carry only widens its range */
			k->cmin[0] = k->carry < k->cmin[0] ? k->carry : k->cmin[0];
			k->cmax[0] = k->carry > k->cmax[0] ? k->carry : k->cmax[0];
			k->vmin = k->carry < k->vmin ? k->carry : k->vmin;
			k->vmax = k->carry > k->vmax ? k->carry : k->vmax;
			continue;
		}
		err = counter(t, k, t->t0, k->carry);
		if (err)
			return err;
		t->samples--; /* not a sample of the window */
	}
	return 0;
}

/* Slices the trace never ended: drawn to its end, marked. */
static int end_open_slices(struct tsvg *t)
{
	int err = 0;

	for (size_t i = 0; !err && i < t->n; i++) {
		struct tsvg_track *k = &t->tracks[i];

		for (unsigned int d = k->depth < TSVG_STACK ? k->depth : TSVG_STACK; !err && d-- > 0;) {
			if (k->stack[d].ts > t->t1)
				continue; /* after the window */
			t->unended++;
			err = add_run(t, k, d < TRACE_SVG_DEPTH ? d : TRACE_SVG_DEPTH - 1, &k->stack[d], t->t1, true);
		}
	}
	return err;
}

static void tsvg_free(struct tsvg *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct tsvg_track *k = &t->tracks[i];

		for (unsigned int d = 0; d < TRACE_SVG_DEPTH; d++)
			free(k->runs[d]);
		free(k->ticks);
		free(k->tick_name);
		free(k->cmin);
		free(k->cmax);
		free(k->clast);
		free(k->chas);
	}
	for (size_t i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
	free(t->tracks);
	free(t->by_uuid);
	free(t->iid);
}

int trace_svg_write_window(const void *trace, size_t len, FILE *out, const char *title, uint64_t from_ns,
			   uint64_t to_ns)
{
	struct tsvg t = { 0 };
	int err;

	t.iid = calloc(TRACE_SVG_IIDS_MAX, sizeof(*t.iid));
	if (!t.iid)
		return -ENOMEM;
	err = one_pass(&t, trace, len, false);
	if (!err && (from_ns || to_ns < t.t1 - t.t0)) { /* the window within the events' time */
		t.from_ns = from_ns < t.t1 - t.t0 ? from_ns : t.t1 - t.t0;
		t.t1 = to_ns < t.t1 - t.t0 ? t.t0 + to_ns : t.t1;
		t.t0 += t.from_ns;
		t.t1 = t.t1 > t.t0 ? t.t1 : t.t0;
	}
	if (!err)
		err = build_tree(&t);
	if (!err)
		err = one_pass(&t, trace, len, true);
	if (!err)
		err = carry_counters(&t);
	if (!err)
		err = end_open_slices(&t);
	if (!err && !t.packets)
		err = -EINVAL;
	if (!err)
		err = tsvg_draw(&t, out, title);
	tsvg_free(&t);
	return err;
}

int trace_svg_write(const void *trace, size_t len, FILE *out, const char *title)
{
	return trace_svg_write_window(trace, len, out, title, 0, UINT64_MAX);
}
