/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A Perfetto trace writer (protobuf Trace of TracePackets, on our own encoder,
 * pb.h): track descriptors (processes, threads, plain tracks, counter tracks,
 * child tracks), track events (slice begin and end, instants, counters) with
 * flows and debug annotations, event and annotation names interned on one
 * packet sequence. Each call writes one packet to out, or none: bounded in
 * memory (one packet buffer, two bounded interning indices) and in size (the
 * file stays within limit_bytes); what was not written is counted by its
 * reason (the size limit; lost before it got here, in a full ring buffer; any
 * other), and the counts are written at the end as a note: an instant on a
 * "gputop-bpf" track.
 * Callstacks (perfetto_callstack.c) are interned on the same sequence: each
 * written once, events refer to it by its iid (TrackEvent.callstack_iid).
 * Strings are read up to their NUL or PERFETTO_STR_MAX - 1 bytes and written as
 * valid UTF-8 (utf8_clean.h): names that other users chose are safe here.
 */
#ifndef GPUTOP_PERFETTO_H
#define GPUTOP_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "output/pb.h"
#include "output/perfetto_intern.h"
#include "output/perfetto_lanes.h"

#define PERFETTO_STR_MAX 256 /* bytes of one string written, NUL included */
#define PERFETTO_PACKET_MAX 16384 /* bytes of one packet */
#define PERFETTO_ARGS_MAX 8 /* debug annotations of one event */
#define PERFETTO_NOTE_RESERVE 1024 /* bytes of the limit kept for the closing note */
#define PERFETTO_LIMIT_MIN (2 * PERFETTO_NOTE_RESERVE) /* the smallest limit_bytes */
#define PERFETTO_SEQUENCE_ID 1 /* trusted_packet_sequence_id of every packet */
#define PERFETTO_NOTE_UUID 0x67707574ULL /* the "gputop-bpf" track of the closing note */
#define PERFETTO_STACK_MAX 256 /* frames of one callstack */

/* TrackEvent.Type */
enum perfetto_event_type {
	PERFETTO_SLICE_BEGIN = 1,
	PERFETTO_SLICE_END = 2,
	PERFETTO_INSTANT = 3,
	PERFETTO_COUNTER = 4,
};

/* CounterDescriptor.Unit */
enum perfetto_unit {
	PERFETTO_UNIT_NONE = 0,
	PERFETTO_UNIT_TIME_NS = 1,
	PERFETTO_UNIT_COUNT = 2,
	PERFETTO_UNIT_BYTES = 3,
};

enum perfetto_track_kind {
	PERFETTO_TRACK_PLAIN, /* name only (a GPU ring, a CRTC, a lane under parent_uuid) */
	PERFETTO_TRACK_PROCESS, /* pid, name as process_name */
	PERFETTO_TRACK_THREAD, /* pid, tid, name as thread_name */
	PERFETTO_TRACK_COUNTER, /* name, unit: TYPE_COUNTER events only */
};

struct perfetto_track {
	uint64_t uuid; /* unique in the trace, not 0 */
	uint64_t parent_uuid; /* 0: none */
	enum perfetto_track_kind kind;
	const char *name; /* may be NULL */
	int32_t pid, tid;
	enum perfetto_unit unit;
};

enum perfetto_arg_type {
	PERFETTO_ARG_INT,
	PERFETTO_ARG_UINT,
	PERFETTO_ARG_STRING,
};

/* A debug annotation: its name interned, one value. */
struct perfetto_arg {
	const char *name;
	enum perfetto_arg_type type;
	int64_t i;
	uint64_t u;
	const char *s;
};

/* A slice begin or end, or an instant (counters: perfetto_counter*). */
struct perfetto_event {
	uint64_t ts_ns;
	uint64_t track_uuid;
	enum perfetto_event_type type;
	const char *name; /* interned; NULL for none (a slice's end) */
	const uint64_t *flow_ids; /* flows that start or pass here */
	size_t n_flow_ids;
	const uint64_t *terminating_flow_ids; /* flows that end here */
	size_t n_terminating_flow_ids;
	const struct perfetto_arg *args; /* at most PERFETTO_ARGS_MAX */
	size_t n_args;
	uint64_t callstack_iid; /* perfetto_callstack's; 0: none */
};

