// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <float.h>
#include "model/history.h"

void history_push(struct history *h, double v)
{
	if (v > FLT_MAX) /* out of float's range the conversion is undefined */
		v = FLT_MAX;
	else if (v < -FLT_MAX)
		v = -FLT_MAX;
	h->values[h->head] = (float)v;
	h->head = (h->head + 1) % HISTORY_LEN;
	if (h->count < HISTORY_LEN)
		h->count++;
}

size_t history_read(const struct history *h, double *out, size_t max)
{
	size_t n = h->count < max ? h->count : max;
	unsigned int start = (h->head + HISTORY_LEN - n) % HISTORY_LEN;

	for (size_t i = 0; i < n; i++)
		out[i] = h->values[(start + i) % HISTORY_LEN];
	return n;
}

double history_last(const struct history *h)
{
	if (!h->count)
		return 0;
	return h->values[(h->head + HISTORY_LEN - 1) % HISTORY_LEN];
}
