// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "json_tables.h"

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
	}
	return NULL;
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
				json_object_object_add(row, d->cols[c].key,
						       cell_json(&d->cols[c], &cells[c]));
			json_object_array_add(rows, row);
		}
		json_object_object_add(all, d->name, rows);
	}
	return all;
}

/* Fills one cell from v; a missing, null or mistyped value leaves it unknown. */
static void cell_from(const struct col_desc *col, struct cell *row, unsigned int c, json_object *v)
{
	bool is_int = json_object_is_type(v, json_type_int);
	bool is_num = is_int || json_object_is_type(v, json_type_double);

	if (!v)
		return;
	switch (col->type) {
	case COL_STR:
		if (json_object_is_type(v, json_type_string))
			cell_set_str(row, c, json_object_get_string(v));
		break;
	case COL_U64:
		if (is_int && json_object_get_int64(v) >= 0)
			cell_set_u64(row, c, json_object_get_uint64(v));
		else if (is_num && json_object_get_double(v) >= 0 &&
			 json_object_get_double(v) < 1.8e19)
			cell_set_u64(row, c, (uint64_t)json_object_get_double(v));
		break;
	case COL_F64:
		if (is_num)
			cell_set_f64(row, c, json_object_get_double(v));
		break;
	case COL_BOOL:
		if (json_object_is_type(v, json_type_boolean))
			cell_set_u64(row, c, json_object_get_boolean(v) ? 1 : 0);
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
		row = table_row_add(t);
		if (!row)
			return -1;
		for (unsigned int c = 0; c < d->ncols; c++) {
			json_object *v = NULL;

			json_object_object_get_ex(o, d->cols[c].key, &v);
			cell_from(&d->cols[c], row, c, v);
		}
	}
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
		if (table_from_json_rows(name, rows, s))
			return -1;
	}
	return 0;
}
