/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Sparkline histories of the collectors' tables, derived in one place from the
 * stream of snapshots (live and replay alike): for every column marked
 * COL_HISTORY, one history per row identity. Snapshots carry no histories.
 * Owned by one thread (the interface's).
 */
#ifndef GPUTOP_HISTORIES_H
#define GPUTOP_HISTORIES_H

#include "model/history.h"
#include "model/snapshot.h"

struct histories;

struct histories *histories_new(void);
void histories_free(struct histories *h);
/*
 * Pushes this snapshot's values (unknown as NaN); a row that is gone forgets its
 * histories. Call once per snapshot, in order; a snapshot seen before is ignored.
 */
void histories_update(struct histories *h, const struct snapshot *s);
/* The history of column col of row in table t, or NULL. */
const struct history *histories_get(const struct histories *h, const struct table *t, size_t row, unsigned int col);
#endif
