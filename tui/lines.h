/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Line-by-line parsing of small settings files, with "FILE:LINE: reason" errors. */
#ifndef GPUTOP_LINES_H
#define GPUTOP_LINES_H

#include <stddef.h>

/* Parses one line (writable, no newline); NULL when good, else what is wrong. */
typedef const char *(*line_parser)(char *line, void *ctx);

/*
 * Calls parse on every line of text. Bad lines are skipped; the first is
 * described in err as "FILE:LINE: reason". Returns how many were bad, -1 on
 * allocation failure.
 */
int lines_parse(const char *text, const char *filename, line_parser parse, void *ctx, char *err,
		size_t errlen);

#endif
