// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/key_index.h"
#include "model/process_names.h"

#define ROW_BITS 24 /* a name's place: its table's index above its row's */

/* The pid and comm columns of t, false where it lacks one. */
static bool name_cols(const struct table *t, int *pid, int *comm)
{
	*pid = table_col(t->desc, "pid");
	*comm = table_col(t->desc, "comm");
	return *pid >= 0 && *comm >= 0 && t->desc->cols[*pid].type == COL_U64 && t->desc->cols[*comm].type == COL_STR;
}

static bool unnamed(const struct cell *c)
{
	return c->known && !strcmp(c->s, "?");
}

/* Whether a row of s has "?" for its name: most snapshots have none, and pay no index. */
static bool any_unnamed(const struct snapshot *s)
{
	int pid, comm;

	for (size_t i = 0; i < s->ntables; i++)
		for (size_t r = 0; name_cols(s->tables[i], &pid, &comm) && r < s->tables[i]->nrows; r++)
			if (unnamed(table_cell(s->tables[i], r, (unsigned int)comm)))
				return true;
	return false;
}

/* pid -> the first row that names it (its table's index and its row); -1 out of memory. */
static int index_names(const struct snapshot *s, struct key_index *names)
{
	int pid, comm;
	uint32_t at;

	for (size_t i = 0; i < s->ntables && i < (1u << (32 - ROW_BITS)) - 1; i++) {
		const struct table *t = s->tables[i];

		for (size_t r = 0; name_cols(t, &pid, &comm) && r < t->nrows && r < (1u << ROW_BITS); r++) {
			const struct cell *p = table_cell(t, r, (unsigned int)pid),
					  *c = table_cell(t, r, (unsigned int)comm);

			if (!p->known || !c->known || !c->s[0] || unnamed(c) || key_index_get(names, p->u, &at))
				continue;
			if (key_index_put(names, p->u, (uint32_t)(i << ROW_BITS | r)))
				return -1;
		}
	}
	return 0;
}

int process_names_fill(struct snapshot *s)
{
	struct key_index names = { 0 };
	int pid, comm, rc = 0;
	uint32_t at;

	if (!any_unnamed(s))
		return 0;
	if (index_names(s, &names)) {
		key_index_free(&names);
		return -1;
	}
	for (size_t i = 0; i < s->ntables && !rc; i++) {
		struct table *t = s->tables[i];

		for (size_t r = 0; name_cols(t, &pid, &comm) && r < t->nrows; r++) {
			struct cell *row = table_row(t, r);
			const struct table *from;
			char *was;

			if (!unnamed(&row[comm]) || !row[pid].known || !key_index_get(&names, row[pid].u, &at))
				continue;
			from = s->tables[at >> ROW_BITS];
			was = row[comm].s;
			cell_set_str(row, (unsigned int)comm,
				     table_cell(from, at & ((1u << ROW_BITS) - 1),
						(unsigned int)table_col(from->desc, "comm"))
					     ->s);
			if (!row[comm].known) { /* out of memory: the "?" kept */
				row[comm] = (struct cell){ .known = true, .s = was };
				rc = -1;
				break;
			}
			free(was);
		}
	}
	key_index_free(&names);
	return rc;
}

/* pid's name from earlier snapshots, NULL where none named it. */
static const char *carried(const struct process_names *m, uint64_t pid)
{
	uint32_t at;

	return key_index_get(&m->index, pid, &at) ? m->names[at] : NULL;
}

/* Keeps name as pid's, the latest; -1 out of memory. */
static int learn(struct process_names *m, uint64_t pid, const char *name)
{
	const char *had = carried(m, pid);
	char *copy, **slot;
	uint32_t at;

	if (had && !strcmp(had, name))
		return 0;
	copy = strdup(name);
	if (!copy)
		return -1;
	if (had) {
		key_index_get(&m->index, pid, &at);
		free(m->names[at]);
		m->names[at] = copy;
		return 0;
	}
	slot = array_push(&m->names, &m->n, &m->cap, sizeof(*m->names));
	if (!slot || key_index_put(&m->index, pid, (uint32_t)(m->n - 1))) {
		m->n -= slot != NULL;
		free(copy);
		return -1;
	}
	*slot = copy;
	return 0;
}

/* Table t's "?" named from m (counted in *named), then its names learned into m; -1 out of memory. */
static int carry_table(struct process_names *m, struct table *t, int *named)
{
	int pid, comm;

	for (size_t r = 0; name_cols(t, &pid, &comm) && r < t->nrows; r++) {
		struct cell *row = table_row(t, r);
		const char *name;
		char *was;

		if (!row[pid].known || !row[comm].known || !row[comm].s[0])
			continue;
		if (!unnamed(&row[comm])) {
			if (learn(m, row[pid].u, row[comm].s))
				return -1;
			continue;
		}
		name = carried(m, row[pid].u);
		if (!name)
			continue;
		was = row[comm].s;
		cell_set_str(row, (unsigned int)comm, name);
		if (!row[comm].known) { /* out of memory: the "?" kept */
			row[comm] = (struct cell){ .known = true, .s = was };
			return -1;
		}
		free(was);
		(*named)++;
	}
	return 0;
}

int process_names_carry(struct process_names *m, struct snapshot *s)
{
	int named = 0;

	for (size_t i = 0; i < s->ntables; i++)
		if (carry_table(m, s->tables[i], &named))
			return -1;
	return named;
}

void process_names_free(struct process_names *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->names[i]);
	free(m->names);
	key_index_free(&m->index);
	*m = (struct process_names){ 0 };
}
