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
