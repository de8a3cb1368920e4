/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A 64-bit key -> 32-bit index hash (open addressing, linear probing, deletion
 * by backward shift: no tombstones), growing at half full. The streamed
 * scheduler collector finds its jobs and processes with it, the model the rows
 * its derived tables join; what the indices point at is the caller's.
 */
#ifndef GPUTOP_KEY_INDEX_H
#define GPUTOP_KEY_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct key_index_slot {
	uint64_t key;
	uint32_t val; /* KEY_INDEX_EMPTY: a free slot */
};

struct key_index {
	struct key_index_slot *slots; /* a key beside its value: one cache line read per probe */
	size_t cap, n; /* cap: a power of two */
};

#define KEY_INDEX_EMPTY UINT32_MAX

void key_index_free(struct key_index *ki);
/* Whether key is there, and its value. */
bool key_index_get(const struct key_index *ki, uint64_t key, uint32_t *val);
/* Sets key's value (val != KEY_INDEX_EMPTY); -1 when out of memory. */
int key_index_put(struct key_index *ki, uint64_t key, uint32_t val);
void key_index_del(struct key_index *ki, uint64_t key);

#endif
