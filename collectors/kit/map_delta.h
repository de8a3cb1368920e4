/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading a BPF hash of cumulative counters as interval deltas (map_walk): each
 * entry is handed over with its value now and at the last read (zeros when
 * new), and with state of the collector's own kept beside it while the entry
 * lives (zeros when new: an id, a name looked up once). An entry whose process
 * is gone is shown once more, then deleted from the map. What the last read
 * saw is kept sorted by key (found by bisection).
 */
#ifndef GPUTOP_MAP_DELTA_H
#define GPUTOP_MAP_DELTA_H

#include <stdbool.h>
#include <stddef.h>

#define MAP_DELTA_STATE_MAX 256 /* bytes of a collector's own state per entry */

struct map_delta {
	size_t key_size, value_size, state_size;
	unsigned char *entries; /* n entries of key, value and state (each 8-aligned), sorted by key */
	size_t n, cap;
	unsigned char *zero; /* a new entry's value and state */
	/* during a read */
	unsigned char *fresh;
	size_t nfresh, fresh_cap;
	bool (*fn)(const void *key, const void *now, const void *before, void *state, void *arg);
	void *arg;
	bool failed;
};

/* state_size: bytes of the collector's own per entry (0: none, at most MAP_DELTA_STATE_MAX). 0, or -1 when out of memory. */
int map_delta_init(struct map_delta *d, size_t key_size, size_t value_size, size_t state_size);
void map_delta_free(struct map_delta *d);

/*
 * One pass over the map fd: fn(key, now, before, state, arg) for each entry,
 * state NULL when state_size is 0. When fn returns true (its process is gone),
 * the entry is deleted from the map after the pass and forgotten. Entries no
 * longer in the map are forgotten. Returns how many entries it keeps (the gone
 * ones not counted), or -1 when out of memory (those read so far were handed over).
 */
long map_delta_read(struct map_delta *d, int fd,
		    bool (*fn)(const void *key, const void *now, const void *before, void *state,
			       void *arg),
		    void *arg);

#endif
