// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The protobuf wire encoder (pb.h). */
#include <string.h>
#include "output/pb.h"

void pb_init(struct pb_buf *b, void *mem, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->p = mem;
	b->cap = mem ? cap : 0;
}

void pb_reset(struct pb_buf *b)
{
	pb_init(b, b->p, b->cap);
}

bool pb_ok(const struct pb_buf *b)
{
	return !b->lost && !b->depth && !b->too_deep;
}

size_t pb_varint_encode(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

size_t pb_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

uint64_t pb_zigzag64(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* n bytes, all or none; after the first that does not fit, none. */
static void put(struct pb_buf *b, const void *src, size_t n)
{
	if (b->lost || n > b->cap - b->len) {
		b->lost += n;
		return;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void put_varint(struct pb_buf *b, uint64_t v)
{
	uint8_t tmp[PB_VARINT_MAX];

	put(b, tmp, pb_varint_encode(tmp, v));
}

static void put_tag(struct pb_buf *b, uint32_t field, enum pb_wire wire)
{
	put_varint(b, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	put_tag(b, field, PB_WIRE_VARINT);
	put_varint(b, v);
}

void pb_int(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

void pb_sint(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, pb_zigzag64(v));
}

void pb_bool(struct pb_buf *b, uint32_t field, bool v)
{
	pb_uint(b, field, v ? 1 : 0);
}

void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v)
{
	uint8_t le[8];

	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	put_tag(b, field, PB_WIRE_FIXED64);
	put(b, le, sizeof(le));
}

void pb_double(struct pb_buf *b, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pb_fixed64(b, field, bits);
}

void pb_bytes(struct pb_buf *b, uint32_t field, const void *data, size_t n)
{
	put_tag(b, field, PB_WIRE_LEN);
	put_varint(b, n);
	put(b, data, n);
}

/* The tag and one byte for the length, to be written (and widened) at the end. */
void pb_begin(struct pb_buf *b, uint32_t field)
{
	uint8_t len0 = 0;

	put_tag(b, field, PB_WIRE_LEN);
	put(b, &len0, 1);
	if (b->depth == PB_MAX_DEPTH) {
		b->too_deep = true;
		b->lost++;
	}
	if (b->depth < PB_MAX_DEPTH)
		b->open[b->depth] = b->len;
	b->depth++;
}

void pb_end(struct pb_buf *b)
{
	size_t start, n, extra;

	if (!b->depth)
		return;
	b->depth--;
	if (b->lost || b->depth >= PB_MAX_DEPTH)
		return;
	start = b->open[b->depth];
	n = b->len - start;
	extra = pb_varint_size(n) - 1;
	if (extra > b->cap - b->len) {
		b->lost += extra;
		return;
	}
	memmove(b->p + start + extra, b->p + start, n);
	pb_varint_encode(b->p + start - 1, n);
	b->len += extra;
}
