// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <string.h>
#include "tui/sparkline.h"

static const char *const blocks[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
static const char ascii_levels[8] = { '_', '.', ':', '-', '=', '+', '*', '#' };
static const char *const eighths[8] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };

/* Appends s if it fits (keeping room for the NUL). */
static bool append(char *out, size_t outsize, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > outsize)
		return false;
	memcpy(out + *len, s, n + 1);
	*len += n;
	return true;
}

/* The eighths of a cell's column of bands cells that v of max fills: 1 (zero's lowest glyph) to all. */
static int column_eighths(double v, double max, int bands)
{
	int top = 8 * bands - 1, level = 0;

	if (max > 0 && v > 0 && isfinite(v / max)) { /* NaN, Infinity: no cast */
		level = (int)(v / max * (double)top + 0.5);
		level = level < 1 ? 1 : level > top ? top : level; /* anything above zero shows */
	}
	return level + 1;
}

size_t sparkline_band(const double *v, size_t n, size_t width, double max, int band, int bands, bool utf8, char *out,
		      size_t outsize)
{
	size_t start = n > width ? n - width : 0, len = 0, cells = 0;

	if (!outsize)
		return 0;
	out[0] = '\0';
	if (max <= 0)
		for (size_t i = start; i < n; i++)
			if (v[i] > max)
				max = v[i];
	for (size_t i = start; i < n; i++) {
		int e = isnan(v[i]) ? 0 : column_eighths(v[i], max, bands) - 8 * band; /* unknown: blank */
		char a[2] = { e <= 0 ? ' ' : ascii_levels[e >= 8 ? 7 : e - 1], 0 };

		if (!append(out, outsize, &len, e <= 0 ? " " : utf8 ? blocks[e >= 8 ? 7 : e - 1] : a))
			break;
		cells++;
	}
	return cells;
}

size_t sparkline_render(const double *v, size_t n, size_t width, double max, bool utf8, char *out, size_t outsize)
{
	return sparkline_band(v, n, width, max, 0, 1, utf8, out, outsize);
}

size_t bar_render(double frac, size_t width, bool utf8, char *out, size_t outsize)
{
	size_t eighth_total, full, len = 0, cells = 0;

	if (!outsize)
		return 0;
	out[0] = '\0';
	if (!(frac >= 0)) /* negative or NaN */
		frac = 0;
	if (frac > 1)
		frac = 1;
	eighth_total = (size_t)(frac * (double)width * 8.0 + 0.5);
	full = eighth_total / 8;
	for (size_t i = 0; i < full && cells < width; i++, cells++)
		if (!append(out, outsize, &len, utf8 ? "█" : "#"))
			return cells;
	if (utf8 && eighth_total % 8 && cells < width && append(out, outsize, &len, eighths[eighth_total % 8]))
		cells++;
	return cells;
}
