/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A process a collector could not name ("?": it had exited when the collector
 * looked, or a recording made before the name was kept) named by another table
 * of the same snapshot that has its name: CUDA processes' "?" from calls.ioctls'
 * nvidia-smi. Live and in replay alike, before the derived tables.
 */
#ifndef GPUTOP_PROCESS_NAMES_H
#define GPUTOP_PROCESS_NAMES_H

#include "model/snapshot.h"

/* Every "?" comm of a row with a pid, where another row of s names that pid; -1 out of memory. */
int process_names_fill(struct snapshot *s);

#endif
