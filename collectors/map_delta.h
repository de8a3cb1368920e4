/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading a BPF hash of cumulative counters as interval deltas: each entry is
 * handed over with its value now and at the last read (zeros when new), and
 * entries whose process is gone are shown once more, then deleted from the map.
 * The values at the last read are kept sorted by key (found by bisection).
 */
#ifndef GPUTOP_MAP_DELTA_H
#define GPUTOP_MAP_DELTA_H

#include <stdbool.h>
#include <stddef.h>

struct map_delta {
	size_t key_size, value_size;
	unsigned char *entries; /* n entries of key_size + value_size bytes, sorted by key */
	size_t n, cap;
	unsigned char *key, *next, *value, *zero; /* scratch */
};

/* 0, or -1 when out of memory. */
int map_delta_init(struct map_delta *d, size_t key_size, size_t value_size);
void map_delta_free(struct map_delta *d);

/*
 * One pass over the map fd: fn(key, now, before, arg) for each entry. When fn
 * returns true (its process is gone), the entry is deleted from the map after
 * the pass. Entries no longer in the map are forgotten. Returns how many
 * entries were handed over, or -1 when out of memory (those read so far were).
 */
long map_delta_read(struct map_delta *d, int fd,
		    bool (*fn)(const void *key, const void *now, const void *before, void *arg),
		    void *arg);

#endif
