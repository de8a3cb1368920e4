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

#endif
