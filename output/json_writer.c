// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/utf8_clean.h"
#include "core/decimal.h"
#include "output/json_writer.h"

void jsonw_init(struct jsonw *w)
{
	memset(w, 0, sizeof(*w));
	w->first[0] = true;
}

char *jsonw_finish(struct jsonw *w)
{
	if (w->failed || w->depth || !w->p) {
		free(w->p);
		w->p = NULL;
		return NULL;
	}
	w->p[w->len] = '\0';
	return w->p;
}

static bool room(struct jsonw *w, size_t n)
{
	size_t cap = w->cap ? w->cap : 4096;
	char *p;

	if (w->failed)
		return false;
	if (w->len + n + 1 <= w->cap)
		return true;
	while (cap < w->len + n + 1)
		cap *= 2;
	p = realloc(w->p, cap);
	if (!p) {
		w->failed = true;
		return false;
	}
	w->p = p;
	w->cap = cap;
	return true;
}

static void put(struct jsonw *w, const char *s, size_t n)
{
	if (!room(w, n))
		return;
	memcpy(w->p + w->len, s, n);
	w->len += n;
}

static void put_c(struct jsonw *w, char c)
{
	if (room(w, 1))
		w->p[w->len++] = c;
}

/* Before a value or a key: the comma after the container's previous member. */
static void separate(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		put_c(w, ',');
	w->first[w->depth] = false;
}

static void open_container(struct jsonw *w, char c)
{
	separate(w);
	put_c(w, c);
	if (w->depth == JSONW_MAX_DEPTH) {
		w->failed = true;
		return;
	}
	w->first[++w->depth] = true;
}

static void close_container(struct jsonw *w, char c)
{
	put_c(w, c);
	if (w->depth)
		w->depth--;
}

void jsonw_object_begin(struct jsonw *w)
{
	open_container(w, '{');
}

void jsonw_object_end(struct jsonw *w)
{
	close_container(w, '}');
}

void jsonw_array_begin(struct jsonw *w)
{
	open_container(w, '[');
}

void jsonw_array_end(struct jsonw *w)
{
	close_container(w, ']');
}

/*
 * A JSON string as json-c escapes it (with its no-slash-escape flag); bytes that
 * are not UTF-8 (names others chose: symbols, kernels, processes) as U+FFFD, so
 * that every line stays JSON a strict parser reads.
 */
static void put_escaped(struct jsonw *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t start = 0;

	put_c(w, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = { '\\', 0 };
		size_t elen = 2, len;

		if (c >= 0x80 && (len = utf8_char_len((const unsigned char *)s + i, n - i))) {
			i += len - 1;
			continue;
		}
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
			continue;
		put(w, s + start, i - start);
		start = i + 1;
		if (c >= 0x80) {
			put(w, "\\ufffd", 6);
			continue;
		}
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
		put(w, esc, elen);
	}
	put(w, s + start, n - start);
	put_c(w, '"');
}

void jsonw_key(struct jsonw *w, const char *key, size_t len)
{
	separate(w);
	put_escaped(w, key, len);
	put_c(w, ':');
	w->after_key = true;
}

void jsonw_string(struct jsonw *w, const char *s, size_t len)
{
	separate(w);
	put_escaped(w, s, len);
}

void jsonw_u64(struct jsonw *w, uint64_t v)
{
	char buf[DECIMAL_U64_MAX], *d = decimal_u64(v, buf + sizeof(buf));

	separate(w);
	put(w, d, (size_t)(buf + sizeof(buf) - d));
}

void jsonw_double(struct jsonw *w, double v)
{
	char buf[48];

	if (!isfinite(v))
		return jsonw_null(w); /* JSON has no NaN or infinity */
	separate(w);
	put(w, buf, json_format_double(buf, v));
}

void jsonw_bool(struct jsonw *w, bool v)
{
	separate(w);
	put(w, v ? "true" : "false", v ? 4 : 5);
}

void jsonw_null(struct jsonw *w)
{
	separate(w);
	put(w, "null", 4);
}

void jsonw_str_member(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key, strlen(key));
	jsonw_string(w, s, strlen(s));
}

void jsonw_u64_member(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw_key(w, key, strlen(key));
	jsonw_u64(w, v);
}

void jsonw_double_member(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key, strlen(key));
	jsonw_double(w, v);
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
