// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "symbols/folded.h"

static bool needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == ';' || c == '\\';
}

/* Bytes of the UTF-8 character that starts with c (1 for a stray byte: it is kept alone). */
static size_t char_len(const unsigned char *s, size_t left)
{
	size_t n = 1, i;

	if ((s[0] & 0xe0) == 0xc0)
		n = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4;

	if (n > left)
		return 1;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

static const char hex[] = "0123456789abcdef";

size_t folded_escape(const char *in, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, left = strlen(in), need = 0, i;

	if (size < 4) /* room for "..." at least */
		return size ? (out[0] = '\0', 0) : 0;
	if (!left)
		in = "[unknown]", s = (const unsigned char *)in, left = strlen(in);
	for (i = 0; i < left; i++)
		need += needs_escape(s[i]) ? 4 : 1;
	while (left) {
		size_t n = needs_escape(*s) ? 1 : char_len(s, left);
		size_t w = needs_escape(*s) ? 4 : n;

		if (o + w + (need > size - 1 ? 3 : 0) > size - 1) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (needs_escape(*s)) {
			out[o] = '\\', out[o + 1] = 'x', out[o + 2] = hex[*s >> 4],
			out[o + 3] = hex[*s & 15];
		} else {
			memcpy(out + o, s, n);
		}
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
	for (const unsigned char *s = (const unsigned char *)joined; *s; s++)
		if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\x%c%c", hex[*s >> 4], hex[*s & 15]);
		else
			fputc(*s, f);
}
