/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Sparklines and bars as text (UTF-8 block elements, or ASCII), no curses. */
#ifndef GPUTOP_SPARKLINE_H
#define GPUTOP_SPARKLINE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The last `width` of n values, one cell each, scaled so that max (or the
 * largest value when max <= 0) is a full cell; zero is the lowest glyph, NaN
 * (unknown) a blank cell.
 * Writes a NUL-terminated string into out; returns the cells drawn.
 */
size_t sparkline_render(const double *v, size_t n, size_t width, double max, bool utf8,
			char *out, size_t outsize);
/*
 * Band `band` (0: the bottom) of the same drawn `bands` cells tall: each value a column of
 * 8 * bands eighths; a zero the bottom band's lowest glyph, blank above.
 */
size_t sparkline_band(const double *v, size_t n, size_t width, double max, int band, int bands, bool utf8, char *out,
		      size_t outsize);
/* A horizontal bar frac (0..1) of width cells long, in eighths when utf8. */
size_t bar_render(double frac, size_t width, bool utf8, char *out, size_t outsize);

#endif
