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

size_t folded_escape(const char *in, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
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

int folded_write(FILE *f, const struct frame *frames, size_t n, bool truncated, uint64_t weight)
{
	char text[FRAME_NAME_MAX + FRAME_MODULE_MAX + 32], esc[4 * sizeof(text)];
	size_t i;
	bool first = true;

	if (n > FOLDED_FRAMES_MAX) {
		n = FOLDED_FRAMES_MAX; /* the leaf end kept */
		truncated = true;
	}
	if (truncated) {
		fputs(FOLDED_TRUNCATED, f);
		first = false;
	}
	for (i = n; i-- > 0;) {
		frame_text(&frames[i], false, text, sizeof(text));
		folded_escape(text, esc, sizeof(esc));
		if (!first)
			fputc(';', f);
		fputs(esc, f);
		first = false;
	}
	if (first)
		fputs("[unknown]", f); /* no frame at all: still a line of the format */
	fprintf(f, " %" PRIu64 "\n", weight);
	return ferror(f) ? -EIO : 0;
}
