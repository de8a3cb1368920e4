/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Folded lines of the same text summed into one: two stacks told apart where
 * they were taken (two processes of one command, two chains that symbolize
 * alike) make one line, as a flame graph adds them. Kept in the order first
 * seen; written at the end.
 */
#ifndef GPUTOP_SYMBOLS_FOLDED_SUM_H
#define GPUTOP_SYMBOLS_FOLDED_SUM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct folded_sum_line {
	char *text; /* "root;...;leaf", without the weight */
	uint64_t weight;
};

struct folded_sum {
	struct folded_sum_line *lines;
	size_t n, cap;
	uint32_t *slots; /* a line's index + 1; 0: free. nslots a power of two, at most half full */
	size_t nslots;
};

/* weight added to text's line (a new line at its first); 0, or -ENOMEM (nothing added). */
int folded_sum_add(struct folded_sum *fs, const char *text, uint64_t weight);
/* Every line as "text weight\n"; 0, or -EIO. */
int folded_sum_write(const struct folded_sum *fs, FILE *f);
void folded_sum_free(struct folded_sum *fs);

#endif
