// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Perfetto trace writer (perfetto.h). Field numbers are those of
 * Perfetto's published protos (perfetto.protos, proto2); the subset used is
 * tests/perfetto/trace.proto, which protoc decodes our files against.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/utf8_clean.h"
#include "output/perfetto.h"
#include "output/perfetto_packet.h"

enum {
	TRACE_PACKET = 1, /* Trace.packet */

	PACKET_TIMESTAMP = 8,
	PACKET_SEQUENCE_ID = 10, /* trusted_packet_sequence_id */
	PACKET_TRACK_EVENT = 11,
	PACKET_SEQUENCE_FLAGS = 13,
	PACKET_TRACK_DESCRIPTOR = 60,

	SEQ_INCREMENTAL_STATE_CLEARED = 1,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,

	INTERNED_EVENT_NAMES = 2,
	INTERNED_DEBUG_ANNOTATION_NAMES = 3,
	INTERNED_IID = 1, /* EventName and DebugAnnotationName */
	INTERNED_NAME = 2,

	TRACK_UUID = 1,
	TRACK_NAME = 2,
	TRACK_PROCESS = 3,
	TRACK_THREAD = 4,
	TRACK_PARENT_UUID = 5,
	TRACK_COUNTER = 8,
	PROCESS_PID = 1,
	PROCESS_NAME = 6,
	THREAD_PID = 1,
	THREAD_TID = 2,
	THREAD_NAME = 5,
	COUNTER_UNIT = 3,

	EVENT_DEBUG_ANNOTATIONS = 4,
	EVENT_TYPE = 9,
	EVENT_NAME_IID = 10,
	EVENT_TRACK_UUID = 11,
	EVENT_NAME = 23,
	EVENT_COUNTER_VALUE = 30,
	EVENT_DOUBLE_COUNTER_VALUE = 44,
	EVENT_FLOW_IDS = 47,
	EVENT_TERMINATING_FLOW_IDS = 48,
	EVENT_CALLSTACK_IID = 56,

	ANNOTATION_NAME_IID = 1,
	ANNOTATION_UINT = 3,
	ANNOTATION_INT = 4,
	ANNOTATION_STRING = 6,
	ANNOTATION_NAME = 10,
};

/* A name to write: cleaned, and its iid (0: written inline); new: not interned yet. */
struct name_ref {
	char text[PERFETTO_STR_MAX];
	size_t len;
	uint64_t iid;
	bool is_new;
};

/* The names of one event packet: the event's and its annotations'. */
struct event_names {
	struct name_ref event;
	struct name_ref args[PERFETTO_ARGS_MAX];
	size_t n_args;
};

size_t perfetto_clean(const char *s, char *out)
{
	return utf8_clean(s, s ? strnlen(s, PERFETTO_STR_MAX - 1) : 0, out, PERFETTO_STR_MAX, NULL);
}

static void put_string(struct pb_buf *b, uint32_t field, const char *s)
{
	char text[PERFETTO_STR_MAX];
	size_t n = perfetto_clean(s, text);

	pb_bytes(b, field, text, n);
}

static void interns_free(struct perfetto_writer *w)
{
	perfetto_intern_free(&w->event_names);
	perfetto_intern_free(&w->arg_names);
	perfetto_intern_free(&w->function_names);
	perfetto_intern_free(&w->frames);
}

int perfetto_writer_init(struct perfetto_writer *w, FILE *out, uint64_t limit_bytes)
{
	void *mem;

	memset(w, 0, sizeof(*w));
	if (!out || limit_bytes < PERFETTO_LIMIT_MIN)
		return -EINVAL;
	mem = malloc(PERFETTO_PACKET_MAX);
	if (!mem)
		return -ENOMEM;
	if (perfetto_intern_init(&w->event_names) || perfetto_intern_init(&w->arg_names) ||
	    perfetto_intern_init(&w->function_names) || perfetto_intern_init(&w->frames)) {
		interns_free(w);
		free(mem);
		return -ENOMEM;
	}
	pb_init(&w->pkt, mem, PERFETTO_PACKET_MAX);
	w->out = out;
	w->limit_bytes = limit_bytes;
	return 0;
}

