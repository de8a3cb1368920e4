// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/gpu_processes.h"
#include "model/process_gpu_join.h"
#include "model/process_names.h"
#include "model/snapshot.h"
#include "model/table_seen.h"

void snapshot_free(struct snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncollectors; i++)
		collector_status_clear(&s->collectors[i]);
	free(s->collectors);
	for (size_t i = 0; i < s->ninfos; i++)
		collector_info_clear(&s->infos[i]);
	free(s->infos);
	free(s->devices);
	for (size_t i = 0; i < s->ntables; i++)
		table_free(s->tables[i]);
	free(s->tables);
	free(s);
}

/* Rows of tables with a PID removed: those of pid (mine false) or those of every other (mine true). */
static void remove_rows(struct snapshot *s, uint32_t pid, bool mine)
{
	for (size_t i = 0; i < s->ntables; i++) {
		struct table *t = s->tables[i];
		int col = table_col(t->desc, "pid");

		if (!table_pid_filtered(t->desc))
			continue;
		for (size_t r = t->nrows; r-- > 0;) {
			const struct cell *c = table_cell(t, r, (unsigned int)col);

			if ((c->known && c->u == pid) != mine)
				table_row_remove(t, r);
		}
	}
}

void snapshot_filter_pid(struct snapshot *s, uint32_t pid)
{
	remove_rows(s, pid, true);
}

void snapshot_drop_recorder(struct snapshot *s)
{
	const struct table *self = snapshot_table(s, "self.process");
	int col = self ? table_col(self->desc, "pid") : -1;
	const struct cell *c = col >= 0 && self->nrows ? table_cell(self, 0, (unsigned int)col) : NULL;

	if (c && c->known && c->u)
		remove_rows(s, (uint32_t)c->u, false);
}

bool snapshot_has_pid(const struct snapshot *s, uint32_t pid)
{
	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		int col = table_col(t->desc, "pid");

		if (!table_pid_filtered(t->desc))
			continue;
		for (size_t r = 0; r < t->nrows; r++) {
			const struct cell *c = table_cell(t, r, (unsigned int)col);

			if (c->known && c->u == pid)
				return true;
		}
	}
	return false;
}

int snapshot_derive(struct snapshot *s)
{
	for (size_t i = 0; i < s->ntables; i++)
		table_clamp_quantiles(s->tables[i]);
	if (process_names_fill(s) || process_gpu_join(s))
		return -1;
	return gpu_processes_derive(s);
}

const struct collector_status *snapshot_collector(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; s && i < s->ncollectors; i++)
		if (!strcmp(s->collectors[i].info->name, name))
			return &s->collectors[i];
	return NULL;
}

const struct table *snapshot_table(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; s && i < s->ntables; i++)
		if (!strcmp(s->tables[i]->desc->name, name))
			return s->tables[i];
	return NULL;
}

static void *dup_array(const void *src, size_t n, size_t size, bool *failed)
{
	void *p;

	if (!n)
		return NULL;
	p = malloc(n * size);
	if (!p) {
		*failed = true;
		return NULL;
	}
	memcpy(p, src, n * size);
	return p;
}

int collector_status_copy(struct collector_status *dst, const struct collector_status *src)
{
	bool failed = false;

	*dst = *src;
	dst->drops = dup_array(src->drops, src->ndrops, sizeof(*src->drops), &failed);
	if (failed) {
		collector_status_clear(dst);
		return -1;
	}
	return 0;
}

void collector_status_clear(struct collector_status *st)
{
	free(st->drops);
	st->drops = NULL;
	st->ndrops = 0;
}

void collector_info_clear(struct collector_info *info)
{
	free(info->tracepoints);
	info->tracepoints = NULL;
	info->ntracepoints = 0;
}

struct tracepoint_status *collector_info_add_tracepoint(struct collector_info *info)
{
	struct tracepoint_status *p =
		reallocarray(info->tracepoints, info->ntracepoints + 1, sizeof(*p));

	if (!p)
		return NULL;
	info->tracepoints = p;
	p = &p[info->ntracepoints++];
	memset(p, 0, sizeof(*p));
	return p;
}

int collector_status_set_drop(struct collector_status *st, const char *name, uint64_t count)
{
	struct drop_count *d;

	for (size_t i = 0; i < st->ndrops; i++) {
		if (!strcmp(st->drops[i].name, name)) {
			st->drops[i].count = count;
			return 0;
		}
	}
	d = reallocarray(st->drops, st->ndrops + 1, sizeof(*d));
	if (!d)
		return -1;
	st->drops = d;
	d = &d[st->ndrops++];
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->count = count;
	return 0;
}

const char *collector_state_name(enum collector_state st)
{
	switch (st) {
	case COLLECTOR_ATTACHED:
		return "attached";
	case COLLECTOR_UNAVAILABLE:
		return "unavailable";
	case COLLECTOR_FAILED:
		return "failed";
	}
	return "unknown";
}

const char *tracepoint_state_name(enum tracepoint_state st)
{
	switch (st) {
	case TRACEPOINT_ATTACHED:
		return "attached";
	case TRACEPOINT_AVAILABLE:
		return "available";
	case TRACEPOINT_MISSING:
		return "missing";
	case TRACEPOINT_FAILED:
		return "failed";
	}
	return "unknown";
}
