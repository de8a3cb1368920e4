/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Text that others chose (process, ring and device names, recordings) made
 * safe for a terminal: control characters (C0, DEL, C1) and invalid UTF-8
 * become '?', so no escape sequence reaches the terminal; widths are counted
 * in terminal cells (wide characters two), as the locale's wcwidth says.
 */
#ifndef GPUTOP_CELL_TEXT_H
#define GPUTOP_CELL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TEXT_CELL_MAX 16384 /* bytes of one cell's text, after escaping: 4095 of 4-byte characters whole */

/*
 * Text of at most width terminal cells: control characters become '?', invalid
 * UTF-8 bytes '?', wide characters count two cells; text that is longer ends in
 * an ellipsis ("…" with utf8, "~" without). Returns the cells used.
 */
int text_fit(const char *in, int width, bool utf8, char *out, size_t outsize);

/*
 * Text of at most width cells for a name that others share further than width shows: its
 * beginning, an ellipsis, then in from byte from on (from the start of the word there), cut
 * with an ellipsis where that is longer; so names that differ at from stay apart. Where they
 * also differ further on, at byte also (0: nowhere else) past what that shows: the part from
 * from cut short, an ellipsis, then from also on. in as text_fit cuts it when from is within
 * what that shows. Returns the cells used.
 */
int text_fit_apart(const char *in, size_t from, size_t also, int width, bool utf8, char *out, size_t outsize);

/*
 * A list ("nvidia0,nvidia1,nvidia2", no spaces) in at most width cells: whole items while they
 * fit, then " +N" for the N left out ("nvidia0 +2"); where not one item fits with its " +N", or in
 * is no list, as text_fit. Returns the cells used.
 */
int text_fit_list(const char *in, int width, bool utf8, char *out, size_t outsize);

/*
 * in with every run of 32 or more hex digits that makes a whole path component (between '/', '-',
 * '.', ':' or the ends) cut to its first 12, as docker shows container ids
 * ("/process_api/4b8bac99558e25ac6038c499b576acff" -> "/process_api/4b8bac99558e").
 */
void text_short_ids(const char *in, char *out, size_t outsize);

/* Greedy word wrap: the length in bytes of the first line of text that fits width cells. */
size_t wrap_line(const char *text, int width);

/* in, made safe, padded with spaces to width cells (left-aligned or right); never cut short.
 * Returns the cells written. Written unlocked: the caller holds out's lock (flockfile) where
 * another thread may write to it. */
int text_print_cell(FILE *out, const char *in, int width, bool left, bool utf8);
/* Text text_fit made (its bytes, of cells cells), padded as text_print_cell pads it. Returns the cells written. */
int text_put_fitted(FILE *out, const char *fitted, size_t bytes, int cells, int width, bool left);

#endif
