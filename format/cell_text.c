// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Text that is safe on a terminal and fits a number of cells (cell_text.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "format/cell_text.h"

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

/* A control character or a byte that is not UTF-8 (c < 0): shown as '?'. */
static bool is_control(const char *p, int c)
{
	return (unsigned char)*p < 0x20 || *p == 0x7f || c < 0;
}

/* The character at p (n bytes) put at out + w, a control as '?'; the new length. */
static size_t put_char(char *out, size_t w, const char *p, size_t n, bool ctl)
{
	if (ctl) {
		out[w] = '?';
		return w + 1;
	}
	memcpy(out + w, p, n);
	return w + n;
}

/* When all of in fits width cells (and outsize bytes): copies it, controls as '?', and says so. */
static bool fits_whole(const char *in, int width, char *out, size_t outsize, int *cells)
{
	size_t w = 0;
	int used = 0;

	for (const char *p = in; *p;) {
		int c;
		size_t n;
		bool ctl;

		if ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f) { /* printable ASCII: a cell, a byte */
			if (++used > width || w + 1 >= outsize)
				return false;
			out[w++] = *p++;
			continue;
		}
		n = char_at(p, &c);
		ctl = is_control(p, c);
		used += ctl ? 1 : c;
		if (used > width || w + (ctl ? 1 : n) >= outsize)
			return false;
		w = put_char(out, w, p, n, ctl);
		p += n;
	}
	out[w] = '\0';
	*cells = used;
	return true;
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
	if (fits_whole(in, width, out, outsize, &cells)) /* the usual case, in one pass */
		return cells;
	for (const char *p = in; *p;) {
		int c;
		size_t n = char_at(p, &c);
		bool ctl = is_control(p, c);
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
		w = put_char(out, w, p, n, ctl);
		cells += need;
		p += n;
	}
	out[w] = '\0';
	return cells;
}

/* The start of the word at byte at of in ('_' parts words: "execute_split_k_kernel"). */
static size_t word_start(const char *in, size_t at)
{
	while (at > 0 &&
	       ((in[at - 1] >= '0' && in[at - 1] <= '9') || ((in[at - 1] | 0x20) >= 'a' && (in[at - 1] | 0x20) <= 'z')))
		at--;
	return at;
}

int text_fit_apart(const char *in, size_t from, size_t also, int width, bool utf8, char *out, size_t outsize)
{
	size_t len = strlen(in), used;
	int head, cells, mid;

	from = word_start(in, from > len ? len : from);
	also = also > from && also < len ? word_start(in, also) : 0;
	head = width / (also > from ? 4 : 3);
	cells = text_fit(in, head + 1, utf8, out, outsize); /* head cells and the ellipsis */
	used = strlen(out);
	if (head < 1 || width - cells < 2 || used < 2 || from <= used - (utf8 ? 3 : 1))
		return text_fit(in, width, utf8, out, outsize);
	mid = (width - cells) / 2;
	if (also > from && also - from >= (size_t)mid && mid >= 4) { /* the part from from does not reach also */
		cells += text_fit(in + from, mid, utf8, out + used, outsize - used);
		used = strlen(out);
		from = also;
	}
	return cells + text_fit(in + from, width - cells, utf8, out + used, outsize - used);
}

size_t wrap_line(const char *text, int width)
{
	size_t len = strlen(text), last_space = 0, last_mark = 0, i = 0;
	int cells = 0;

	while (i < len) {
		int c;
		size_t n = char_at(text + i, &c);

		if (c < 0)
			c = 1;
		if (cells + c > width)
			break;
		if (text[i] == ' ' && !(i && isdigit((unsigned char)text[i - 1]) &&
					(isalpha((unsigned char)text[i + 1]) || text[i + 1] == '%')))
			last_space = i; /* not between a number and its unit: "1.0 MiB/s" */
		else if (i && strchr(",;:/(_.-", text[i])) /* a joint inside a long word: "f(a," "x_y" */
			last_mark = i + 1;
		else if (i && cells && text[i - 1] >= 'a' && text[i - 1] <= 'z' && text[i] >= 'A' && text[i] <= 'Z')
			last_mark = i; /* before a capital that starts a part: "cuLaunch|Cooperative" */
		cells += c;
		i += n;
	}
	if (i >= len)
		return len;
	if (last_space)
		return last_space; /* break at the last space that fits */
	if (last_mark)
		return last_mark; /* a word longer than the line: after its last joint that fits */
	return i ? i : 1; /* one word longer than the line, without a joint: cut it */
}

/* n spaces: a cell's padding, without printf's parsing of a format per cell. */
static void put_spaces(FILE *out, int n)
{
	static const char spaces[] = "                                                                ";

	for (; n > 0; n -= (int)sizeof(spaces) - 1)
		fwrite_unlocked(spaces, 1, n < (int)sizeof(spaces) - 1 ? (size_t)n : sizeof(spaces) - 1, out);
}

int text_put_fitted(FILE *out, const char *fitted, size_t bytes, int cells, int width, bool left)
{
	int pad = width > cells ? width - cells : 0;

	if (!left)
		put_spaces(out, pad);
	fwrite_unlocked(fitted, 1, bytes, out);
	if (left)
		put_spaces(out, pad);
	return cells + pad;
}

int text_print_cell(FILE *out, const char *in, int width, bool left, bool utf8)
{
	char buf[TEXT_CELL_MAX];
	int cells = text_fit(in, (int)sizeof(buf) / 4, utf8, buf, sizeof(buf));

	return text_put_fitted(out, buf, strlen(buf), cells, width, left);
}

int text_fit_list(const char *in, int width, bool utf8, char *out, size_t outsize)
{
	char head[TEXT_CELL_MAX], tail[16];
	size_t items = 1, taken = 0, end = 0;
	int cells = text_fit(in, 1 << 20, utf8, out, outsize);

	if (cells <= width || strchr(in, ' ') || !strchr(in, ','))
		return cells <= width ? cells : text_fit(in, width, utf8, out, outsize);
	for (const char *p = in; *p; p++)
		items += *p == ',';
	/* the longest run of whole items that fits beside the count of the rest */
	for (size_t i = 0, n = 0; in[i] && i < sizeof(head); i++) {
		if (in[i] != ',')
			continue;
		n++;
		snprintf(tail, sizeof(tail), " +%zu", items - n);
		memcpy(head, in, i);
		head[i] = '\0';
		if (text_fit(head, 1 << 20, utf8, out, outsize) + (int)strlen(tail) > width)
			break;
		taken = n;
		end = i;
	}
	if (!taken)
		return text_fit(in, width, utf8, out, outsize);
	memcpy(head, in, end);
	snprintf(head + end, sizeof(head) - end, " +%zu", items - taken);
	return text_fit(head, width, utf8, out, outsize);
}

static bool id_edge(char c)
{
	return !c || c == '/' || c == '-' || c == '.' || c == ':';
}

void text_short_ids(const char *in, char *out, size_t outsize)
{
	size_t w = 0;

	if (!outsize)
		return;
	for (size_t i = 0; in[i] && w + 1 < outsize;) {
		size_t n = 0;

		while ((!i || id_edge(in[i - 1])) && isxdigit((unsigned char)in[i + n]))
			n++;
		if (n >= 32 && id_edge(in[i + n])) { /* a whole component of hex: its first 12 */
			for (size_t k = 0; k < 12 && w + 1 < outsize; k++)
				out[w++] = in[i + k];
			i += n;
			continue;
		}
		out[w++] = in[i++];
	}
	out[w] = '\0';
}
