// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "core/decimal.h"

char *decimal_u64(uint64_t n, char *end)
{
	do {
		*--end = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	return end;
}

bool decimal_text(const char *text)
{
	bool digit = false, point = false;

	for (const char *c = text; *c; c++) {
		if (*c >= '0' && *c <= '9')
			digit = true;
		else if (*c == '.' && !point)
			point = true;
		else
			return false;
	}
	return digit;
}
