/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A protobuf wire reader over bytes of any origin (a trace file a user names):
 * fields one at a time, every length checked against what is left, groups and
 * unknown wire types refused. Nothing is allocated: a length-delimited field's
 * bytes point into the input.
 */
#ifndef GPUTOP_PB_READ_H
#define GPUTOP_PB_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pb_reader {
	const uint8_t *p, *end;
	bool bad; /* the input broke the wire format: reading stopped */
};

struct pb_field {
	uint32_t number;
	unsigned int wire; /* 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32 */
	uint64_t v; /* varint, fixed64 or fixed32 */
	const uint8_t *data; /* length-delimited: its bytes */
	size_t len;
};

void pb_reader_init(struct pb_reader *r, const void *data, size_t len);
/* The next field: false at the end, or on bad input (then r->bad). */
bool pb_next(struct pb_reader *r, struct pb_field *f);
/* A field's fixed64 as the double it holds. */
double pb_field_double(const struct pb_field *f);

#endif
