// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "histories.h"

#define ID_LEN 192 /* table name, row key and column key */

struct entry {
	char id[ID_LEN];
	struct history hist;
	uint64_t seq; /* last snapshot that had this row */
};

struct histories {
	struct entry *items;
	size_t n, cap;
	uint64_t seq;
};

struct histories *histories_new(void)
{
	return calloc(1, sizeof(struct histories));
}

void histories_free(struct histories *h)
{
	if (!h)
		return;
	free(h->items);
	free(h);
}

static void entry_id(const struct table *t, size_t row, unsigned int col, char *id)
{
	char key[128];

	table_row_key(t, row, key, sizeof(key));
	snprintf(id, ID_LEN, "%s|%s|%s", t->desc->name, key, t->desc->cols[col].key);
}

static struct entry *find(const struct histories *h, const char *id)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->items[i].id, id))
			return &h->items[i];
	return NULL;
}

static struct entry *add(struct histories *h, const char *id)
{
	struct entry *e = array_push(&h->items, &h->n, &h->cap, sizeof(*e));

	if (e)
		snprintf(e->id, sizeof(e->id), "%s", id);
	return e;
}

void histories_update(struct histories *h, const struct snapshot *s)
{
	size_t w = 0;

	if (!h || !s || (h->seq && s->seq == h->seq))
		return;
	h->seq = s->seq;
	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];

		for (unsigned int c = 0; c < t->desc->ncols; c++) {
			if (!(t->desc->cols[c].flags & COL_HISTORY))
				continue;
			for (size_t r = 0; r < t->nrows; r++) {
				char id[ID_LEN];
				struct entry *e;
				double v = cell_number(t->desc, table_row(t, r), c);

				entry_id(t, r, c, id);
				e = find(h, id);
				if (!e)
					e = add(h, id);
				if (!e)
					continue;
				history_push(&e->hist, isnan(v) ? 0 : v);
				e->seq = s->seq;
			}
		}
	}
	for (size_t i = 0; i < h->n; i++)
		if (h->items[i].seq == s->seq)
			h->items[w++] = h->items[i];
	h->n = w;
}

const struct history *histories_get(const struct histories *h, const struct table *t, size_t row,
				    unsigned int col)
{
	char id[ID_LEN];
	const struct entry *e;

	if (!h || col >= t->desc->ncols || !(t->desc->cols[col].flags & COL_HISTORY))
		return NULL;
	entry_id(t, row, col, id);
	e = find(h, id);
	return e ? &e->hist : NULL;
}
