// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "model/table_seen.h"

/* A set of 64-bit values (0 stands for 1: a slot's 0 is empty), open addressing, at most TABLE_SEEN_MAX. */
struct set {
	uint64_t *slots;
	size_t n, nslots;
	bool full; /* a value was left out: n is a lower bound */
};

struct scope {
	char name[128];
	struct set rows, pids;
};

struct table_seen {
	struct scope *scopes;
	size_t n, cap;
	uint64_t seq;
};

/* The slot of v, or the empty one where it would go (the set has slots). */
static size_t set_slot(const struct set *s, uint64_t v)
{
	size_t k;

	for (k = v & (s->nslots - 1); s->slots[k] && s->slots[k] != v; k = (k + 1) & (s->nslots - 1))
		;
	return k;
}

/* Twice the slots (at least 64), the values put again; false when out of memory. */
static bool set_grow(struct set *s)
{
	size_t n = s->nslots ? 2 * s->nslots : 64, old = s->nslots;
	uint64_t *was = s->slots, *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return false;
	s->slots = slots;
	s->nslots = n;
	for (size_t i = 0; i < old; i++)
		if (was[i])
			s->slots[set_slot(s, was[i])] = was[i];
	free(was);
	return true;
}

static void set_put(struct set *s, uint64_t v)
{
	v = v ? v : 1;
	if (s->nslots && s->slots[set_slot(s, v)])
		return; /* seen before */
	if ((s->n + 1) * 2 > s->nslots && (s->n >= TABLE_SEEN_MAX || !set_grow(s))) {
		s->full = true; /* no room: counted as "at least" from now on */
		return;
	}
	s->slots[set_slot(s, v)] = v;
	s->n++;
}

struct table_seen *table_seen_new(void)
{
	return calloc(1, sizeof(struct table_seen));
}

void table_seen_free(struct table_seen *ts)
{
	for (size_t i = 0; ts && i < ts->n; i++) {
		free(ts->scopes[i].rows.slots);
		free(ts->scopes[i].pids.slots);
	}
	if (ts)
		free(ts->scopes);
	free(ts);
}

static const struct scope *scope_find(const struct table_seen *ts, const char *name)
{
	for (size_t i = 0; ts && i < ts->n; i++)
		if (!strcmp(ts->scopes[i].name, name))
			return &ts->scopes[i];
	return NULL;
}

void table_seen_add(struct table_seen *ts, const char *scope, const struct table *t)
{
	struct scope *sc = (struct scope *)scope_find(ts, scope);
	int pid = table_col(t->desc, "pid");

	if (!ts || !t->nrows)
		return;
	if (!sc) {
		sc = array_push(&ts->scopes, &ts->n, &ts->cap, sizeof(*sc));
		if (!sc)
			return;
		memset(sc, 0, sizeof(*sc));
		snprintf(sc->name, sizeof(sc->name), "%s", scope);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		const struct cell *c;

		set_put(&sc->rows, table_row_key_hash(t, r));
		c = pid >= 0 ? table_cell(t, r, (unsigned int)pid) : NULL;
		if (c && c->known)
			set_put(&sc->pids, c->u + 1); /* PID 0 (the kernel) a value like the others */
	}
}

void table_seen_update(struct table_seen *ts, const struct snapshot *s)
{
	if (!ts || !s || (ts->seq && s->seq == ts->seq))
		return;
	ts->seq = s->seq;
	for (size_t i = 0; i < s->ntables; i++)
		table_seen_add(ts, s->tables[i]->desc->name, s->tables[i]);
}

bool table_pid_filtered(const struct table_desc *d)
{
	/* self.process: the monitor's own PID; nvidia.xids: the task the driver interrupted, not a GPU user */
	return table_col(d, "pid") >= 0 && strcmp(d->name, "self.process") && strcmp(d->name, "nvidia.xids");
}

bool table_pid_keyed(const struct table_desc *d)
{
	int col = table_col(d, "pid");

	return col >= 0 && (d->cols[col].flags & COL_KEY);
}

/* empty with "--list" said of the recording's machine ("--list on the recording's machine says why"), into text. */
static void replay_list_hint(const char *empty, char *text, size_t size)
{
	const char *at = strstr(empty, "--list") + strlen("--list");

	snprintf(text, size, "%.*s on the recording's machine%s", (int)(at - empty), empty, at);
}

const char *table_empty_text(const struct table_desc *d, const struct table *t, const struct empty_context *ctx,
			     char *text, size_t size)
{
	const struct scope *sc = scope_find(ctx->seen, ctx->scope ? ctx->scope : d->name);
	const struct set *set = sc && table_pid_keyed(d) ? &sc->pids : sc ? &sc->rows : NULL;
	const char *least = set && set->full ? "at least " : "";

	if (!t)
		snprintf(text, size,
			 ctx->replay ? "This recording has no %s table (the gputop-bpf that made it wrote "
				       "none): it cannot say what happened here." :
				       "This snapshot has no %s table.",
			 d->name);
	else if (ctx->pid_filter && table_pid_filtered(d) && sc && sc->rows.n) /* the rows seen: its own */
		snprintf(text, size, "None now: process %u had %s%zu row%s here earlier (-p %u shows only its rows).",
			 ctx->pid_filter, sc->rows.full ? "at least " : "", sc->rows.n, sc->rows.n == 1 ? "" : "s",
			 ctx->pid_filter);
	else if (ctx->pid_filter && table_pid_filtered(d)) /* rows of other processes may exist: not said empty */
		snprintf(text, size, "No row of process %u (-p %u shows only its rows).", ctx->pid_filter,
			 ctx->pid_filter);
	else if (set && set->n && table_pid_keyed(d) && d->gone)
		snprintf(text, size, "None now: %s%zu process%s had rows here earlier; %s.", least, set->n,
			 set->n == 1 ? "" : "es", d->gone);
	else if (set && set->n && table_pid_keyed(d))
		snprintf(text, size, "None now: %s%zu process%s had rows here earlier and %s exited or stopped.", least,
			 set->n, set->n == 1 ? "" : "es", set->n == 1 && !*least ? "has" : "have");
	else if (set && set->n) /* its empty text is of a table never filled */
		snprintf(text, size, "None now: %s%zu row%s shown here earlier %s gone.", *least ? least : "the ",
			 set->n, set->n == 1 ? "" : "s", set->n == 1 && !*least ? "is" : "are");
	else if (ctx->scope && strchr(ctx->scope, '@')) /* a GPU's view: the table's own text is of every GPU */
		snprintf(text, size, "None on %s since the start.", strchr(ctx->scope, '@') + 1);
	else if (ctx->replay && d->empty &&
		 strstr(d->empty, "--list")) /* this machine's --list is not the recorder's */
		replay_list_hint(d->empty, text, size);
	else
		return d->empty ? d->empty : "Nothing yet.";
	return text;
}
