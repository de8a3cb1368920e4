// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "tui/table_tree.h"

bool table_tree_applies(const struct table_desc *d)
{
	int pid = table_col(d, "pid"), cg = table_col(d, "cgroup");

	return pid >= 0 && (d->cols[pid].flags & COL_KEY) && cg >= 0 && d->cols[cg].type == COL_STR;
}

static const char *group_of(const struct table *t, size_t row)
{
	return table_str(t, row, "cgroup");
}

/* A row by its container, then by where it stood in the sorted order. */
struct slot {
	const char *group;
	size_t pos, first; /* first: where its group's first row stood */
	size_t row;
};

static int by_group(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static int by_first(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->first != y->first)
		return (x->first > y->first) - (x->first < y->first);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

bool table_tree_order(const struct table *t, size_t *rows, size_t n)
{
	struct slot *s = n ? calloc(n, sizeof(*s)) : NULL;

	if (n && !s)
		return false;
	for (size_t i = 0; i < n; i++)
		s[i] = (struct slot){ group_of(t, rows[i]), i, 0, rows[i] };
	qsort(s, n, sizeof(*s), by_group);
	for (size_t i = 0; i < n; i++) /* sorted by group then position: a group's first is its lowest */
		s[i].first = i && !strcmp(s[i].group, s[i - 1].group) ? s[i - 1].first : s[i].pos;
	qsort(s, n, sizeof(*s), by_first);
	for (size_t i = 0; i < n; i++)
		rows[i] = s[i].row;
	free(s);
	return true;
}

bool table_tree_starts_group(const struct table *t, const size_t *rows, size_t i)
{
	return i == 0 || strcmp(group_of(t, rows[i]), group_of(t, rows[i - 1]));
}

size_t table_tree_lines(const struct table *t)
{
	size_t *rows = t->nrows ? calloc(t->nrows, sizeof(*rows)) : NULL, lines = t->nrows;

	for (size_t i = 0; rows && i < t->nrows; i++)
		rows[i] = i;
	if (rows && table_tree_order(t, rows, t->nrows))
		lines = table_tree_line_of(t, rows, t->nrows - 1) + 1;
	free(rows);
	return lines;
}

size_t table_tree_line_of(const struct table *t, const size_t *rows, size_t i)
{
	size_t line = i;

	for (size_t k = 0; k <= i; k++)
		line += table_tree_starts_group(t, rows, k);
	return line;
}

size_t table_tree_group_size(const struct table *t, const size_t *rows, size_t n, size_t i)
{
	size_t k = i + 1;

	while (k < n && !table_tree_starts_group(t, rows, k))
		k++;
	return k - i;
}
