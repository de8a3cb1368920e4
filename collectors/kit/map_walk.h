/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one walk over a BPF hash map: each entry handed over with its value;
 * those the walker says to delete go after the walk, since deleting the key a
 * walk stands on sends the next step back to the first key.
 */
#ifndef GPUTOP_MAP_WALK_H
#define GPUTOP_MAP_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * fn(key, value, arg) for each entry (value NULL when value_size is 0: keys
 * only); an entry for which it returns true is deleted after the walk. Returns
 * how many were deleted, or -1 when out of memory (nothing is deleted then).
 */
long map_walk(int fd, size_t key_size, size_t value_size,
	      bool (*fn)(const void *key, void *value, void *arg), void *arg);

/*
 * Deletes the entries of a map keyed by pid_tgid (a u64) whose thread no longer
 * exists (it exited inside a call the map was waiting on); returns how many
 * (none when out of memory: they go at a later sweep).
 */
uint64_t map_sweep_gone_threads(int fd);

#endif
