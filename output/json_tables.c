// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../model/histogram.h"
#include "json_tables.h"

/* Non-empty buckets as [lower bound ns, count] pairs: small, and enough to redraw it. */
static json_object *hist_json(const struct histogram *h)
{
	json_object *arr = json_object_new_array();

	for (unsigned int i = 0; i < HIST_SLOTS; i++) {
		json_object *pair;

		if (!h->slots[i])
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, json_object_new_uint64(histogram_slot_low(i)));
		json_object_array_add(pair, json_object_new_uint64(h->slots[i]));
		json_object_array_add(arr, pair);
	}
	return arr;
}

static json_object *cell_json(const struct col_desc *col, const struct cell *c)
{
	if (!c->known)
		return NULL; /* json-c writes NULL as null */
	switch (col->type) {
	case COL_STR:
		return json_object_new_string(c->s);
	case COL_U64:
		return json_object_new_uint64(c->u);
	case COL_F64:
		return json_object_new_double(c->f);
	case COL_BOOL:
		return json_object_new_boolean(c->u != 0);
	case COL_HIST:
		return hist_json(c->h);
	}
	return NULL;
}

/* o[key] = v, where "a.b" is o["a"]["b"] (the object a made on first use). */
static void put_path(json_object *o, const char *key, json_object *v)
{
	const char *dot = strchr(key, '.');
	json_object *inner = NULL;
	char head[64];

	if (!dot || (size_t)(dot - key) >= sizeof(head)) {
		json_object_object_add(o, key, v);
		return;
	}
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	if (!json_object_object_get_ex(o, head, &inner) || !json_object_is_type(inner, json_type_object)) {
		inner = json_object_new_object();
		json_object_object_add(o, head, inner);
	}
	put_path(inner, dot + 1, v);
}

/* o[key] as put_path writes it, or NULL. */
static json_object *get_path(json_object *o, const char *key)
{
	const char *dot = strchr(key, '.');
	json_object *v = NULL;
	char head[64];

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	if (!dot || (size_t)(dot - key) >= sizeof(head))
		return json_object_object_get_ex(o, key, &v) ? v : NULL;
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	return json_object_object_get_ex(o, head, &v) ? get_path(v, dot + 1) : NULL;
}

json_object *tables_to_json(const struct snapshot *s)
{
	json_object *all = json_object_new_object();

	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		const struct table_desc *d = t->desc;
		json_object *rows = json_object_new_array();

		for (size_t r = 0; r < t->nrows; r++) {
			json_object *row = json_object_new_object();
			const struct cell *cells = table_row(t, r);

			for (unsigned int c = 0; c < d->ncols; c++)
				put_path(row, d->cols[c].key, cell_json(&d->cols[c], &cells[c]));
			json_object_array_add(rows, row);
		}
		json_object_object_add(all, d->name, rows);
	}
	return all;
}

/* Takes cells from the snapshot's read budget; false (nothing taken) when it has too few left. */
static bool budget_take(struct snapshot *s, size_t cells)
{
	if (s->read_budget < cells)
		return false;
	s->read_budget -= cells;
	return true;
}

static void hist_from(struct snapshot *s, struct cell *row, unsigned int c, json_object *v)
{
	struct histogram h = { 0 };
	size_t n;

	if (!json_object_is_type(v, json_type_array) ||
	    !budget_take(s, sizeof(struct histogram) / sizeof(struct cell) + 1))
		return;
	n = json_object_array_length(v);
	for (size_t i = 0; i < n; i++) {
		json_object *pair = json_object_array_get_idx(v, i), *low, *count;

		if (!json_object_is_type(pair, json_type_array) || json_object_array_length(pair) != 2)
			continue;
		low = json_object_array_get_idx(pair, 0);
		count = json_object_array_get_idx(pair, 1);
		if (!json_object_is_type(low, json_type_int) || !json_object_is_type(count, json_type_int) ||
		    json_object_get_int64(count) < 0)
			continue;
		h.slots[hist_slot(json_object_get_uint64(low))] += json_object_get_uint64(count);
	}
	cell_set_hist(row, c, &h);
}

/* Fills one cell from v; a missing, null or mistyped value leaves it unknown. */
static void cell_from(struct snapshot *s, const struct col_desc *col, struct cell *row, unsigned int c,
		      json_object *v)
{
	bool is_int = json_object_is_type(v, json_type_int);
	bool is_num = is_int || json_object_is_type(v, json_type_double);

	if (!v)
		return;
	switch (col->type) {
	case COL_STR:
		if (json_object_is_type(v, json_type_string) &&
		    budget_take(s, (size_t)json_object_get_string_len(v) / sizeof(struct cell) + 1))
			cell_set_str(row, c, json_object_get_string(v));
		break;
	case COL_U64:
		if (is_int && json_object_get_int64(v) >= 0)
			cell_set_u64(row, c, json_object_get_uint64(v));
		else if (is_num && json_object_get_double(v) >= 0 &&
			 json_object_get_double(v) < 1.8e19) /* in range: the cast is defined */
			cell_set_u64(row, c, (uint64_t)json_object_get_double(v));
		break;
	case COL_F64:
		if (is_num && isfinite(json_object_get_double(v))) /* Infinity and NaN: unknown */
			cell_set_f64(row, c, json_object_get_double(v));
		break;
	case COL_BOOL:
		if (json_object_is_type(v, json_type_boolean))
			cell_set_u64(row, c, json_object_get_boolean(v) ? 1 : 0);
		break;
	case COL_HIST:
		hist_from(s, row, c, v);
		break;
	}
}

static int table_from(const struct table_desc *d, json_object *rows, struct snapshot *s)
{
	struct table *t = table_new(d), **grown;
	size_t n = json_object_array_length(rows);

	if (!t)
		return -1;
	grown = reallocarray(s->tables, s->ntables + 1, sizeof(*grown));
	if (!grown) {
		table_free(t);
		return -1;
	}
	s->tables = grown;
	s->tables[s->ntables++] = t;
	for (size_t r = 0; r < n; r++) {
		json_object *o = json_object_array_get_idx(rows, r);
		struct cell *row;

		if (!json_object_is_type(o, json_type_object))
			continue;
		if (!budget_take(s, d->ncols))
			return -2; /* more rows than a line of its size holds */
		row = table_row_add(t);
		if (!row)
			return -1;
		for (unsigned int c = 0; c < d->ncols; c++)
			cell_from(s, &d->cols[c], row, c, get_path(o, d->cols[c].key));
	}
	table_drop_duplicate_keys(t); /* one row per key, as the collectors make them */
	return 0;
}

int table_from_json_rows(const char *name, json_object *rows, struct snapshot *s)
{
	const struct table_desc *d = table_desc_find(name);

	if (!d || !rows || !json_object_is_type(rows, json_type_array) || snapshot_table(s, name))
		return 0;
	return table_from(d, rows, s);
}

int tables_from_json(json_object *tables, struct snapshot *s)
{
	if (!tables || !json_object_is_type(tables, json_type_object))
		return 0;
	json_object_object_foreach(tables, name, rows)
	{
		int rc = table_from_json_rows(name, rows, s);

		if (rc)
			return rc;
	}
	return 0;
}
