// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "core/key_index.h"

/* splitmix64's finalizer: fence addresses differ in their middle bits. */
static size_t slot_of(const struct key_index *ki, uint64_t key)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)key & (ki->cap - 1);
}

void key_index_free(struct key_index *ki)
{
	free(ki->keys);
	free(ki->vals);
	memset(ki, 0, sizeof(*ki));
}

/* The slot holding key, or the free slot where it would go. */
static size_t find(const struct key_index *ki, uint64_t key)
{
	size_t i = slot_of(ki, key);

	while (ki->vals[i] != KEY_INDEX_EMPTY && ki->keys[i] != key)
		i = (i + 1) & (ki->cap - 1);
	return i;
}

bool key_index_get(const struct key_index *ki, uint64_t key, uint32_t *val)
{
	size_t i;

	if (!ki->cap)
		return false;
	i = find(ki, key);
	if (ki->vals[i] == KEY_INDEX_EMPTY)
		return false;
	*val = ki->vals[i];
	return true;
}

static int grow(struct key_index *ki)
{
	struct key_index bigger = { .cap = ki->cap ? ki->cap * 2 : 64 };

	bigger.keys = malloc(bigger.cap * sizeof(*bigger.keys));
	bigger.vals = malloc(bigger.cap * sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		key_index_free(&bigger);
		return -1;
	}
	memset(bigger.vals, 0xff, bigger.cap * sizeof(*bigger.vals));
	for (size_t i = 0; i < ki->cap; i++) {
		size_t j;

		if (ki->vals[i] == KEY_INDEX_EMPTY)
			continue;
		j = find(&bigger, ki->keys[i]);
		bigger.keys[j] = ki->keys[i];
		bigger.vals[j] = ki->vals[i];
		bigger.n++;
	}
	key_index_free(ki);
	*ki = bigger;
	return 0;
}

int key_index_put(struct key_index *ki, uint64_t key, uint32_t val)
{
	size_t i;

	if ((ki->n + 1) * 2 > ki->cap && grow(ki))
		return -1;
	i = find(ki, key);
	if (ki->vals[i] == KEY_INDEX_EMPTY)
		ki->n++;
	ki->keys[i] = key;
	ki->vals[i] = val;
	return 0;
}

/* Backward shift: each later entry of the run moves into the hole if its home allows. */
void key_index_del(struct key_index *ki, uint64_t key)
{
	size_t mask = ki->cap - 1, hole, i;

	if (!ki->cap)
		return;
	hole = find(ki, key);
	if (ki->vals[hole] == KEY_INDEX_EMPTY)
		return;
	ki->n--;
	for (i = (hole + 1) & mask; ki->vals[i] != KEY_INDEX_EMPTY; i = (i + 1) & mask) {
		size_t home = slot_of(ki, ki->keys[i]);

		/* it may move if its home is not in (hole, i], cyclically */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			ki->keys[hole] = ki->keys[i];
			ki->vals[hole] = ki->vals[i];
			hole = i;
		}
	}
	ki->vals[hole] = KEY_INDEX_EMPTY;
}
