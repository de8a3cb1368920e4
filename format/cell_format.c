// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/decimal.h"
#include "model/histogram.h"
#include "format/cell_format.h"

/* "%llu": a table of 660,000 cells is printed per snapshot, and printf is half of that. */
static void format_u64(uint64_t n, char *buf, size_t size)
{
	char tmp[DECIMAL_U64_MAX], *d = decimal_u64(n, tmp + sizeof(tmp));
	size_t len = (size_t)(tmp + sizeof(tmp) - d);

	if (len + 1 > size) {
		snprintf(buf, size, "%llu", (unsigned long long)n);
		return;
	}
	memcpy(buf, d, len);
	buf[len] = '\0';
}

/*
 * "%.<decimals>f" then suffix, the bytes printf writes: printf rounds the exact
 * binary value, so its own digits are taken where v * 10^decimals is within its
 * rounding error of a tie, and where v is negative, not finite or large.
 */
static void format_fixed(double v, unsigned int decimals, const char *suffix, char *buf, size_t size)
{
	static const double scale[] = { 1, 10, 100 };
	char tmp[DECIMAL_U64_MAX], *d, *end = tmp + sizeof(tmp);
	double x = v * scale[decimals], rest;
	size_t len, slen = strlen(suffix);
	uint64_t n;

	if (!(x >= 0 && x < 1e15) || signbit(x)) /* and -0, which printf writes as "-0" */
		goto by_printf;
	n = (uint64_t)x;
	rest = x - (double)n; /* exact: both below 2^53 */
	if (fabs(rest - 0.5) <= x * 0x1p-50 + 0x1p-60)
		goto by_printf;
	n += rest > 0.5;
	d = decimal_u64(n, end);
	while ((size_t)(end - d) <= decimals)
		*--d = '0';
	len = (size_t)(end - d) + (decimals ? 1 : 0);
	if (len + slen + 1 > size)
		goto by_printf;
	memcpy(buf, d, (size_t)(end - d) - decimals);
	if (decimals) {
		buf[(end - d) - decimals] = '.';
		memcpy(buf + (end - d) - decimals + 1, end - decimals, decimals);
	}
	memcpy(buf + len, suffix, slen + 1);
	return;
by_printf:
	snprintf(buf, size, "%.*f%s", (int)decimals, v, suffix);
}

const char *format_duration_ns(double ns, char *buf, size_t size)
{
	if (ns < 1e3)
		format_fixed(ns, 0, "ns", buf, size);
	else if (ns < 1e6)
		format_fixed(ns / 1e3, 1, "us", buf, size);
	else if (ns < 1e9)
		format_fixed(ns / 1e6, 2, "ms", buf, size);
	else
		format_fixed(ns / 1e9, 2, "s", buf, size);
	return buf;
}

const char *format_ns(double ns, char *buf, size_t size)
{
	if (ns > 0)
		return format_duration_ns(ns, buf, size);
	snprintf(buf, size, "-");
	return buf;
}

const char *format_bytes(double b, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned int u = 0;

	while (fabs(b) >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) { /* a change may be negative */
		b /= 1024;
		u++;
	}
	format_fixed(b, u ? 1 : 0, units[u], buf, size);
	return buf;
}

static void format_rate(double v, char *buf, size_t size)
{
	if (v >= 1e6)
		format_fixed(v / 1e6, 1, "M", buf, size);
	else if (v >= 1e4)
		format_fixed(v / 1e3, 1, "k", buf, size);
	else
		format_fixed(v, 1, "", buf, size);
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = *p >= 0xf0 && *p <= 0xf4 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;

	if (*p >= 0xf8)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void format_text(const char *s, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;

	while (*p && w + 1 < size) {
		size_t n = *p < 0x80 ? 1 : utf8_len(p);

		if (n <= 1) {
			buf[w++] = (*p < 0x20 || *p >= 0x7f) ? '?' : (char)*p;
			p++;
			continue;
		}
		if (w + n >= size)
			break;
		for (size_t i = 0; i < n; i++)
			buf[w++] = (char)*p++;
	}
	buf[w] = '\0';
}

const char *cell_format(const struct col_desc *col, const struct cell *c, char *buf, size_t size)
{
	double v;

	if (!c->known) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (col->type == COL_STR) {
		format_text(c->s, buf, size);
		if (!buf[0] && size > 1) /* known to be empty: "-", as the interface shows it, not a blank cell */
			snprintf(buf, size, "-");
		return buf;
	}
	if (col->type == COL_U64 && (col->flags & COL_HEX)) {
		snprintf(buf, size, "0x%llX", (unsigned long long)c->u);
		return buf;
	}
	if (col->type == COL_HIST) {
		snprintf(buf, size, "%llu samples", (unsigned long long)histogram_count(c->h));
		return buf;
	}
	if (col->type == COL_BOOL) {
		snprintf(buf, size, "%s", c->u ? "yes" : "no");
		return buf;
	}
	v = col->type == COL_U64 ? (double)c->u : c->f;
	switch (col->unit) {
	case UNIT_NS:
		format_duration_ns(v, buf, size);
		break;
	case UNIT_BYTES:
		format_bytes(v, buf, size);
		break;
	case UNIT_BYTES_PER_S: /* the unit in the cell: a rate, not a size */
		format_bytes(v, buf, size);
		snprintf(buf + strlen(buf), size - strlen(buf), "/s");
		break;
	case UNIT_PER_S:
		format_rate(v, buf, size);
		break;
	case UNIT_PCT:
		format_fixed(v, 1, "", buf, size);
		break;
	case UNIT_HZ:
		format_fixed(v, 2, "", buf, size);
		break;
	case UNIT_WATTS:
		format_fixed(v, 1, "", buf, size);
		break;
	case UNIT_CELSIUS:
	case UNIT_MHZ:
	case UNIT_RPM:
		format_fixed(v, 0, "", buf, size);
		break;
	case UNIT_COUNT:
	case UNIT_NONE:
		if (col->type == COL_U64)
			format_u64(c->u, buf, size);
		else
			format_fixed(v, 0, "", buf, size);
		break;
	}
	return buf;
}
