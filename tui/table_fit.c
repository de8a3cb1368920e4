// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "tui/table_fit.h"

/*
 * The history the table draws: the COL_SPARK one, else the first; where there is no COL_SPARK one and no row
 * of t knows the first while a row knows another, the first such (memory regions that report USED but no
 * TOTAL). A COL_SPARK one stays where it is unknown now: its history says when it was known.
 */
static int spark_column(const struct table_desc *d, const struct table *t)
{
	int first = -1, spark = -1, known = -1;

	for (unsigned int c = 0; c < d->ncols; c++) {
		if (!(d->cols[c].flags & COL_HISTORY))
			continue;
		if ((d->cols[c].flags & COL_SPARK) && spark < 0)
			spark = (int)c;
		if (first < 0)
			first = (int)c;
		if (known < 0 && t && table_col_known(t, c))
			known = (int)c;
	}
	if (spark >= 0)
		return spark;
	if (first >= 0 && t && t->nrows && !table_col_known(t, (unsigned int)first) && known >= 0)
		return known;
	return first;
}

/*
 * The sparkline's cells kept before a cut text is widened: room for its title's short form ("LAUNCH/S hist.")
 * and a cell the sorted column's arrow may take from it.
 */
static int spark_keep(const struct table_desc *d, int spark)
{
	int titled = spark >= 0 ? (int)strlen(d->cols[spark].title) + (int)strlen(" hist.") + 1 : 0;

	return titled > TABLE_FIT_SPARK_KEEP ? titled : TABLE_FIT_SPARK_KEEP;
}

bool table_col_known(const struct table *t, unsigned int c)
{
	for (size_t r = 0; t && r < t->nrows; r++)
		if (table_cell(t, r, c)->known)
			return true;
	return false;
}

/* The cells of column c's widest text in t. */
static int widest(const struct table *t, unsigned int c)
{
	char fit[TABLE_STR_MAX * 2];
	int w = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const struct cell *cell = table_cell(t, r, c);
		int n = cell->known && cell->s ? text_fit(cell->s, TABLE_STR_MAX, true, fit, sizeof(fit)) : 0;

		w = n > w ? n : w;
	}
	return w;
}

/* Whether column c of d may be on screen at all: not drill-down only, known where it must be, not hidden. */
static bool col_may_show(const struct table_desc *d, const struct table *t, const struct tui_prefs *prefs,
			 unsigned int c)
{
	const struct col_desc *col = &d->cols[c];

	if (col->flags & COL_DETAIL)
		return false;
	if ((col->flags & COL_IF_KNOWN) && !table_col_known(t, c))
		return false;
	return !prefs || !prefs_col_hidden(prefs, d->name, col->key); /* hidden in setup (F2) */
}

/* A long name that is its row's key (a kernel's): without it rows can read the same. */
static bool name_key(const struct col_desc *col)
{
	return (col->flags & (COL_KEY | COL_LONG)) == (COL_KEY | COL_LONG);
}

/*
 * Columns into out as table_fit_columns says; first (>= 0) taken before the others where it fits, then
 * with names the long names that are keys.
 */
static void fit_columns(const struct table_desc *d, const struct table *t, int width, const struct tui_prefs *prefs,
			int first, bool names, struct table_fit *out)
{
	bool take[TABLE_FIT_MAX_COLS] = { false };
	int x = 0, spark = spark_column(d, t), room = width;

	memset(out, 0, sizeof(*out));
	out->spark_col = -1;
	if (first >= 0 && first < TABLE_FIT_MAX_COLS && d->cols[first].width <= width) {
		take[first] = true;
		x = d->cols[first].width;
	}
	for (unsigned int c = 0; names && c < d->ncols && c < TABLE_FIT_MAX_COLS; c++)
		if (!take[c] && name_key(&d->cols[c]) && col_may_show(d, t, prefs, c) &&
		    x + d->cols[c].width + (x ? 1 : 0) <= width) {
			x += d->cols[c].width + (x ? 1 : 0);
			take[c] = true;
		}
	/*
	 * Columns in order while they fit; then a sparkline's room is kept when there
	 * is enough; the wide columns only get what is left.
	 */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && spark >= 0 && width - x - 1 >= TABLE_FIT_SPARK_KEEP)
			room = width - TABLE_FIT_SPARK_KEEP - 1;
		for (unsigned int c = 0; c < d->ncols && c < TABLE_FIT_MAX_COLS; c++) {
			const struct col_desc *col = &d->cols[c];
			int need = col->width + (x ? 1 : 0);

			if (take[c] || !!(col->flags & COL_WIDE) != pass || !col_may_show(d, t, prefs, c))
				continue;
			if ((col->flags & COL_WITH_PREV) && (!c || !take[c - 1]))
				continue; /* a limit without its value (CAP W without POWER W) says little */
			if (x + need > room)
				continue; /* a narrower column further right may still fit */
			take[c] = true;
			x += need;
		}
	}
	for (unsigned int c = 0; c < d->ncols && c < TABLE_FIT_MAX_COLS; c++)
		if (take[c]) {
			out->widths[out->ncols] = d->cols[c].width;
			out->cols[out->ncols++] = c;
		}
	/* spare room to the text columns their values are cut in, left to right, past the sparkline's short title */
	for (unsigned int k = 0; t && k < out->ncols; k++) {
		const struct col_desc *col = &d->cols[out->cols[k]];
		int keep = spark_keep(d, spark);
		int spare = width - x - (spark >= 0 ? keep + 1 : 0), more;

		if (spare <= 0 || col->type != COL_STR)
			continue;
		more = widest(t, out->cols[k]) - out->widths[k];
		more = more < spare ? more : spare;
		if (more > 0) {
			out->widths[k] += more;
			x += more;
		}
	}
	/* a sparkline only with room for its title's short form: untitled it reads as the column beside it */
	if (spark >= 0 && width - x - 1 >= TABLE_FIT_SPARK_MIN && width - x - 1 >= spark_keep(d, spark)) {
		out->spark_col = spark;
		out->spark_x = x + 1;
		out->spark_w = width - x - 1;
	}
}

