// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "output/pb_read.h"

void pb_reader_init(struct pb_reader *r, const void *data, size_t len)
{
	r->p = data;
	r->end = r->p + len;
	r->bad = false;
}

static bool varint(struct pb_reader *r, uint64_t *v)
{
	*v = 0;
	for (unsigned int shift = 0; shift < 64; shift += 7) {
		if (r->p == r->end)
			return false;
		*v |= (uint64_t)(*r->p & 0x7f) << shift;
		if (!(*r->p++ & 0x80))
			return true;
	}
	return false; /* more than ten bytes */
}

static bool fixed(struct pb_reader *r, unsigned int n, uint64_t *v)
{
	*v = 0;
	if ((size_t)(r->end - r->p) < n)
		return false;
	for (unsigned int i = 0; i < n; i++)
		*v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return true;
}

static bool field_value(struct pb_reader *r, struct pb_field *f)
{
	switch (f->wire) {
	case 0:
		return varint(r, &f->v);
	case 1:
		return fixed(r, 8, &f->v);
	case 5:
		return fixed(r, 4, &f->v);
	case 2:
		if (!varint(r, &f->v) || f->v > (uint64_t)(r->end - r->p))
			return false;
		f->data = r->p;
		f->len = (size_t)f->v;
		r->p += f->len;
		return true;
	default:
		return false; /* groups (3, 4) and 6, 7 */
	}
}

bool pb_next(struct pb_reader *r, struct pb_field *f)
{
	uint64_t key;

	if (r->bad || r->p == r->end)
		return false;
	memset(f, 0, sizeof(*f));
	if (!varint(r, &key) || key >> 3 == 0 || key >> 3 > UINT32_MAX) {
		r->bad = true;
		return false;
	}
	f->number = (uint32_t)(key >> 3);
	f->wire = key & 7;
	if (!field_value(r, f)) {
		r->bad = true;
		return false;
	}
	return true;
}

double pb_field_double(const struct pb_field *f)
{
	double d;

	memcpy(&d, &f->v, sizeof(d));
	return d;
}
