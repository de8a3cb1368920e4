/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A process a collector could not name ("?": it had exited when the collector
 * looked, or a recording made before the name was kept) named by another table
 * of the same snapshot that has its name: CUDA processes' "?" from calls.ioctls'
 * nvidia-smi. Live and in replay alike, before the derived tables. In a replay,
 * by the names earlier snapshots gave too (process_names_carry).
 */
#ifndef GPUTOP_PROCESS_NAMES_H
#define GPUTOP_PROCESS_NAMES_H

#include "core/key_index.h"
#include "model/snapshot.h"

/* Every "?" comm of a row with a pid, where another row of s names that pid; -1 out of memory. */
int process_names_fill(struct snapshot *s);

/*
 * The names a replay's snapshots gave, in the recording's order: each pid's latest.
 * A process that had exited when the collector looked ("?") had its name in an
 * earlier snapshot, while it ran.
 */
struct process_names {
	struct key_index index; /* pid -> its name in names[] */
	char **names;
	size_t n, cap;
};

/*
 * The "?" of s named where an earlier snapshot named the pid, then s's names learned: how many
 * it named (the tables derived from the named ones are the caller's to derive again); -1 out of memory.
 */
int process_names_carry(struct process_names *m, struct snapshot *s);
void process_names_free(struct process_names *m);

#endif
