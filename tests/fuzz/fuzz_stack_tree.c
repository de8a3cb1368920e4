// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the Stacks view's call tree (tui/stack_tree.c) from rows others
 * chose. The input is rows, one a line: "PID\tCOMM\tFRAMES\tLEAF\tCOUNT".
 * Whatever the rows, every node's inclusive weight is its self plus its
 * children's, the depth stays within STACK_DEPTH_MAX frames, names within
 * STACK_NAME_MAX bytes, and the lines list each shown node once.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tui/stack_tree.h"

static bool all_open(void *ctx, const struct stack_node *n)
{
	(void)ctx, (void)n;
	return true;
}

static void check(const struct stack_tree *t)
{
	uint32_t *lines = malloc(t->n * sizeof(*lines));
	size_t n;

	for (size_t i = 0; i < t->n; i++) {
		const struct stack_node *nd = &t->nodes[i];
		double sum = nd->self[TW_LAUNCHES];

		for (uint32_t k = nd->first_child; k != STACK_NONE; k = t->nodes[k].next_sibling)
			sum += t->nodes[k].incl[TW_LAUNCHES];
		if (fabs(sum - nd->incl[TW_LAUNCHES]) > 1e-6 * (1 + sum) || nd->depth > STACK_DEPTH_MAX + 3 ||
		    strlen(nd->name) >= STACK_NAME_MAX)
			abort();
	}
	if (!lines)
		return;
	n = stack_tree_lines(t, TW_LAUNCHES, all_open, NULL, lines, t->n);
	if (n > t->n - 1)
		abort();
	free(lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *line, *save = NULL;
	struct stack_tree t;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	if (!stack_tree_init(&t)) {
		free(copy);
		return 0;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[5] = { line, "", "", "", "1" };
		double w[TW_COUNT] = { NAN, NAN, NAN, NAN, NAN, NAN };

		for (int i = 1; i < 5; i++) {
			char *tab = strchr(f[i - 1], '\t');

			if (!tab)
				break;
			*tab = '\0';
			f[i] = tab + 1;
		}
		w[TW_LAUNCHES] = (double)strtoul(f[4], NULL, 10);
		stack_tree_add(&t, (uint32_t)strtoul(f[0], NULL, 10), f[1], f[2], f[3], w);
	}
	check(&t);
	stack_tree_free(&t);
	free(copy);
	return 0;
}
