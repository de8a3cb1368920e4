/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Bytes that others chose (process, thread and ring names) made into valid
 * UTF-8 for formats that require it (Perfetto's strings): whatever the locale,
 * every byte that does not start a valid sequence (a stray continuation, an
 * overlong form, a surrogate, past U+10FFFF, a truncated sequence) and every NUL
 * becomes U+FFFD; the result is cut, at a character boundary, to what fits.
 */
#ifndef GPUTOP_UTF8_CLEAN_H
#define GPUTOP_UTF8_CLEAN_H

#include <stdbool.h>
#include <stddef.h>

#define UTF8_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD, what a byte that starts no character becomes */
#define UTF8_REPLACEMENT_LEN 3

/*
 * in[0..in_len) as valid UTF-8 without NUL into out (out_size > 0 bytes, NUL-
 * terminated). Returns the bytes written (without the NUL); *cut (may be NULL)
 * says whether the input was longer than what fit.
 */
size_t utf8_clean(const char *in, size_t in_len, char *out, size_t out_size, bool *cut);

/* Bytes of the valid UTF-8 character at p (n bytes there), 0 where none starts. */
size_t utf8_char_len(const unsigned char *p, size_t n);

#endif