void perfetto_packet_begin(struct perfetto_writer *w, uint64_t ts_ns, bool uses_state)
{
	uint32_t flags = uses_state ? SEQ_NEEDS_INCREMENTAL_STATE : 0;

	if (!w->state_cleared)
		flags |= SEQ_INCREMENTAL_STATE_CLEARED;
	pb_reset(&w->pkt);
	pb_begin(&w->pkt, TRACE_PACKET);
	if (ts_ns)
		pb_uint(&w->pkt, PACKET_TIMESTAMP, ts_ns);
	pb_uint(&w->pkt, PACKET_SEQUENCE_ID, PERFETTO_SEQUENCE_ID);
	if (flags)
		pb_uint(&w->pkt, PACKET_SEQUENCE_FLAGS, flags);
}

int perfetto_packet_commit(struct perfetto_writer *w, uint64_t room)
{
	struct pb_buf *b = &w->pkt;

	pb_end(b);
	if (w->io_error)
		return -EIO;
	if (!pb_ok(b)) {
		w->dropped++;
		return -ENOSPC;
	}
	if (w->bytes + b->len > w->limit_bytes - room) {
		w->over_limit++;
		return -ENOSPC;
	}
	if (fwrite(b->p, 1, b->len, w->out) != b->len) {
		w->io_error = true;
		return -EIO;
	}
	w->bytes += b->len;
	w->packets++;
	w->state_cleared = true;
	return 0;
}

static void track_body(struct pb_buf *b, const struct perfetto_track *t)
{
	pb_uint(b, TRACK_UUID, t->uuid);
	if (t->parent_uuid)
		pb_uint(b, TRACK_PARENT_UUID, t->parent_uuid);
	if (t->name && t->kind != PERFETTO_TRACK_PROCESS && t->kind != PERFETTO_TRACK_THREAD)
		put_string(b, TRACK_NAME, t->name);
	switch (t->kind) {
	case PERFETTO_TRACK_PROCESS:
		pb_begin(b, TRACK_PROCESS);
		pb_int(b, PROCESS_PID, t->pid);
		if (t->name)
			put_string(b, PROCESS_NAME, t->name);
		pb_end(b);
		break;
	case PERFETTO_TRACK_THREAD:
		pb_begin(b, TRACK_THREAD);
		pb_int(b, THREAD_PID, t->pid);
		pb_int(b, THREAD_TID, t->tid);
		if (t->name)
			put_string(b, THREAD_NAME, t->name);
		pb_end(b);
		break;
	case PERFETTO_TRACK_COUNTER:
		pb_begin(b, TRACK_COUNTER);
		if (t->unit)
			pb_uint(b, COUNTER_UNIT, t->unit);
		pb_end(b);
		break;
	case PERFETTO_TRACK_PLAIN:
		break;
	}
}

static int track_write(struct perfetto_writer *w, const struct perfetto_track *t, uint64_t room)
{
	if (!t->uuid || t->uuid == t->parent_uuid) {
		w->dropped++;
		return -EINVAL;
	}
	perfetto_packet_begin(w, 0, false);
	pb_begin(&w->pkt, PACKET_TRACK_DESCRIPTOR);
	track_body(&w->pkt, t);
	pb_end(&w->pkt);
	return perfetto_packet_commit(w, room);
}

int perfetto_track(struct perfetto_writer *w, const struct perfetto_track *t)
{
	return track_write(w, t, PERFETTO_NOTE_RESERVE);
}

/* The iid of a name: kept, new in this packet (ahead of it: *pending), or none (inline). */
static void name_resolve(struct perfetto_intern *t, struct name_ref *r, const char *s,
			 size_t *pending)
{
	r->len = perfetto_clean(s, r->text);
	r->iid = perfetto_intern_find(t, r->text);
	r->is_new = false;
	if (r->iid)
		return;
	r->iid = perfetto_intern_next(t, *pending);
	if (r->iid) {
		r->is_new = true;
		(*pending)++;
	}
}

/* The event's and its annotations' names; two annotations of one name share an iid. */
static void names_resolve(struct perfetto_writer *w, const struct perfetto_event *e,
			  struct event_names *n)
{
	size_t ev_pending = 0, arg_pending = 0;

