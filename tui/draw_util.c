// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <curses.h>
#include <langinfo.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "model/histories.h"
#include "tui/draw.h"
#include "tui/sparkline.h"
#include "tui/table_fit.h"

int put(int y, int x, int w, enum role r, const char *text)
{
	int cells = 0;
	size_t bytes = 0;

	if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	while (text[bytes] && cells < w) {
		bytes++;
		while (((unsigned char)text[bytes] & 0xc0) == 0x80)
			bytes++;
		cells++;
	}
	attrset(role_attr(r));
	mvaddnstr(y, x, text, (int)bytes);
	return cells;
}

int put_whole(int y, int x, int w, enum role r, const char *text)
{
	char fit[512];
	int cells = text_fit(text, 1 << 20, true, fit, sizeof(fit));

	return cells <= w ? put(y, x, w, r, text) : 0;
}

int put_columns(int y, int x, int right, enum role first, enum role r, char (*parts)[48], int n)
{
	for (int i = 0; i < n; i++)
		x += put_whole(y, x, right - x, i == 0 ? first : r, parts[i]);
	return x;
}

int put_cut(int y, int x, int w, enum role r, const char *text)
{
	char line[512];
	size_t cut;
	int cells = put_whole(y, x, w, r, text);

	if (cells || w < 3)
		return cells;
	cut = wrap_line(text, w - 2);
	snprintf(line, sizeof(line), "%.*s %s", (int)cut, text, strcmp(nl_langinfo(CODESET), "UTF-8") ? "~" : "…");
	return put(y, x, w, r, line);
}

int putf(int y, int x, int w, enum role r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return put(y, x, w, r, buf);
}

void fill(int y, int x, int w, enum role r)
{
	if (w <= 0 || y < 0 || y >= LINES)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attrset(role_attr(r));
	mvhline(y, x, ' ', w);
}

/* A box's title on its top border, whole: without its parenthesis where it has no room, else its words that fit. */
static void frame_title(struct rect r, const char *title)
{
	const char *paren = strstr(title, " (");
	char text[256];
	size_t cut;

	snprintf(text, sizeof(text), " %s ", title);
	if (put_whole(r.y, r.x + 2, r.w - 4, ROLE_TITLE, text))
		return;
	if (paren) {
		snprintf(text, sizeof(text), " %.*s ", (int)(paren - title), title);
		if (put_whole(r.y, r.x + 2, r.w - 4, ROLE_TITLE, text))
			return;
	}
	cut = wrap_line(title, r.w - 6); /* at a word, never mid-word */
	snprintf(text, sizeof(text), " %.*s ", (int)cut, title);
	put_whole(r.y, r.x + 2, r.w - 4, ROLE_TITLE, text);
}

struct rect frame(struct rect r, const char *title, bool utf8)
{
	if (r.h < 2 || r.w < 4)
		return (struct rect){ 0 };
	attrset(role_attr(ROLE_DIM));
	if (utf8) {
		mvaddstr(r.y, r.x, "┌");
		for (int i = 1; i < r.w - 1; i++)
			addstr("─");
		addstr("┐");
		for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
			mvaddstr(y, r.x, "│");
			mvaddstr(y, r.x + r.w - 1, "│");
		}
		mvaddstr(r.y + r.h - 1, r.x, "└");
		for (int i = 1; i < r.w - 1; i++)
			addstr("─");
		addstr("┘");
	} else {
		mvaddch(r.y, r.x, '+');
		mvhline(r.y, r.x + 1, '-', r.w - 2);
		mvaddch(r.y, r.x + r.w - 1, '+');
		mvvline(r.y + 1, r.x, '|', r.h - 2);
		mvvline(r.y + 1, r.x + r.w - 1, '|', r.h - 2);
		mvaddch(r.y + r.h - 1, r.x, '+');
		mvhline(r.y + r.h - 1, r.x + 1, '-', r.w - 2);
		mvaddch(r.y + r.h - 1, r.x + r.w - 1, '+');
	}
	frame_title(r, title);
	return (struct rect){ r.y + 1, r.x + 1, r.h - 2, r.w - 2 };
}

const char *fmt_rate(double per_s, char *buf, size_t size)
{
	if (per_s >= 1e6)
		snprintf(buf, size, "%.1fM", per_s / 1e6);
	else if (per_s >= 1e4)
		snprintf(buf, size, "%.1fk", per_s / 1e3);
	else
		snprintf(buf, size, "%.1f", per_s);
	return buf;
}

int wrapped_rows(const char *text, int w)
{
	const char *p = text;
	int rows = 0;

	while (*p && w > 0) {
		p += wrap_line(p, w);
		while (*p == ' ')
			p++;
		rows++;
	}
	return rows;
}

