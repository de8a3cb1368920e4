/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Text files of other users' making (maps, perf maps, kallsyms) read whole
 * with a size cap, cut into lines, and their hexadecimal fields parsed
 * strictly: nothing here trusts a length, a terminator or a digit count.
 */
#ifndef GPUTOP_SYMBOLS_TEXT_H
#define GPUTOP_SYMBOLS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Reads fd to its end, at most max bytes, into a new buffer (NUL-terminated
 * after *len bytes). 0, -EFBIG when the file holds more than max, or -errno.
 */
int text_read_fd(int fd, size_t max, char **out, size_t *len);

/* The same of a file by its path (opened read-only, not as a terminal). */
int text_read_path(const char *path, size_t max, char **out, size_t *len);

/*
 * The next line of [*pos, end) (without its '\n') in *line and *len; moves
 * *pos past it. False at the end.
 */
bool text_next_line(const char **pos, const char *end, const char **line, size_t *len);

/*
 * A hexadecimal number of 1 to 16 digits (an optional "0x" first) at the start
 * of [*p, end); moves *p past it. False (and *p unmoved) when there is none,
 * or when more digits follow than fit in 64 bits.
 */
bool text_hex(const char **p, const char *end, uint64_t *out);

/* Moves *p past spaces and tabs; true if it moved. */
bool text_skip_blanks(const char **p, const char *end);

#endif