	n->event.len = 0;
	n->event.iid = 0;
	n->event.is_new = false;
	if (e->name)
		name_resolve(&w->event_names, &n->event, e->name, &ev_pending);
	n->n_args = e->n_args;
	for (size_t i = 0; i < e->n_args; i++) {
		struct name_ref *r = &n->args[i];

		name_resolve(&w->arg_names, r, e->args[i].name, &arg_pending);
		for (size_t j = 0; r->is_new && j < i; j++) {
			if (n->args[j].is_new && !strcmp(n->args[j].text, r->text)) {
				r->iid = n->args[j].iid;
				r->is_new = false;
				arg_pending--;
			}
		}
	}
}

static void interned_entry(struct pb_buf *b, uint32_t field, const struct name_ref *r)
{
	pb_begin(b, field);
	pb_uint(b, INTERNED_IID, r->iid);
	pb_bytes(b, INTERNED_NAME, r->text, r->len);
	pb_end(b);
}

/* The packet's interned_data: the names it uses first. */
static void interned_data(struct pb_buf *b, const struct event_names *n)
{
	bool any = n->event.is_new;

	for (size_t i = 0; i < n->n_args; i++)
		any |= n->args[i].is_new;
	if (!any)
		return;
	pb_begin(b, PACKET_INTERNED_DATA);
	if (n->event.is_new)
		interned_entry(b, INTERNED_EVENT_NAMES, &n->event);
	for (size_t i = 0; i < n->n_args; i++)
		if (n->args[i].is_new)
			interned_entry(b, INTERNED_DEBUG_ANNOTATION_NAMES, &n->args[i]);
	pb_end(b);
}

/* After the packet is out: its new names are kept (in the order their iids were given). */
static void names_keep(struct perfetto_writer *w, const struct event_names *n)
{
	if (n->event.is_new)
		perfetto_intern_add(&w->event_names, n->event.text);
	for (size_t i = 0; i < n->n_args; i++)
		if (n->args[i].is_new)
			perfetto_intern_add(&w->arg_names, n->args[i].text);
}

static void annotation(struct pb_buf *b, const struct perfetto_arg *a, const struct name_ref *r)
{
	pb_begin(b, EVENT_DEBUG_ANNOTATIONS);
	if (r->iid)
		pb_uint(b, ANNOTATION_NAME_IID, r->iid);
	else
		pb_bytes(b, ANNOTATION_NAME, r->text, r->len);
	switch (a->type) {
	case PERFETTO_ARG_INT:
		pb_int(b, ANNOTATION_INT, a->i);
		break;
	case PERFETTO_ARG_UINT:
		pb_uint(b, ANNOTATION_UINT, a->u);
		break;
	case PERFETTO_ARG_STRING:
		put_string(b, ANNOTATION_STRING, a->s);
		break;
	}
	pb_end(b);
}

static void event_body(struct pb_buf *b, const struct perfetto_event *e,
		       const struct event_names *n)
{
	pb_begin(b, PACKET_TRACK_EVENT);
	pb_uint(b, EVENT_TYPE, e->type);
	pb_uint(b, EVENT_TRACK_UUID, e->track_uuid);
	if (n->event.iid)
		pb_uint(b, EVENT_NAME_IID, n->event.iid);
	else if (e->name)
		pb_bytes(b, EVENT_NAME, n->event.text, n->event.len);
	for (size_t i = 0; i < e->n_flow_ids; i++)
		pb_fixed64(b, EVENT_FLOW_IDS, e->flow_ids[i]);
	for (size_t i = 0; i < e->n_terminating_flow_ids; i++)
		pb_fixed64(b, EVENT_TERMINATING_FLOW_IDS, e->terminating_flow_ids[i]);
	for (size_t i = 0; i < e->n_args; i++)
		annotation(b, &e->args[i], &n->args[i]);
	if (e->callstack_iid)
		pb_uint(b, EVENT_CALLSTACK_IID, e->callstack_iid);
	pb_end(b);
}

static bool event_valid(const struct perfetto_writer *w, const struct perfetto_event *e)
{
	if (e->n_args > PERFETTO_ARGS_MAX || (e->n_args && !e->args))
		return false;
	if (e->callstack_iid > w->callstacks)
		return false;
	if ((e->n_flow_ids && !e->flow_ids) ||
	    (e->n_terminating_flow_ids && !e->terminating_flow_ids))
		return false;
	return e->type >= PERFETTO_SLICE_BEGIN && e->type <= PERFETTO_INSTANT;
}

