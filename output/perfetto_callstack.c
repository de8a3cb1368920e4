// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Callstacks interned on the writer's sequence (perfetto.h): InternedData's
 * function_names, frames (a function name and a kind: native or kernel) and
 * callstacks (frame iids, root first), as Perfetto's profile_common.proto and
 * interned_data.proto define them; events point at one by callstack_iid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perfetto_packet.h"

enum {
	INTERNED_FUNCTION_NAMES = 5,
	INTERNED_FRAMES = 6,
	INTERNED_CALLSTACKS = 7,
	STRING_IID = 1, /* InternedString */
	STRING_STR = 2,
	FRAME_IID = 1,
	FRAME_FUNCTION_NAME_ID = 2,
	FRAME_KIND = 7,
	CALLSTACK_IID = 1,
	CALLSTACK_FRAME_IDS = 2,
	KIND_NATIVE = 1, /* Frame.Kind */
	KIND_KERNEL = 2,
};

/* One frame of the packet: its name and its key (kind and name) cleaned, their iids, new or kept. */
struct frame_ref {
	char name[PERFETTO_STR_MAX];
	char key[PERFETTO_STR_MAX + 1];
	size_t len;
	bool kernel;
	uint64_t name_iid, frame_iid;
	bool name_new, frame_new;
};

/* iid of s in t, or of an earlier new one of this packet, or the next: false when t is full. */
static bool iid_of(const struct perfetto_intern *t, const struct frame_ref *r, size_t i,
		   bool by_key, size_t *pending, uint64_t *iid, bool *is_new)
{
	const char *s = by_key ? r[i].key : r[i].name;

	*is_new = false;
	*iid = perfetto_intern_find(t, s);
	if (*iid)
		return true;
	for (size_t j = 0; j < i; j++) {
		bool earlier_new = by_key ? r[j].frame_new : r[j].name_new;

		if (earlier_new && !strcmp(by_key ? r[j].key : r[j].name, s)) {
			*iid = by_key ? r[j].frame_iid : r[j].name_iid;
			return true;
		}
	}
	*iid = perfetto_intern_next(t, *pending);
	if (!*iid)
		return false;
	*is_new = true;
	(*pending)++;
	return true;
}

/* Every frame's iids (a new frame's function name too); false when an index is full. */
static bool refs_resolve(struct perfetto_writer *w, const struct perfetto_frame *frames, size_t n,
			 struct frame_ref *r)
{
	size_t names = 0, keys = 0;

	for (size_t i = 0; i < n; i++) {
		const char *name = frames[i].name && *frames[i].name ? frames[i].name : "[unknown]";

		r[i].len = perfetto_clean(name, r[i].name);
		r[i].kernel = frames[i].kernel;
		snprintf(r[i].key, sizeof(r[i].key), "%c%s", r[i].kernel ? 'k' : 'u', r[i].name);
		r[i].name_new = false;
		r[i].name_iid = 0;
		if (!iid_of(&w->frames, r, i, true, &keys, &r[i].frame_iid, &r[i].frame_new))
			return false;
		if (r[i].frame_new &&
		    !iid_of(&w->function_names, r, i, false, &names, &r[i].name_iid, &r[i].name_new))
			return false;
	}
	return true;
}

static void interned_write(struct pb_buf *b, const struct frame_ref *r, size_t n, uint64_t iid)
{
	pb_begin(b, PACKET_INTERNED_DATA);
	for (size_t i = 0; i < n; i++) {
		if (!r[i].name_new)
			continue;
		pb_begin(b, INTERNED_FUNCTION_NAMES);
		pb_uint(b, STRING_IID, r[i].name_iid);
		pb_bytes(b, STRING_STR, r[i].name, r[i].len);
		pb_end(b);
	}
	for (size_t i = 0; i < n; i++) {
		if (!r[i].frame_new)
			continue;
		pb_begin(b, INTERNED_FRAMES);
		pb_uint(b, FRAME_IID, r[i].frame_iid);
		pb_uint(b, FRAME_FUNCTION_NAME_ID, r[i].name_iid);
		pb_uint(b, FRAME_KIND, r[i].kernel ? KIND_KERNEL : KIND_NATIVE);
		pb_end(b);
	}
	pb_begin(b, INTERNED_CALLSTACKS);
	pb_uint(b, CALLSTACK_IID, iid);
	for (size_t i = 0; i < n; i++)
		pb_uint(b, CALLSTACK_FRAME_IDS, r[i].frame_iid);
	pb_end(b);
	pb_end(b);
}

/* After the packet is out: its new names and frames kept, in the order their iids were given. */
static void refs_keep(struct perfetto_writer *w, const struct frame_ref *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (r[i].name_new)
			perfetto_intern_add(&w->function_names, r[i].name);
		if (r[i].frame_new)
			perfetto_intern_add(&w->frames, r[i].key);
	}
}

int perfetto_callstack(struct perfetto_writer *w, uint64_t ts_ns, const struct perfetto_frame *frames,
		       size_t n, uint64_t *iid)
{
	uint64_t dropped = w->dropped;
	struct frame_ref *r;
	int err;

	*iid = 0;
	if (!n || n > PERFETTO_STACK_MAX || !frames)
		return -EINVAL;
	if (w->io_error)
		return -EIO;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = -ENOSPC;
	if (refs_resolve(w, frames, n, r)) {
		perfetto_packet_begin(w, ts_ns, true);
		interned_write(&w->pkt, r, n, w->callstacks + 1);
		err = perfetto_packet_commit(w, PERFETTO_NOTE_RESERVE);
		w->dropped = dropped; /* not an event */
	}
	if (!err) {
		refs_keep(w, r, n);
		*iid = ++w->callstacks;
	}
	free(r);
	return err;
}
