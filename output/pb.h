/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A protobuf wire encoder into a buffer the caller sized (no libprotobuf):
 * varints, fixed64 and doubles, length-delimited bytes and nested messages.
 * A nested message's length is written when it ends, in as few bytes as it
 * needs: the content moves up when the length takes more than one byte. It
 * never writes past the buffer: the first write that does not fit stops all
 * writing, and every byte asked for from then on is counted in lost, so a
 * caller sees what did not fit and can roll back to a mark (a whole message).
 */
#ifndef GPUTOP_PB_H
#define GPUTOP_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PB_MAX_DEPTH 8 /* nested messages open at once */
#define PB_VARINT_MAX 10 /* bytes of the longest varint (2^64 - 1) */

enum pb_wire {
	PB_WIRE_VARINT = 0,
	PB_WIRE_FIXED64 = 1,
	PB_WIRE_LEN = 2,
};

struct pb_buf {
	uint8_t *p;
	size_t len, cap;
	size_t lost; /* bytes asked for that were not written: after the first, none is */
	unsigned int depth; /* nested messages open */
	bool too_deep; /* a message was opened past PB_MAX_DEPTH (counted in lost too) */
	size_t open[PB_MAX_DEPTH]; /* where each open message's content starts */
};

void pb_init(struct pb_buf *b, void *mem, size_t cap);
/* Empty again (the same buffer), nothing lost. */
void pb_reset(struct pb_buf *b);
/* Everything asked for was written and every message opened was closed. */
bool pb_ok(const struct pb_buf *b);

/* The varint encoding of v into out (PB_VARINT_MAX bytes); its length. */
size_t pb_varint_encode(uint8_t *out, uint64_t v);
size_t pb_varint_size(uint64_t v);
/* sint32/sint64's mapping of signed to unsigned (-1 -> 1, 1 -> 2). */
uint64_t pb_zigzag64(int64_t v);

/* Fields: (number << 3 | wire type), then the value. */
void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v);
/* int32/int64: a negative value is ten bytes (two's complement, sign-extended to 64 bits). */
void pb_int(struct pb_buf *b, uint32_t field, int64_t v);
void pb_sint(struct pb_buf *b, uint32_t field, int64_t v);
void pb_bool(struct pb_buf *b, uint32_t field, bool v);
void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v);
void pb_double(struct pb_buf *b, uint32_t field, double v);
/* Length-delimited: bytes or a string as it is (the caller makes strings valid UTF-8). */
void pb_bytes(struct pb_buf *b, uint32_t field, const void *data, size_t n);

/* A nested message: its fields go between begin and end. */
void pb_begin(struct pb_buf *b, uint32_t field);
void pb_end(struct pb_buf *b);

#endif