static int event_write(struct perfetto_writer *w, const struct perfetto_event *e, uint64_t room)
{
	struct event_names n;
	int err;

	if (!event_valid(w, e)) {
		w->dropped++;
		return -EINVAL;
	}
	names_resolve(w, e, &n);
	perfetto_packet_begin(w, e->ts_ns, true);
	interned_data(&w->pkt, &n);
	event_body(&w->pkt, e, &n);
	err = perfetto_packet_commit(w, room);
	if (err)
		return err;
	names_keep(w, &n);
	if (e->ts_ns > w->last_ts_ns)
		w->last_ts_ns = e->ts_ns;
	return 0;
}

int perfetto_event(struct perfetto_writer *w, const struct perfetto_event *e)
{
	return event_write(w, e, PERFETTO_NOTE_RESERVE);
}

/* A TYPE_COUNTER event: an int64 or a double value. */
static int counter_write(struct perfetto_writer *w, uint64_t ts_ns, uint64_t track_uuid,
			 const int64_t *iv, const double *dv)
{
	int err;

	perfetto_packet_begin(w, ts_ns, false);
	pb_begin(&w->pkt, PACKET_TRACK_EVENT);
	pb_uint(&w->pkt, EVENT_TYPE, PERFETTO_COUNTER);
	pb_uint(&w->pkt, EVENT_TRACK_UUID, track_uuid);
	if (iv)
		pb_int(&w->pkt, EVENT_COUNTER_VALUE, *iv);
	else
		pb_double(&w->pkt, EVENT_DOUBLE_COUNTER_VALUE, *dv);
	pb_end(&w->pkt);
	err = perfetto_packet_commit(w, PERFETTO_NOTE_RESERVE);
	if (!err && ts_ns > w->last_ts_ns)
		w->last_ts_ns = ts_ns;
	return err;
}

int perfetto_counter(struct perfetto_writer *w, uint64_t ts_ns, uint64_t track_uuid, int64_t v)
{
	return counter_write(w, ts_ns, track_uuid, &v, NULL);
}

int perfetto_counter_double(struct perfetto_writer *w, uint64_t ts_ns, uint64_t track_uuid,
			    double v)
{
	return counter_write(w, ts_ns, track_uuid, NULL, &v);
}

void perfetto_count_dropped(struct perfetto_writer *w, uint64_t n)
{
	w->dropped += n;
}

void perfetto_count_lost(struct perfetto_writer *w, uint64_t n)
{
	w->lost += n;
}

uint64_t perfetto_unwritten(const struct perfetto_writer *w)
{
	return w->over_limit + w->lost + w->dropped;
}

void perfetto_count_stack_lost(struct perfetto_writer *w, uint64_t n)
{
	w->stacks_lost += n;
}

int perfetto_event_closing(struct perfetto_writer *w, const struct perfetto_event *e)
{
	return event_write(w, e, PERFETTO_NOTE_RESERVE / 2);
}

int perfetto_lane_track(struct perfetto_writer *w, uint64_t parent_uuid, int lane)
{
	char name[32];
	struct perfetto_track t = {
		.uuid = perfetto_lane_uuid(parent_uuid, lane),
		.parent_uuid = parent_uuid,
		.kind = PERFETTO_TRACK_PLAIN,
		.name = name,
	};

	snprintf(name, sizeof(name), "lane %d", lane);
	return perfetto_track(w, &t);
}

/* A lane's child track, the first time the lane is used. */
static int lane_describe(struct perfetto_writer *w, struct perfetto_lanes *l, int lane)
{
	int err;

	if (l->described & (1ULL << lane))
		return 0;
	err = perfetto_lane_track(w, l->parent_uuid, lane);
	if (!err)
		l->described |= 1ULL << lane;
	return err;
}

int perfetto_lane_begin(struct perfetto_writer *w, struct perfetto_lanes *l,
			struct perfetto_event *e)
{
	int lane = perfetto_lanes_take(l);