/* One frame of a callstack: the function ("" or NULL: "[unknown]"), a kernel one or not. */
struct perfetto_frame {
	const char *name;
	bool kernel;
};

struct perfetto_writer {
	FILE *out;
	uint64_t limit_bytes; /* the file's size at most */
	uint64_t bytes; /* written to out */
	uint64_t packets; /* written */
	uint64_t over_limit; /* packets that did not fit the size limit */
	uint64_t lost; /* events lost before they got here (a full ring buffer), as callers counted */
	uint64_t dropped; /* packets not written otherwise (too large, bad, no lane), and what callers counted */
	uint64_t last_ts_ns; /* the latest event's time: the note's */
	bool io_error;
	bool state_cleared; /* the sequence's first packet (SEQ_INCREMENTAL_STATE_CLEARED) is out */
	struct pb_buf pkt;
	struct perfetto_intern event_names, arg_names;
	struct perfetto_intern function_names, frames; /* frames by kind and name */
	uint64_t callstacks; /* callstack iids given */
	uint64_t stacks_lost; /* events written without their stack: in the note too */
};

/* Writes to out (the caller's, left open) up to limit_bytes (at least PERFETTO_LIMIT_MIN). */
int perfetto_writer_init(struct perfetto_writer *w, FILE *out, uint64_t limit_bytes);
/* The note of what was dropped (if anything was), then a flush; frees the writer. 0, or -EIO. */
int perfetto_writer_finish(struct perfetto_writer *w);

/*
 * Each writes one packet: 0; -ENOSPC when it did not fit the limit (counted in
 * over_limit) or the packet buffer (in dropped); -EINVAL for a bad call (in
 * dropped); -EIO.
 */
int perfetto_track(struct perfetto_writer *w, const struct perfetto_track *t);
int perfetto_event(struct perfetto_writer *w, const struct perfetto_event *e);
int perfetto_counter(struct perfetto_writer *w, uint64_t ts_ns, uint64_t track_uuid, int64_t v);
int perfetto_counter_double(struct perfetto_writer *w, uint64_t ts_ns, uint64_t track_uuid,
			    double v);
/*
 * An event that closes a slice already begun (its end): written within the
 * limit less half the note's room, so that what perfetto_event began (within
 * the limit less all of it) can still be ended. As perfetto_event otherwise.
 */
int perfetto_event_closing(struct perfetto_writer *w, const struct perfetto_event *e);
/* The track descriptor of a lane's child track ("lane N" under parent_uuid). */
int perfetto_lane_track(struct perfetto_writer *w, uint64_t parent_uuid, int lane);
/*
 * A callstack of n frames (1 to PERFETTO_STACK_MAX), root first: one packet
 * at ts_ns of interned data (the function names and frames it uses first, and
 * the callstack), its iid in *iid for the events that carry it. 0; -ENOSPC
 * (the packet buffer, the limit, or an index full), -EINVAL, -ENOMEM: not
 * counted (not an event: its events are, by perfetto_count_stack_lost); -EIO.
 */
int perfetto_callstack(struct perfetto_writer *w, uint64_t ts_ns, const struct perfetto_frame *frames,
		       size_t n, uint64_t *iid);
/* Events written without the stack they had (it could not be read or written): in the note. */
void perfetto_count_stack_lost(struct perfetto_writer *w, uint64_t n);
/* Events lost before they reached the writer (a full ring buffer): in the note too. */
void perfetto_count_lost(struct perfetto_writer *w, uint64_t n);
/* Events the caller could not write (no track for them): in the note too. */
void perfetto_count_dropped(struct perfetto_writer *w, uint64_t n);
/* Events not written, for every reason. */
uint64_t perfetto_unwritten(const struct perfetto_writer *w);

/*
 * A slice that may overlap others on the track l->parent_uuid: on the lowest
 * free lane's child track (described the first time it is used). Returns the
 * lane, for perfetto_lane_end; -1 when every lane is busy or it did not fit
 * (counted in dropped; nothing to end then). e->track_uuid and type are set here.
 */
int perfetto_lane_begin(struct perfetto_writer *w, struct perfetto_lanes *l,
			struct perfetto_event *e);
int perfetto_lane_end(struct perfetto_writer *w, struct perfetto_lanes *l, int lane,
		      struct perfetto_event *e);

#endif
