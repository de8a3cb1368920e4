/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A fixed-length history of one metric, oldest first, for sparklines. */
#ifndef GPUTOP_HISTORY_H
#define GPUTOP_HISTORY_H

#include <stddef.h>

#define HISTORY_LEN 120

struct history {
	float values[HISTORY_LEN]; /* a sparkline's precision: half the memory of 70,000 rows' histories */
	unsigned int head; /* next slot to write */
	unsigned int count; /* valid values, <= HISTORY_LEN */
};

void history_push(struct history *h, double v);
/* Copies up to max values, oldest first; returns how many. */
size_t history_read(const struct history *h, double *out, size_t max);
double history_last(const struct history *h);

#endif
