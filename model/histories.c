// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "model/histories.h"

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
	/* an open-addressing index of items by id: slot -> item + 1, 0 empty; nslots a power of 2 */
	size_t *slots, nslots;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* The index rebuilt for at least want items (load at most one half); false when out of memory. */
static bool reindex(struct histories *h, size_t want)
{
	size_t n = 64;

	while (n < 2 * want)
		n *= 2;
	if (n != h->nslots) {
		size_t *slots = calloc(n, sizeof(*slots));

		if (!slots) { /* no index rather than a stale one: find() then finds nothing */
			free(h->slots);
			h->slots = NULL;
			h->nslots = 0;
			return false;
		}
		free(h->slots);
		h->slots = slots;
		h->nslots = n;
	} else {
		memset(h->slots, 0, n * sizeof(*h->slots));
	}
	for (size_t i = 0; i < h->n; i++) {
		size_t k = hash(h->items[i].id) & (h->nslots - 1);

		while (h->slots[k])
			k = (k + 1) & (h->nslots - 1);
		h->slots[k] = i + 1;
	}
	return true;
}

struct histories *histories_new(void)
{
	return calloc(1, sizeof(struct histories));
}

void histories_free(struct histories *h)
{
	if (!h)
		return;
	free(h->items);
	free(h->slots);
	free(h);
}

static void entry_id(const struct table *t, size_t row, unsigned int col, char *id)
{
	char key[TABLE_KEY_MAX];

	table_row_key(t, row, key, sizeof(key));
	snprintf(id, ID_LEN, "%s|%s|%s", t->desc->name, key, t->desc->cols[col].key);
}

/* The entry of id, or NULL; *slot where it is or would go in the index. */
static struct entry *find(const struct histories *h, const char *id, size_t *slot)
{
	size_t k;

	if (!h->nslots)
		return NULL;
	for (k = hash(id) & (h->nslots - 1); h->slots[k]; k = (k + 1) & (h->nslots - 1))
		if (!strcmp(h->items[h->slots[k] - 1].id, id)) {
			*slot = k;
			return &h->items[h->slots[k] - 1];
		}
	*slot = k;
	return NULL;
}

static struct entry *add(struct histories *h, const char *id)
{
	struct entry *e;
	size_t slot;

	if ((h->n + 1) * 2 > h->nslots && !reindex(h, h->n + 1))
		return NULL;
	find(h, id, &slot);
	e = array_push(&h->items, &h->n, &h->cap, sizeof(*e));
	if (!e)
		return NULL;
	memset(e, 0, sizeof(*e));
	snprintf(e->id, sizeof(e->id), "%s", id);
	h->slots[slot] = h->n;
	return e;
}

/* Room for every history this snapshot has, made at once rather than doubled up to (a copy each time). */
static void reserve(struct histories *h, const struct snapshot *s)
{
	size_t want = 0;
	struct entry *items;

	for (size_t i = 0; i < s->ntables; i++)
		for (unsigned int c = 0; c < s->tables[i]->desc->ncols; c++)
			if (s->tables[i]->desc->cols[c].flags & COL_HISTORY)
				want += s->tables[i]->nrows;
	want += want / 8; /* and some new rows (those gone leave at the end of the update) */
	if (want <= h->cap || !(items = reallocarray(h->items, want, sizeof(*items))))
		return;
	h->items = items;
	h->cap = want;
}

void histories_update(struct histories *h, const struct snapshot *s)
{
	size_t w = 0;

	if (!h || !s || (h->seq && s->seq == h->seq))
		return;
	h->seq = s->seq;
	reserve(h, s);
	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		unsigned int cols[64], ncols = 0;

		for (unsigned int c = 0; c < t->desc->ncols && ncols < 64; c++)
			if (t->desc->cols[c].flags & COL_HISTORY)
				cols[ncols++] = c;
		for (size_t r = 0; ncols && r < t->nrows; r++) {
			char key[TABLE_KEY_MAX], id[ID_LEN];
			size_t prefix;

			table_row_key(t, r, key, sizeof(key)); /* once a row, for all its histories */
			prefix = (size_t)snprintf(id, ID_LEN, "%s|%s|", t->desc->name, key);
			for (unsigned int k = 0; k < ncols; k++) {
				struct entry *e;
				size_t slot;
				double v = cell_number(t->desc, table_row(t, r), cols[k]);

				if (prefix < ID_LEN) /* as one snprintf of the three would cut it */
					snprintf(id + prefix, ID_LEN - prefix, "%s", t->desc->cols[cols[k]].key);
				e = find(h, id, &slot);
				if (!e)
					e = add(h, id);
				if (!e)
					continue;
				history_push(&e->hist, v); /* unknown as NaN: a gap, not a zero */
				e->seq = s->seq;
			}
		}
	}
	for (size_t i = 0; i < h->n; i++)
		if (h->items[i].seq == s->seq) {
			if (w != i) /* an entry is a kilobyte: moved only when one before it went */
				h->items[w] = h->items[i];
			w++;
		}
	if (w != h->n) {
		h->n = w;
		reindex(h, w); /* the rows gone are out of the index too */
	}
}

const struct history *histories_get(const struct histories *h, const struct table *t, size_t row,
				    unsigned int col)
{
	char id[ID_LEN];
	const struct entry *e;
	size_t slot;

	if (!h || col >= t->desc->ncols || !(t->desc->cols[col].flags & COL_HISTORY))
		return NULL;
	entry_id(t, row, col, id);
	e = find(h, id, &slot);
	return e ? &e->hist : NULL;
}