/* The longest start of text that ends a sentence (". ", or before a " [" note) and wraps into h rows of w. */
static size_t whole_sentences(const char *text, int w, int h)
{
	char head[1024];
	size_t best = 0, len = strnlen(text, sizeof(head) - 1);

	for (size_t i = 1; i <= len; i++) {
		bool end = i == len || (text[i] == ' ' && text[i - 1] == '.' && !(i >= 3 && text[i - 3] == '.')) ||
			   (text[i] == ' ' && text[i + 1] == '[');

		if (!end)
			continue;
		memcpy(head, text, i);
		head[i] = '\0';
		if (wrapped_rows(head, w) > h)
			break;
		best = i;
	}
	return best;
}

bool wrapped_fits_some(const char *text, int w, int h)
{
	return h > 0 && w > 0 && (wrapped_rows(text, w) <= h || whole_sentences(text, w, h) > 0);
}

int put_wrapped(struct rect a, enum role r, const char *text)
{
	const char *p = text, *end = text + strlen(text);
	int y = a.y;

	if (a.h <= 0 || a.w <= 0)
		return 0;
	if (wrapped_rows(text, a.w) > a.h) /* too long: its whole sentences that fit, never a word cut */
		end = text + whole_sentences(text, a.w, a.h);
	while (p < end && y < a.y + a.h) {
		char line[1024];
		size_t cut;

		snprintf(line, sizeof(line), "%.*s", (int)(end - p), p);
		cut = wrap_line(line, a.w);
		putf(y++, a.x, a.w, r, "%.*s", (int)cut, line);
		p += cut;
		while (*p == ' ')
			p++;
	}
	return y - a.y;
}

int put_wrapped_cut(struct rect a, enum role r, bool utf8, const char *text)
{
	const char *p = text;
	int y = a.y;

	if (a.h <= 0 || a.w <= 1)
		return 0;
	if (wrapped_rows(text, a.w) <= a.h)
		return put_wrapped(a, r, text);
	while (*p && y < a.y + a.h) {
		bool last = y == a.y + a.h - 1;
		size_t cut = wrap_line(p, last ? a.w - 1 : a.w); /* the last keeps a cell for its ellipsis */

		putf(y++, a.x, a.w, r, "%.*s%s", (int)cut, p, last ? (utf8 ? "…" : "~") : "");
		p += cut;
		while (*p == ' ')
			p++;
	}
	return y - a.y;
}

int parts_rows(const char *const *parts, int n, int w, int gap)
{
	int rows = 1, x = 0;

	for (int i = 0; i < n; i++) {
		char fit[512];
		int pw = text_fit(parts[i], 1 << 20, true, fit, sizeof(fit)), sp = x ? gap : 0;

		if (x && x + sp + pw > w) {
			rows++;
			x = 0, sp = 0;
		}
		x += sp + (pw <= w - x ? pw : 0);
	}
	return rows;
}

int put_parts(struct rect a, enum role r, const char *const *parts, int n, int gap)
{
	int y = a.y, x = a.x;

	for (int i = 0; i < n && y < a.y + a.h; i++) {
		char fit[512];
		int w = text_fit(parts[i], 1 << 20, true, fit, sizeof(fit)), sp = x > a.x ? gap : 0;

		if (x > a.x && x + sp + w > a.x + a.w) {
			if (++y >= a.y + a.h)
				break;
			x = a.x, sp = 0;
		}
		x += sp + put_whole(y, x + sp, a.x + a.w - x - sp, r, parts[i]);
	}
	return y - a.y + 1;
}

#define SPARK_AXIS 12 /* "0-1.62ms ": the scale a detail sparkline is drawn on, before it */

/* "0-MAX" in col's unit: the scale of a sparkline of the n values of v drawn in w cells (their largest, or 100 %). */
static void spark_axis(const struct col_desc *col, const double *v, size_t n, size_t w, char *out, size_t size)
{
	struct cell c = { .known = true };
	double max = spark_max(col), top = 0;
	char num[32];

	for (size_t i = n > w ? n - w : 0; max <= 0 && i < n; i++)
		if (v[i] > top)
			top = v[i];
	if (max > 0)
		top = max;
	if (col->type == COL_U64)
		c.u = (uint64_t)top;
	else
		c.f = top;
	if (col->unit == UNIT_PCT)
		snprintf(out, size, "0-%.0f%%", top);
	else
		snprintf(out, size, "0-%s", cell_format(col, &c, num, sizeof(num)));
}