void table_fit_columns(const struct table_desc *d, const struct table *t, int width, const struct tui_prefs *prefs,
		       struct table_fit *out)
{
	fit_columns(d, t, width, prefs, -1, false, out);
}

/* The sorted column one cell wider where its title fills it; false where there is no cell to give it. */
static bool arrow_room(const struct table_desc *d, unsigned int sort, int width, struct table_fit *fit)
{
	int x = 0;

	for (unsigned int k = 0; k < fit->ncols; k++)
		x += fit->widths[k] + (k ? 1 : 0);
	for (unsigned int k = 0; k < fit->ncols; k++) {
		if (fit->cols[k] != sort)
			continue;
		if ((int)strlen(d->cols[sort].title) < fit->widths[k])
			return true; /* room already */
		if (fit->spark_col >= 0 && fit->spark_w > TABLE_FIT_SPARK_MIN) {
			fit->spark_x++;
			fit->spark_w--;
		} else if (fit->spark_col >= 0 || x >= width) {
			return false;
		}
		fit->widths[k]++;
		return true;
	}
	return false;
}

/* Whether out shows column c. */
static bool fit_has(const struct table_fit *out, unsigned int c)
{
	for (unsigned int k = 0; k < out->ncols; k++)
		if (out->cols[k] == c)
			return true;
	return false;
}

void table_fit_sorted(const struct table_desc *d, const struct table *t, int width, const struct tui_prefs *prefs,
		      unsigned int sort, struct table_fit *out)
{
	bool names = false;
	int first = -1;

	fit_columns(d, t, width, prefs, -1, false, out);
	if (sort < d->ncols && !fit_has(out, sort) && col_may_show(d, t, prefs, sort))
		first = (int)sort; /* the rows' order without the values it is by says little */
	for (unsigned int c = 0; c < d->ncols && c < TABLE_FIT_MAX_COLS; c++)
		names |= name_key(&d->cols[c]) && !fit_has(out, c) && col_may_show(d, t, prefs, c);
	if (names && first < 0 && sort < d->ncols && col_may_show(d, t, prefs, sort))
		first = (int)sort;
	if (first >= 0 || names) /* rows that read the same without their names say little either */
		fit_columns(d, t, width, prefs, first, names, out);
	if (arrow_room(d, sort, width, out) || width < 2)
		return;
	fit_columns(d, t, width - 1, prefs, first, names, out);
	arrow_room(d, sort, width, out);
}

bool table_row_matches(const struct table *t, size_t row, const char *filter)
{
	const struct cell *cells = table_row(t, row);
	char *end;
	unsigned long long num = strtoull(filter, &end, 10);
	bool numeric = *filter && !*end;

	for (unsigned int c = 0; c < t->desc->ncols; c++) {
		const struct col_desc *col = &t->desc->cols[c];

		if (!cells[c].known)
			continue;
		if (col->type == COL_STR && strcasestr(cells[c].s, filter))
			return true;
		if (numeric && col->type == COL_U64 && (col->flags & COL_KEY) && cells[c].u == num)
			return true;
	}
	return false;
}

size_t table_rows_also(const struct table *t, const struct table_state *ts, const char *filter,
		       bool (*also)(const struct table *t, size_t row, const char *filter, void *ctx), void *ctx,
		       size_t *out)
{
	unsigned int col = ts->sort_set ? ts->sort_col : t->desc->sort_col;
	size_t n = 0;

	table_sort(t, col, ts->reverse, out);
	for (size_t i = 0; i < t->nrows; i++)
		if (!filter || !*filter || table_row_matches(t, out[i], filter) ||
		    (also && also(t, out[i], filter, ctx)))
			out[n++] = out[i];
	return n;
}

size_t table_rows(const struct table *t, const struct table_state *ts, const char *filter,
		  size_t *out)
{
	return table_rows_also(t, ts, filter, NULL, NULL, out);
}
