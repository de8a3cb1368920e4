// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the timeline drawn from any bytes as if they were a trace file
 * (--trace FILE.svg draws the trace it wrote; the reader takes nothing on
 * trust all the same). It must draw or refuse, and what it draws must hold the
 * input's names escaped: every '<' one of the drawer's own tags.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/trace_svg.h"

/* Every '<' opens one of the drawer's own tags, and there is no NUL: the input's names were escaped. */
static void check_markup(const char *svg, size_t len)
{
	static const char *const tags[] = { "<?xml ", "<svg ", "</svg>", "<rect ", "<text ", "<text>", "</text>",
					    "<g>", "</g>", "<title>", "</title>", "<line ", "<path " };

	if (memchr(svg, 0, len))
		abort();
	for (const char *p = memchr(svg, '<', len); p; p = memchr(p + 1, '<', len - (size_t)(p + 1 - svg))) {
		size_t i = 0;

		while (i < sizeof(tags) / sizeof(tags[0]) &&
		       ((size_t)(svg + len - p) < strlen(tags[i]) || memcmp(p, tags[i], strlen(tags[i]))))
			i++;
		if (i == sizeof(tags) / sizeof(tags[0]))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int err;

	if (!out)
		return 0;
	err = trace_svg_write(data, size, out, "fuzz");
	fclose(out);
	if (err && err != -EINVAL)
		abort();
	if (!err)
		check_markup(buf, len);
	free(buf);
	return 0;
}
