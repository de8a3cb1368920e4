// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdint.h>
#include <string.h>
#include "collectors/kit/proc_rows.h"

struct proc_rows {
	struct proc_cache *procs;
	struct table *t;
	double iv;
	proc_row_fn row;
	void *ctx;
};

static bool one_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	struct proc_rows *r = arg;
	uint32_t tgid;
	const struct proc_entry *pe;
	struct cell *row = r->t ? table_row_add(r->t) : NULL;

	(void)state;
	memcpy(&tgid, key, sizeof(tgid));
	pe = proc_cache_get(r->procs, tgid);
	if (row)
		r->row(row, key, pe ? pe->comm : "?", now, before, r->iv, r->ctx);
	return pe && pe->gone;
}

long proc_rows_read(struct map_delta *d, int fd, struct proc_cache *procs, struct table *t,
		    double interval_s, proc_row_fn row, void *ctx)
{
	struct proc_rows r = { procs, t, interval_s, row, ctx };

	return map_delta_read(d, fd, one_row, &r);
}
