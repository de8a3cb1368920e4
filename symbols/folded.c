// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "core/utf8_clean.h"
#include "symbols/folded.h"

static bool needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == ';' || c == '\\';
}

static const char hex[] = "0123456789abcdef";

/*
 * The next character of s (left bytes): *n bytes of it taken, the bytes it
 * writes returned: an escape (4), a valid UTF-8 character as it is, or U+FFFD
 * (3) for a byte that starts none.
 */
static size_t next_char(const unsigned char *s, size_t left, size_t *n)
{
	if (needs_escape(*s))
		return *n = 1, 4;
	*n = utf8_char_len(s, left);
	if (!*n)
		return *n = 1, UTF8_REPLACEMENT_LEN;
	return *n;
}

/* The character next_char measured, written at out. */
static void put_char(const unsigned char *s, size_t n, size_t w, char *out)
{
	if (w == 4 && n == 1)
		out[0] = '\\', out[1] = 'x', out[2] = hex[*s >> 4], out[3] = hex[*s & 15];
	else if (w == UTF8_REPLACEMENT_LEN && n == 1)
		memcpy(out, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
	else
		memcpy(out, s, n);
}

size_t folded_escape(const char *in, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, left = strlen(in), need = 0, n, i;

	if (size < 4) /* room for "..." at least */
		return size ? (out[0] = '\0', 0) : 0;
	if (!left)
		in = "[unknown]", s = (const unsigned char *)in, left = strlen(in);
	for (i = 0; i < left; i += n)
		need += next_char(s + i, left - i, &n);
	while (left) {
		size_t w = next_char(s, left, &n);

		if (o + w + (need > size - 1 ? 3 : 0) > size - 1) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		put_char(s, n, w, out + o);
		o += w, s += n, left -= n;
	}
	out[o] = '\0';
	return o;
}

/* frames[i] as escaped text into esc (4 bytes a byte at most); its length. */
static size_t frame_escaped(const struct frame *f, char *esc, size_t size)
{
	char text[FRAME_NAME_MAX + FRAME_MODULE_MAX + 32];

	frame_text(f, false, text, sizeof(text));
	return folded_escape(text, esc, size);
}

bool folded_join(const struct frame *frames, size_t n, bool truncated, char *out)
{
	char esc[4 * (FRAME_NAME_MAX + FRAME_MODULE_MAX + 32)];
	const size_t mark = sizeof(FOLDED_TRUNCATED); /* "[truncated];" */
	size_t len = 0, kept = 0, o = 0, i;

	if (n > FOLDED_FRAMES_MAX) {
		n = FOLDED_FRAMES_MAX; /* the leaf end kept */
		truncated = true;
	}
	for (; kept < n; kept++) { /* leaf first, as many as fit (with the mark where cut) */
		size_t w = frame_escaped(&frames[kept], esc, sizeof(esc)) + (kept ? 1 : 0);
		size_t reserve = kept + 1 < n || truncated ? mark : 0;

		if (len + w + reserve >= FOLDED_TEXT_MAX)
			break;
		len += w;
	}
	truncated |= kept < n;
	out[0] = '\0';
	if (truncated) {
		memcpy(out, FOLDED_TRUNCATED, mark);
		o = mark - 1;
	}
	for (i = kept; i-- > 0;) {
		size_t w = frame_escaped(&frames[i], esc, sizeof(esc));

		if (o)
			out[o++] = ';';
		memcpy(out + o, esc, w + 1);
		o += w;
	}
	return truncated;
}

int folded_write(FILE *f, const struct frame *frames, size_t n, bool truncated, uint64_t weight)
{
	static char line[FOLDED_TEXT_MAX];

	folded_join(frames, n, truncated, line);
	fprintf(f, "%s %" PRIu64 "\n", *line ? line : "[unknown]", weight);
	return ferror(f) ? -EIO : 0;
}

void folded_put_joined(FILE *f, const char *joined)
{
	const unsigned char *s = (const unsigned char *)joined;
	size_t left = strlen(joined), n;
	char c[4];

	for (; left; s += n, left -= n) {
		/* control bytes escaped; ';' and '\\' kept: the text is joined and escaped already */
		size_t w = *s == ';' || *s == '\\' ? (n = 1) : next_char(s, left, &n);

		put_char(s, n, w, c);
		fwrite(c, 1, w, f);
	}
}
