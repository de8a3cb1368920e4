/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What each table has held since the first snapshot (its distinct rows, and the
 * distinct processes of a table with a "pid" column), and from it the one text
 * every front end shows in place of an empty table: the interface, the batch
 * text and -J alike. A table seen with rows earlier is never said to have had none.
 */
#ifndef GPUTOP_TABLE_SEEN_H
#define GPUTOP_TABLE_SEEN_H

#include "model/snapshot.h"

#define TABLE_SEEN_MAX 65536 /* distinct rows (and processes) kept a scope: past it, "at least" */

struct table_seen;

struct table_seen *table_seen_new(void);
void table_seen_free(struct table_seen *ts);
/* Every table of s under its own name; a snapshot seen before is ignored. */
void table_seen_update(struct table_seen *ts, const struct snapshot *s);
/* The rows of t under scope (a view of part of a table: "gpu.processes@nvidia0"). */
void table_seen_add(struct table_seen *ts, const char *scope, const struct table *t);

/* Whether -p keeps only the process's rows of d: d has a "pid" column of the process it is about. */
bool table_pid_filtered(const struct table_desc *d);

/* Whether d's rows are one process's each (a "pid" key): its rows gone are processes gone. */
bool table_pid_keyed(const struct table_desc *d);

/* What is known beside the table when it is empty. */
struct empty_context {
	const struct table_seen *seen; /* NULL: nothing of the snapshots before */
	const char *scope; /* where seen has its rows: NULL, the table's name */
	uint32_t pid_filter; /* -p PID, 0 none */
	bool replay; /* a table missing is the recording's */
};

/*
 * The text in place of the table d without a row (t: its rows now; NULL where the
 * snapshot has no such table): -p's, rows seen earlier, or the table's own empty
 * text (of a table never filled). Returns text, or a constant.
 */
const char *table_empty_text(const struct table_desc *d, const struct table *t, const struct empty_context *ctx,
			     char *text, size_t size);

#endif
