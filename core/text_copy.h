/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A bounded copy of a string, without printf's parsing of a "%s" on a hot path; a kept copy replaced. */
#ifndef GPUTOP_CORE_TEXT_COPY_H
#define GPUTOP_CORE_TEXT_COPY_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* src into dst of size bytes (size > 0), cut to size - 1 bytes and ended; the bytes copied. */
static inline size_t text_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}

/* *slot replaced by a copy of text (the old one freed); the copy, or NULL: no memory (*slot kept). */
static inline const char *text_dup_into(char **slot, const char *text)
{
	char *copy = strdup(text);

	if (!copy)
		return NULL;
	free(*slot);
	return *slot = copy;
}

#endif
