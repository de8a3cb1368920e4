/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* An independent judge of UTF-8 for the tests: glibc iconv (refuses surrogates, overlongs). */
#ifndef GPUTOP_UTF8_JUDGE_H
#define GPUTOP_UTF8_JUDGE_H

#include <iconv.h>
#include <stdbool.h>
#include <string.h>
#include "tests/unit/cmocka_all.h"

/* Whether s[0..n) (at most 1024 characters) is valid UTF-8 without a NUL. */
static inline bool utf8_judge_valid(const void *s, size_t n)
{
	iconv_t cd = iconv_open("UTF-32LE", "UTF-8");
	char out[4 * 1024], *in = (char *)s, *o = out;
	size_t inleft = n, outleft = sizeof(out), r;

	assert_true(cd != (iconv_t)-1);
	r = iconv(cd, &in, &inleft, &o, &outleft);
	iconv_close(cd);
	return r != (size_t)-1 && !inleft && !memchr(s, '\0', n);
}

#endif
