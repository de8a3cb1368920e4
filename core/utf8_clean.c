// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Valid UTF-8 from any bytes, locale-independent (utf8_clean.h). */
#include <string.h>
#include "core/utf8_clean.h"

/* Allowed range of the second byte after lead byte b (RFC 3629's table); 0 when b leads nothing. */
static size_t lead_range(unsigned char b, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef) {
		if (b == 0xe0)
			*lo = 0xa0; /* no overlong forms */
		else if (b == 0xed)
			*hi = 0x9f; /* no surrogates */
		return 3;
	}
	if (b >= 0xf0 && b <= 0xf4) {
		if (b == 0xf0)
			*lo = 0x90;
		else if (b == 0xf4)
			*hi = 0x8f; /* nothing past U+10FFFF */
		return 4;
	}
	return 0;
}

size_t utf8_char_len(const unsigned char *p, size_t n)
{
	unsigned char lo, hi;
	size_t len;

	if (!n || !p[0])
		return 0;
	if (p[0] < 0x80)
		return 1;
	len = lead_range(p[0], &lo, &hi);
	if (!len || n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

size_t utf8_clean(const char *in, size_t in_len, char *out, size_t out_size, bool *cut)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t w = 0, i = 0;

	while (i < in_len) {
		size_t n = utf8_char_len(p + i, in_len - i);
		const char *src = n ? in + i : UTF8_REPLACEMENT;
		size_t put = n ? n : UTF8_REPLACEMENT_LEN;

		if (w + put + 1 > out_size)
			break;
		memcpy(out + w, src, put);
		w += put;
		i += n ? n : 1;
	}
	if (out_size)
		out[w] = '\0';
	if (cut)
		*cut = i < in_len;
	return w;
}
