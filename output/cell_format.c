// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include "../model/histogram.h"
#include "cell_format.h"

const char *format_duration_ns(double ns, char *buf, size_t size)
{
	if (ns < 1e3)
		snprintf(buf, size, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, size, "%.2fms", ns / 1e6);
	else
		snprintf(buf, size, "%.2fs", ns / 1e9);
	return buf;
}

const char *format_bytes(double b, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned int u = 0;

	while (b >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		b /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f%s" : "%.0f%s", b, units[u]);
	return buf;
}

static void format_rate(double v, char *buf, size_t size)
{
	if (v >= 1e6)
		snprintf(buf, size, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, size, "%.1fk", v / 1e3);
	else
		snprintf(buf, size, "%.1f", v);
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
	case UNIT_PER_S:
		format_rate(v, buf, size);
		break;
	case UNIT_PCT:
		snprintf(buf, size, "%.1f", v);
		break;
	case UNIT_HZ:
		snprintf(buf, size, "%.2f", v);
		break;
	case UNIT_COUNT:
	case UNIT_NONE:
		if (col->type == COL_U64)
			snprintf(buf, size, "%llu", (unsigned long long)c->u);
		else
			snprintf(buf, size, "%.0f", v);
		break;
	}
	return buf;
}
