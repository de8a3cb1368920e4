// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui/lines.h"

int lines_parse(const char *text, const char *filename, line_parser parse, void *ctx, char *err,
		size_t errlen)
{
	char *line = malloc(strlen(text) + 1);
	int lineno = 0, bad = 0;
	const char *p = text;

	if (!line) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *why;

		lineno++;
		memcpy(line, p, len);
		line[len] = '\0';
		why = parse(line, ctx);
		if (why && !bad++)
			snprintf(err, errlen, "%s:%d: %s", filename, lineno, why);
		p = nl ? nl + 1 : NULL;
	}
	free(line);
	return bad;
}
