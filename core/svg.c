// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <strings.h>
#include "core/svg.h"

bool svg_path(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcasecmp(path + n - 4, ".svg");
}

void svg_put_text(FILE *out, const char *s, size_t max)
{
	size_t chars = 0, total = 0;

	for (const char *p = s; *p; p++)
		total += ((unsigned char)*p & 0xc0) != 0x80;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c & 0xc0) != 0x80 && ++chars > (total > max ? max - 2 : max))
			break;
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
		}
	}
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
