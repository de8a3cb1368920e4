// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The tables written straight into one buffer, in the bytes json-c writes for
 * the same values (its plain style, "%.15g" doubles with ".0" on whole ones,
 * its escapes): a snapshot of 50,000 rows took 600 ms through a json-c tree
 * of a million objects.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/decimal.h"
#include "model/histogram.h"
#include "output/json_tables.h"

struct out {
	char *p;
	size_t len, cap;
	bool failed; /* out of memory: the rest is not written */
};

static bool room(struct out *o, size_t n)
{
	size_t cap = o->cap ? o->cap : 65536;
	char *p;

	if (o->failed)
		return false;
	if (o->len + n + 1 <= o->cap)
		return true;
	while (cap < o->len + n + 1)
		cap *= 2;
	p = realloc(o->p, cap);
	if (!p) {
		o->failed = true;
		return false;
	}
	o->p = p;
	o->cap = cap;
	return true;
}

static void put(struct out *o, const char *s, size_t n)
{
	if (!room(o, n))
		return;
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

static void put_c(struct out *o, char c)
{
	if (room(o, 1))
		o->p[o->len++] = c;
}

static void put_u64(struct out *o, uint64_t v)
{
	char buf[DECIMAL_U64_MAX], *d = decimal_u64(v, buf + sizeof(buf));

	put(o, d, (size_t)(buf + sizeof(buf) - d));
}

/*
 * A double as json-c writes it with "%.15g": ".0" after a whole number that
 * has neither point nor exponent. Without printf where that is exact: whole
 * numbers below 1e15, and others from 1e-4 whose 15 digits come out of one
 * multiplication by a power of ten that is not too near a tie to round.
 */
size_t json_format_double(char *buf, double v)
{
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,
					1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
					1e16, 1e17, 1e18 };
	double a = fabs(v), scaled, m;
	char digits[24];
	size_t n = 0, len = 0;
	int x, decimals;

	if (a < 1e15 && a == trunc(a) && a != 0) {
		uint64_t u = (uint64_t)a;

		do
			digits[n++] = (char)('0' + u % 10);
		while (u /= 10);
		if (signbit(v))
			buf[len++] = '-';
		while (n)
			buf[len++] = digits[--n];
		memcpy(buf + len, ".0", 3);
		return len + 2;
	}
	if (!(a >= 1e-4 && a < 1e15))
		goto slow;
	/* x: the exponent of the leading digit; one off only near a power of ten, which m's range catches */
	if (a >= 1) {
		for (x = 0; x < 14 && a >= pow10[x + 1]; x++)
			;
	} else {
		for (x = -1; x > -4 && a * pow10[-x] < 1; x--)
			;
	}
	decimals = 14 - x;
	if (decimals > 18)
		goto slow;
	scaled = a * pow10[decimals];
	m = nearbyint(scaled);
	if (fabs(scaled - m) > 0.38 || m >= 1e15 || m < 1e14) /* near a tie, or the digits carried */
		goto slow;
	{
		uint64_t u = (uint64_t)m;
		int frac = decimals;

		while (frac > 0 && u % 10 == 0) { /* "%g" drops trailing zeros */
			u /= 10;
			frac--;
		}
		do
			digits[n++] = (char)('0' + u % 10);
		while (u /= 10);
		while ((int)n <= frac) /* leading zeros of 0.00ddd */
			digits[n++] = '0';
		if (signbit(v))
			buf[len++] = '-';
		while (n) {
			if ((int)n == frac)
				buf[len++] = '.';
			buf[len++] = digits[--n];
		}
		if (!frac) {
			memcpy(buf + len, ".0", 3);
			return len + 2;
		}
		buf[len] = '\0';
		return len;
	}
slow:
	n = (size_t)snprintf(buf, 40, "%.15g", v);
	if (!strpbrk(buf, ".e") && (buf[0] != '-' || buf[1] >= '0') && buf[n - 1] >= '0' && buf[n - 1] <= '9') {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	return n;
}

static void put_f64(struct out *o, double v)
{
	char buf[48];

	put(o, buf, json_format_double(buf, v));
}

/* A JSON string as json-c escapes it (with its no-slash-escape flag). */
static void put_str(struct out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t start = 0;

	put_c(o, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = { '\\', 0 };
		size_t elen = 2;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(o, s + start, i - start);
		start = i + 1;
		switch (c) {
		case '\b': esc[1] = 'b'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		case '\f': esc[1] = 'f'; break;
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			elen = 6;
		}
		put(o, esc, elen);
	}
	put(o, s + start, n - start);
	put_c(o, '"');
}

static void put_key(struct out *o, const char *k, size_t n)
{
	put_str(o, k, n);
	put_c(o, ':');
}

/* Non-empty buckets as [lower bound ns, count] pairs: small, and enough to redraw it. */
static void put_hist(struct out *o, const struct histogram *h)
{
	bool first = true;

	put_c(o, '[');
	for (unsigned int i = 0; i < HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		put(o, first ? "[" : ",[", first ? 1 : 2);
		first = false;
		put_u64(o, histogram_slot_low(i));
		put_c(o, ',');
		put_u64(o, h->slots[i]);
		put_c(o, ']');
	}
	put_c(o, ']');
}

static void put_cell(struct out *o, const struct col_desc *col, const struct cell *c)
{
	if (!c->known)
		return put(o, "null", 4);
	switch (col->type) {
	case COL_STR:
		return put_str(o, c->s, strlen(c->s));
	case COL_U64:
		return put_u64(o, c->u);
	case COL_F64:
		return put_f64(o, c->f);
	case COL_BOOL:
		return c->u ? put(o, "true", 4) : put(o, "false", 5);
	case COL_HIST:
		return put_hist(o, c->h);
	}
	put(o, "null", 4);
}

/* The part of key after depth dots ("a.b.c", 1: "b.c"); the head is up to the next dot. */
static const char *after_dots(const char *key, unsigned int depth)
{
	while (depth--) {
		key = strchr(key, '.');
		if (!key)
			return NULL;
		key++;
	}
	return key;
}

/* One step of writing a row: a member (key, cell), an object's opening (key, '{') or its end. */
struct step {
	enum { STEP_CELL, STEP_OPEN, STEP_CLOSE } kind;
	bool comma; /* not the first member of its object */
	unsigned int col;
	const char *key;
	size_t key_len;
};

struct plan {
	struct step *steps;
	size_t n, cap;
};

static bool plan_add(struct plan *pl, struct step st)
{
	struct step *slot = array_push(&pl->steps, &pl->n, &pl->cap, sizeof(*slot));

	if (slot)
		*slot = st;
	return slot != NULL;
}

/*
 * The steps of one object of a row, the same for every row of a table: the
 * columns whose keys start with prefix (depth heads, prefix_len bytes), in
 * column order; "a.b" nests as {"a": {"b": ...}}, "a" made where its first
 * column is (as put_path made it in json-c's tree, whose objects keep their
 * keys' order).
 */
static bool plan_members(struct plan *pl, const struct table_desc *d, const char *prefix, size_t prefix_len,
			 unsigned int depth)
{
	bool first = true;

	for (unsigned int c = 0; c < d->ncols; c++) {
		const char *key = d->cols[c].key, *rest, *dot;
		bool nested, seen = false;
		size_t head;

		if (strncmp(key, prefix, prefix_len) || !(rest = after_dots(key, depth)))
			continue;
		dot = strchr(rest, '.');
		head = dot ? (size_t)(dot - rest) : strlen(rest);
		nested = dot && head < 64; /* a head too long was never nested */
		for (unsigned int k = 0; nested && k < c && !seen; k++) /* its object is written */
			seen = !strncmp(d->cols[k].key, key, (size_t)(dot - key) + 1);
		if (seen)
			continue;
		if (!nested) {
			if (!plan_add(pl, (struct step){ STEP_CELL, !first, c, rest, strlen(rest) }))
				return false;
			first = false;
			continue;
		}
		if (!plan_add(pl, (struct step){ STEP_OPEN, !first, c, rest, head }) ||
		    !plan_members(pl, d, key, (size_t)(dot - key) + 1, depth + 1) ||
		    !plan_add(pl, (struct step){ STEP_CLOSE, false, c, NULL, 0 }))
			return false;
		first = false;
	}
	return true;
}

static void put_row(struct out *o, const struct plan *pl, const struct table_desc *d, const struct cell *cells)
{
	for (size_t i = 0; i < pl->n; i++) {
		const struct step *st = &pl->steps[i];

		if (st->comma)
			put_c(o, ',');
		switch (st->kind) {
		case STEP_CELL:
			put_key(o, st->key, st->key_len);
			put_cell(o, &d->cols[st->col], &cells[st->col]);
			break;
		case STEP_OPEN:
			put_key(o, st->key, st->key_len);
			put_c(o, '{');
			break;
		case STEP_CLOSE:
			put_c(o, '}');
			break;
		}
	}
}

char *tables_to_json(const struct snapshot *s)
{
	struct out o = { 0 };

	put_c(&o, '{');
	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		struct plan pl = { 0 };

		if (i)
			put_c(&o, ',');
		put_key(&o, t->desc->name, strlen(t->desc->name));
		put_c(&o, '[');
		if (t->nrows && !plan_members(&pl, t->desc, "", 0, 0))
			o.failed = true;
		for (size_t r = 0; r < t->nrows && !o.failed; r++) {
			put(&o, r ? ",{" : "{", r ? 2 : 1);
			put_row(&o, &pl, t->desc, table_row(t, r));
			put_c(&o, '}');
		}
		free(pl.steps);
		put_c(&o, ']');
	}
	put_c(&o, '}');
	if (o.failed) {
		free(o.p);
		return NULL;
	}
	o.p[o.len] = '\0';
	return o.p;
}
