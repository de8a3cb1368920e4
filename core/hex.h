/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One hexadecimal digit's value, for every parser of hex text (themes, maps, kallsyms). */
#ifndef GPUTOP_HEX_H
#define GPUTOP_HEX_H

/* 0 to 15, or -1 for a character that is not a hex digit. */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
