/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The unit tests' look-ups of what the encoder wrote, on the product's reader (output/pb_read.h). */
#ifndef GPUTOP_TEST_PB_READ_H
#define GPUTOP_TEST_PB_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "output/pb_read.h"

/* The nth (0: first) length-delimited field numbered f of msg: its payload; false if none. */
static inline bool find_field(const uint8_t *msg, size_t n, uint32_t f, size_t nth,
			      const uint8_t **out, size_t *out_n)
{
	struct pb_reader r;
	struct pb_field field;

	pb_reader_init(&r, msg, n);
	while (pb_next(&r, &field)) {
		if (field.wire == 2 && field.number == f && nth-- == 0) {
			*out = field.data;
			*out_n = field.len;
			return true;
		}
	}
	assert_false(r.bad);
	return false;
}

/* The first varint field numbered f of msg: its value in *v; false if none. */
static inline bool find_varint(const uint8_t *msg, size_t n, uint32_t f, uint64_t *v)
{
	struct pb_reader r;
	struct pb_field field;

	pb_reader_init(&r, msg, n);
	while (pb_next(&r, &field)) {
		if (field.wire == 0 && field.number == f) {
			*v = field.v;
			return true;
		}
	}
	assert_false(r.bad);
	return false;
}

/* Slice begins (TrackEvent.type 1) and ends (2) in a trace (packets: field 1; track_event: 11). */
static inline void count_slices(const char *buf, size_t len, uint64_t *begins, uint64_t *ends)
{
	*begins = *ends = 0;
	for (size_t i = 0;; i++) {
		const uint8_t *pkt, *ev;
		size_t n, evn;
		uint64_t type = 0;

		if (!find_field((const uint8_t *)buf, len, 1, i, &pkt, &n))
			break;
		if (!find_field(pkt, n, 11, 0, &ev, &evn) || !find_varint(ev, evn, 9, &type))
			continue;
		*begins += type == 1;
		*ends += type == 2;
	}
}

#endif
