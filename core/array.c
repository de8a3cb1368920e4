// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "core/array.h"

void *array_push(void *items, size_t *n, size_t *cap, size_t size)
{
	void **p = items;
	char *item;

	if (*n == *cap) {
		size_t grown = *cap ? *cap * 2 : 16;
		void *q = reallocarray(*p, grown, size);

		if (!q)
			return NULL;
		*p = q;
		*cap = grown;
	}
	item = (char *)*p + (*n)++ * size;
	memset(item, 0, size);
	return item;
}
