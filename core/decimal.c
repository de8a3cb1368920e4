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
