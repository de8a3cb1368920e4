// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <strings.h>
#include "core/svg.h"
#include "core/utf8_clean.h"

bool svg_path(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcasecmp(path + n - 4, ".svg");
}

/* One character of s (left bytes) as XML text; the bytes it took. */
static size_t put_char(FILE *out, const char *s, size_t left)
{
	unsigned char c = (unsigned char)*s;
	size_t n = utf8_char_len((const unsigned char *)s, left);

	switch (n ? c : 0x80) {
	case '&':
		fputs("&amp;", out);
		break;
	case '<':
		fputs("&lt;", out);
		break;
	case '>':
		fputs("&gt;", out);
		break;
	case '"':
		fputs("&quot;", out);
		break;
	case '\'':
		fputs("&apos;", out);
		break;
	case 0x80: /* a byte that starts no character */
		fputs(UTF8_REPLACEMENT, out);
		break;
	default:
		if (c < 0x20 || c == 0x7f) /* XML 1.0 allows no control character but tab and newlines */
			fputc('?', out);
		else
			fwrite(s, 1, n, out);
	}
	return n ? n : 1;
}

void svg_put_text(FILE *out, const char *s, size_t max)
{
	size_t chars = 0, total = 0, left = strlen(s), n;

	for (size_t i = 0; i < left; i += n, total++)
		n = utf8_char_len((const unsigned char *)s + i, left - i) ?: 1;
	for (; left && ++chars <= (total > max ? max - 2 : max); s += n, left -= n)
		n = put_char(out, s, left);
	if (total > max)
		fputs("..", out);
}

uint32_t svg_name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

void svg_begin(FILE *out, double width, double height, int font_px, int title_px, int title_y)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		     "viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"%d\">\n"
		     "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
		     "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\">",
		width, height, width, height, font_px, width / 2, title_y, title_px);
}
