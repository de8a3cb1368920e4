// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The tables in JSON, driven by their column descriptors alone, through the
 * one writer (json_writer.c): a 50,000-row snapshot goes straight into its
 * buffer (a json-c tree of a million objects took 600 ms).
 */
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "model/histogram.h"
#include "output/json_tables.h"
#include "output/json_writer.h"

/* Non-empty buckets as [lower bound ns, count] pairs: small, and enough to redraw it. */
static void put_hist(struct jsonw *w, const struct histogram *h)
{
	jsonw_array_begin(w);
	for (unsigned int i = 0; i < HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		jsonw_array_begin(w);
		jsonw_u64(w, histogram_slot_low(i));
		jsonw_u64(w, h->slots[i]);
		jsonw_array_end(w);
	}
	jsonw_array_end(w);
}

static void put_cell(struct jsonw *w, const struct col_desc *col, const struct cell *c)
{
	if (!c->known)
		return jsonw_null(w);
	switch (col->type) {
	case COL_STR:
		return jsonw_string(w, c->s, strlen(c->s));
	case COL_U64:
		return jsonw_u64(w, c->u);
	case COL_F64:
		return jsonw_double(w, c->f);
	case COL_BOOL:
		return jsonw_bool(w, c->u);
	case COL_HIST:
		return put_hist(w, c->h);
	}
	jsonw_null(w);
}

/* The part of key after depth dots ("a.b.c", 1: "b.c"); the head is up to the next dot. */
static const char *after_dots(const char *key, unsigned int depth)
{
	while (depth--) {
		key = strchr(key, '.');
		if (!key)
			return NULL;
		key++;
	}
	return key;
}

/* One step of writing a row: a member (key, cell), an object's opening (key, '{') or its end. */
struct step {
	enum { STEP_CELL, STEP_OPEN, STEP_CLOSE } kind;
	unsigned int col;
	const char *key;
	size_t key_len;
};

struct plan {
	struct step *steps;
	size_t n, cap;
};

static bool plan_add(struct plan *pl, struct step st)
{
	struct step *slot = array_push(&pl->steps, &pl->n, &pl->cap, sizeof(*slot));

	if (slot)
		*slot = st;
	return slot != NULL;
}

/*
 * The steps of one object of a row, the same for every row of a table: the
 * columns whose keys start with prefix (depth heads, prefix_len bytes), in
 * column order; "a.b" nests as {"a": {"b": ...}}, "a" made where its first
 * column is (as put_path made it in json-c's tree, whose objects keep their
 * keys' order).
 */
static bool plan_members(struct plan *pl, const struct table_desc *d, const char *prefix, size_t prefix_len,
			 unsigned int depth)
{
	for (unsigned int c = 0; c < d->ncols; c++) {
		const char *key = d->cols[c].key, *rest, *dot;
		bool nested, seen = false;
		size_t head;

		if (strncmp(key, prefix, prefix_len) || !(rest = after_dots(key, depth)))
			continue;
		dot = strchr(rest, '.');
		head = dot ? (size_t)(dot - rest) : strlen(rest);
		nested = dot && head < 64; /* a head too long was never nested */
		for (unsigned int k = 0; nested && k < c && !seen; k++) /* its object is written */
			seen = !strncmp(d->cols[k].key, key, (size_t)(dot - key) + 1);
		if (seen)
			continue;
		if (!nested) {
			if (!plan_add(pl, (struct step){ STEP_CELL, c, rest, strlen(rest) }))
				return false;
			continue;
		}
		if (!plan_add(pl, (struct step){ STEP_OPEN, c, rest, head }) ||
		    !plan_members(pl, d, key, (size_t)(dot - key) + 1, depth + 1) ||
		    !plan_add(pl, (struct step){ STEP_CLOSE, c, NULL, 0 }))
			return false;
	}
	return true;
}

static void put_row(struct jsonw *w, const struct plan *pl, const struct table_desc *d,
		    const struct cell *cells)
{
	jsonw_object_begin(w);
	for (size_t i = 0; i < pl->n; i++) {
		const struct step *st = &pl->steps[i];

		switch (st->kind) {
		case STEP_CELL:
			jsonw_key(w, st->key, st->key_len);
			put_cell(w, &d->cols[st->col], &cells[st->col]);
			break;
		case STEP_OPEN:
			jsonw_key(w, st->key, st->key_len);
			jsonw_object_begin(w);
			break;
		case STEP_CLOSE:
			jsonw_object_end(w);
			break;
		}
	}
	jsonw_object_end(w);
}

void tables_write_json(struct jsonw *w, const struct snapshot *s)
{
	jsonw_object_begin(w);
	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		struct plan pl = { 0 };

		jsonw_key(w, t->desc->name, strlen(t->desc->name));
		jsonw_array_begin(w);
		if (t->nrows && !plan_members(&pl, t->desc, "", 0, 0))
			w->failed = true;
		for (size_t r = 0; r < t->nrows && !w->failed; r++)
			put_row(w, &pl, t->desc, table_row(t, r));
		free(pl.steps);
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
}