	if (lane < 0) {
		w->dropped++;
		return -1;
	}
	e->type = PERFETTO_SLICE_BEGIN;
	e->track_uuid = perfetto_lane_uuid(l->parent_uuid, lane);
	if (lane_describe(w, l, lane)) {
		w->dropped++; /* the slice too, which has no track to go on */
		perfetto_lanes_put(l, lane);
		return -1;
	}
	if (perfetto_event(w, e)) {
		perfetto_lanes_put(l, lane);
		return -1;
	}
	return lane;
}

int perfetto_lane_end(struct perfetto_writer *w, struct perfetto_lanes *l, int lane,
		      struct perfetto_event *e)
{
	if (lane < 0 || lane >= PERFETTO_LANES_MAX || !(l->busy & (1ULL << lane))) {
		w->dropped++;
		return -EINVAL;
	}
	perfetto_lanes_put(l, lane);
	e->type = PERFETTO_SLICE_END;
	e->track_uuid = perfetto_lane_uuid(l->parent_uuid, lane);
	return perfetto_event(w, e);
}

/*
 * What was not written, by reason: "N events did not fit the size limit (L
 * bytes); M events lost in a full buffer before the writer (a capture ring
 * buffer, a job buffer); K events not written (too large, no track or
 * lane)", the parts that are not 0, then ", S events without their stacks"
 * (written without them).
 */
static void note_text(const struct perfetto_writer *w, char *text, size_t size)
{
	size_t n = 0;

	text[0] = 0;
	if (w->over_limit)
		n += (size_t)snprintf(text + n, size - n, "%llu events did not fit the size limit (%llu bytes); ",
				      (unsigned long long)w->over_limit, (unsigned long long)w->limit_bytes);
	if (w->lost && n < size)
		n += (size_t)snprintf(text + n, size - n, "%llu events lost in a full buffer before the writer; ",
				      (unsigned long long)w->lost);
	if (w->dropped && n < size)
		n += (size_t)snprintf(text + n, size - n, "%llu events not written (too large, no track or lane); ",
				      (unsigned long long)w->dropped);
	if (n >= 2 && n < size)
		text[n -= 2] = 0;
	if (w->stacks_lost && n < size)
		snprintf(text + n, size - n, "%s%llu events without their stacks", n ? ", " : "",
			 (unsigned long long)w->stacks_lost);
}

/* The note: an instant on the "gputop-bpf" track, within the room kept for it. */
static int note_write(struct perfetto_writer *w)
{
	char text[PERFETTO_STR_MAX];
	struct perfetto_track t = {
		.uuid = PERFETTO_NOTE_UUID,
		.kind = PERFETTO_TRACK_PLAIN,
		.name = "gputop-bpf",
	};
	struct perfetto_arg args[] = {
		{ .name = "over_limit", .type = PERFETTO_ARG_UINT, .u = w->over_limit },
		{ .name = "limit_bytes", .type = PERFETTO_ARG_UINT, .u = w->limit_bytes },
		{ .name = "lost", .type = PERFETTO_ARG_UINT, .u = w->lost },
		{ .name = "dropped", .type = PERFETTO_ARG_UINT, .u = w->dropped },
		{ .name = "stacks_lost", .type = PERFETTO_ARG_UINT, .u = w->stacks_lost },
	};
	struct perfetto_event e = {
		.ts_ns = w->last_ts_ns,
		.track_uuid = PERFETTO_NOTE_UUID,
		.type = PERFETTO_INSTANT,
		.name = text,
		.args = args,
		.n_args = sizeof(args) / sizeof(args[0]),
	};
	uint64_t over_limit = w->over_limit, dropped = w->dropped;
	int err;

	note_text(w, text, sizeof(text));
	err = track_write(w, &t, 0);
	if (!err)
		err = event_write(w, &e, 0);
	w->over_limit = over_limit; /* the note's own packets are not events */
	w->dropped = dropped;
	return err;
}

int perfetto_writer_finish(struct perfetto_writer *w)
{
	int err = 0;

	if ((perfetto_unwritten(w) || w->stacks_lost) && !w->io_error)
		note_write(w);
	if (w->io_error || (w->out && fflush(w->out)))
		err = -EIO;
	interns_free(w);
	free(w->pkt.p);
	w->pkt.p = NULL;
	return err;
}
