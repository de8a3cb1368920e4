/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The unit tests' protobuf reader: fields of a message, for checking what the encoder wrote. */
#ifndef GPUTOP_TEST_PB_READ_H
#define GPUTOP_TEST_PB_READ_H

#include <stdbool.h>
#include <stdint.h>

/* A test-side reader: a varint at *p (within end), moving *p past it. */
static inline uint64_t read_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t byte = *(*p)++;

		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return v;
	}
	fail_msg("a varint runs past its message");
	return 0;
}

/* The nth (0: first) length-delimited field numbered f of msg: its payload; false if none. */
static inline bool find_field(const uint8_t *msg, size_t n, uint32_t f, size_t nth,
			      const uint8_t **out, size_t *out_n)
{
	const uint8_t *p = msg, *end = msg + n;

	while (p < end) {
		uint64_t tag = read_varint(&p, end), len = 0;

		switch (tag & 7) {
		case 0:
			read_varint(&p, end);
			continue;
		case 1:
			p += 8;
			continue;
		case 2:
			len = read_varint(&p, end);
			break;
		default:
			fail_msg("wire type %u", (unsigned int)(tag & 7));
		}
		assert_true(len <= (uint64_t)(end - p));
		if ((tag >> 3) == f && nth-- == 0) {
			*out = p;
			*out_n = len;
			return true;
		}
		p += len;
	}
	assert_true(p == end);
	return false;
}

/* The first varint field numbered f of msg: its value in *v; false if none. */
static inline bool find_varint(const uint8_t *msg, size_t n, uint32_t f, uint64_t *v)
{
	const uint8_t *p = msg, *end = msg + n;

	while (p < end) {
		uint64_t tag = read_varint(&p, end), len;

		switch (tag & 7) {
		case 0:
			*v = read_varint(&p, end);
			if ((tag >> 3) == f)
				return true;
			continue;
		case 1:
			p += 8;
			continue;
		case 2:
			len = read_varint(&p, end);
			assert_true(len <= (uint64_t)(end - p));
			p += len;
			continue;
		default:
			fail_msg("wire type %u", (unsigned int)(tag & 7));
		}
	}
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