bool spark_known(struct view *v, const struct table *t, size_t row, const char *key)
{
	int col = table_col(t->desc, key);
	const struct history *h = col < 0 ? NULL : histories_get(v->histories, t, row, (unsigned int)col);
	double vals[HISTORY_LEN];
	size_t n = h ? history_read(h, vals, HISTORY_LEN) : 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(vals[i]))
			return true;
	return false;
}

void draw_spark_rows(struct view *v, int y, int bands, struct rect a, const char *label, const struct table *t,
		     size_t row, const char *key)
{
	int col = table_col(t->desc, key);
	const struct history *h = col < 0 ? NULL : histories_get(v->histories, t, row, (unsigned int)col);
	double vals[HISTORY_LEN];
	char spark[512], axis[48];
	size_t n = h ? history_read(h, vals, HISTORY_LEN) : 0, known = 0;
	int base = y; /* the label and scale on the top band: read as the title of the chart below it */
	int x = a.x + 1 + putf(base, a.x + 1, a.w, ROLE_LABEL, "%-12s ", label), w = a.w - (x - a.x) - 1 - SPARK_AXIS,
	    cells = 0;

	for (size_t i = 0; i < n; i++)
		known += !isnan(vals[i]);
	if (!known || w < 1) { /* a label over nothing would look like a zero */
		put(base, x, a.w - (x - a.x), ROLE_DIM, "- (no value known yet)");
		return;
	}
	spark_axis(&t->desc->cols[col], vals, n, (size_t)w, axis, sizeof(axis));
	put_whole(base, x, SPARK_AXIS - 1, ROLE_DIM, axis);
	x += SPARK_AXIS;
	/* the top band first (the label's row), the bottom one (zero's glyph) last */
	for (int b = bands - 1; b >= 0; b--, y++) {
		cells = (int)sparkline_band(vals, n, (size_t)w, spark_max(&t->desc->cols[col]), b, bands, v->utf8,
					    spark, sizeof(spark));
		/* the newest sample at the right edge: the rows of a pane share one width and one time axis */
		put(y, x + w - cells, cells, ROLE_SPARK, spark);
	}
	spark_unknown_dots(v, y - 1, x + w, vals, n, cells, ROLE_DIM); /* no job ran: a dim dot, not a gap */
}

void draw_spark_row(struct view *v, int y, struct rect a, const char *label, const struct table *t, size_t row,
		    const char *key)
{
	draw_spark_rows(v, y, 1, a, label, t, row, key);
}

void spark_unknown_dots(const struct view *v, int y, int end, const double *vals, size_t n, int cells,
			enum role role)
{
	for (int i = 0; i < cells; i++)
		if (isnan(vals[n - (size_t)cells + (size_t)i]))
			put(y, end - cells + i, 1, role, v->utf8 ? "·" : " ");
}

double num_or_0(const struct table *t, size_t row, const char *key)
{
	double v = table_num(t, row, key);

	return isnan(v) ? 0 : v;
}

void clear_rect(struct rect r)
{
	for (int i = 0; i < r.h; i++)
		fill(r.y + i, r.x, r.w, ROLE_NORMAL);
}

void draw_drill_gone(struct view *v, struct rect a, const char *what, const char *why)
{
	putf(a.y, a.x + 1, a.w - 2, ROLE_TITLE, "%s %s   (Esc goes back)", what, v->detail_key);
	put(a.y + 1, a.x + 1, a.w - 2, ROLE_WARNING, why);
}

struct rect popup(int h, int w, const char *title, bool utf8)
{
	struct rect r = { (LINES - h) / 2, (COLS - w) / 2, h, w };

	if (r.x < 0)
		r.x = 0, r.w = COLS;
	if (r.y < 0)
		r.y = 0, r.h = LINES;
	/* the whole lines it spans cleared, not only its box: no cut word of the screen beside its border */
	for (int i = 0; i < r.h; i++)
		fill(r.y + i, 0, COLS, ROLE_NORMAL);
	return frame(r, title, utf8);
}

void list_more(const struct view *v, struct rect in, int above, int below)
{
	char text[40];

	if (above) {
		snprintf(text, sizeof(text), " %s %d more ", v->utf8 ? "↑" : "^", above);
		put(in.y - 1, in.x + in.w - 12, 12, ROLE_TITLE, text);
	}
	if (below) {
		snprintf(text, sizeof(text), " %s %d more ", v->utf8 ? "↓" : "v", below);
		put(in.y + in.h, in.x + in.w - 12, 12, ROLE_TITLE, text);
	}
}

double spark_max(const struct col_desc *col)
{
	return col->unit == UNIT_PCT ? 100 : 0;
}
