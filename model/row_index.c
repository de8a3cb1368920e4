// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include "model/row_index.h"

bool row_key(double a, double b, uint64_t *key)
{
	if (!(a >= 0 && a < 4294967296.0 && a == floor(a) && b >= 0 && b < 4294967296.0 && b == floor(b)))
		return false; /* NAN fails every comparison */
	*key = (uint64_t)a << 32 | (uint64_t)b;
	return true;
}

int row_index_build(struct key_index *ki, const struct table *t, const char *col_a, const char *col_b)
{
	for (size_t r = 0; t && r < t->nrows && r < KEY_INDEX_EMPTY; r++) {
		uint64_t key;
		uint32_t first;

		if (!row_key(table_num(t, r, col_a), col_b ? table_num(t, r, col_b) : 0, &key) ||
		    key_index_get(ki, key, &first))
			continue;
		if (key_index_put(ki, key, (uint32_t)r))
			return -1;
	}
	return 0;
}

bool row_index_find(const struct key_index *ki, double a, double b, size_t *row)
{
	uint64_t key;
	uint32_t r;

	if (!row_key(a, b, &key) || !key_index_get(ki, key, &r))
		return false;
	*row = r;
	return true;
}
