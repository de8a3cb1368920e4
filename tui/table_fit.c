// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "table_fit.h"

/* The history the table draws: the COL_SPARK one, else the first. */
static int spark_column(const struct table_desc *d)
{
	int first = -1;

	for (unsigned int c = 0; c < d->ncols; c++) {
		if (!(d->cols[c].flags & COL_HISTORY))
			continue;
		if (d->cols[c].flags & COL_SPARK)
			return (int)c;
		if (first < 0)
			first = (int)c;
	}
	return first;
}

void table_fit_columns(const struct table_desc *d, int width, struct table_fit *out)
{
	bool take[TABLE_FIT_MAX_COLS] = { false };
	int x = 0, spark = spark_column(d), room = width;

	memset(out, 0, sizeof(*out));
	out->spark_col = -1;
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

			if ((col->flags & COL_DETAIL) || !!(col->flags & COL_WIDE) != pass)
				continue;
			if (x + need > room)
				continue; /* a narrower column further right may still fit */
			take[c] = true;
			x += need;
		}
	}
	for (unsigned int c = 0; c < d->ncols && c < TABLE_FIT_MAX_COLS; c++)
		if (take[c])
			out->cols[out->ncols++] = c;
	if (spark >= 0 && width - x - 1 >= TABLE_FIT_SPARK_MIN) {
		out->spark_col = spark;
		out->spark_x = x + 1;
		out->spark_w = width - x - 1;
	}
}

/* Cells and bytes of the character at p; *cells -1 for a byte that is not valid UTF-8. */
static size_t char_at(const char *p, int *cells)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int w;

	if ((unsigned char)*p < 0x80) {
		*cells = 1;
		return 1;
	}
	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, p, strnlen(p, 4), &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*cells = -1;
		return 1;
	}
	w = wcwidth(wc);
	*cells = w < 0 ? -1 : w;
	return n;
}

int text_fit(const char *in, int width, bool utf8, char *out, size_t outsize)
{
	const char *ell = utf8 ? "\xe2\x80\xa6" : "~";
	size_t w = 0, ell_len = strlen(ell);
	int cells = 0;

	if (!outsize)
		return 0;
	out[0] = '\0';
	if (width <= 0)
		return 0;
	for (const char *p = in; *p;) {
		int c;
		size_t n = char_at(p, &c);
		bool ctl = (unsigned char)*p < 0x20 || *p == 0x7f || c < 0;
		int need = ctl ? 1 : c;
		int rest_cells = 0;

		/* Does everything from here fit? If not, leave a cell for the ellipsis. */
		for (const char *q = p; *q && rest_cells <= width - cells;) {
			int qc;

			q += char_at(q, &qc);
			rest_cells += qc < 0 ? 1 : qc;
		}
		if (cells + rest_cells <= width) {
			/* the remainder fits: copy it */
		} else if (cells + need > width - 1) {
			if (w + ell_len < outsize) {
				memcpy(out + w, ell, ell_len);
				w += ell_len;
				cells++;
			}
			break;
		}
		if (w + (ctl ? 1 : n) >= outsize)
			break;
		if (ctl) {
			out[w++] = '?';
		} else {
			memcpy(out + w, p, n);
			w += n;
		}
		cells += need;
		p += n;
	}
	out[w] = '\0';
	return cells;
}

size_t wrap_line(const char *text, int width)
{
	size_t len = strlen(text), last_space = 0, i = 0;
	int cells = 0;

	while (i < len) {
		int c;
		size_t n = char_at(text + i, &c);

		if (c < 0)
			c = 1;
		if (cells + c > width)
			break;
		if (text[i] == ' ')
			last_space = i;
		cells += c;
		i += n;
	}
	if (i >= len)
		return len;
	if (last_space)
		return last_space; /* break at the last space that fits */
	return i ? i : 1; /* one word longer than the line: cut it */
}

static bool row_matches(const struct table *t, size_t row, const char *filter)
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

size_t table_rows(const struct table *t, const struct table_state *ts, const char *filter,
		  size_t *out)
{
	unsigned int col = ts->sort_set ? ts->sort_col : t->desc->sort_col;
	size_t n = 0;

	table_sort(t, col, ts->reverse, out);
	for (size_t i = 0; i < t->nrows; i++)
		if (!filter || !*filter || row_matches(t, out[i], filter))
			out[n++] = out[i];
	return n;
}
