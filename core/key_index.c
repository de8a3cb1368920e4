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
	free(ki->slots);
	memset(ki, 0, sizeof(*ki));
}

/* The slot holding key, or the free slot where it would go. */
static size_t find(const struct key_index *ki, uint64_t key)
{
	size_t i = slot_of(ki, key);

	while (ki->slots[i].val != KEY_INDEX_EMPTY && ki->slots[i].key != key)
		i = (i + 1) & (ki->cap - 1);
	return i;
}

bool key_index_get(const struct key_index *ki, uint64_t key, uint32_t *val)
{
	size_t i;

	if (!ki->cap)
		return false;
	i = find(ki, key);
	if (ki->slots[i].val == KEY_INDEX_EMPTY)
		return false;
	*val = ki->slots[i].val;
	return true;
}

static int grow(struct key_index *ki)
{
	struct key_index bigger = { .cap = ki->cap ? ki->cap * 2 : 64 };

	bigger.slots = malloc(bigger.cap * sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < bigger.cap; i++)
		bigger.slots[i].val = KEY_INDEX_EMPTY;
	for (size_t i = 0; i < ki->cap; i++)
		if (ki->slots[i].val != KEY_INDEX_EMPTY) {
			bigger.slots[find(&bigger, ki->slots[i].key)] = ki->slots[i];
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
	if (ki->slots[i].val == KEY_INDEX_EMPTY)
		ki->n++;
	ki->slots[i] = (struct key_index_slot){ key, val };
	return 0;
}

/* Backward shift: each later entry of the run moves into the hole if its home allows. */
void key_index_del(struct key_index *ki, uint64_t key)
{
	size_t mask = ki->cap - 1, hole, i;

	if (!ki->cap)
		return;
	hole = find(ki, key);
	if (ki->slots[hole].val == KEY_INDEX_EMPTY)
		return;
	ki->n--;
	for (i = (hole + 1) & mask; ki->slots[i].val != KEY_INDEX_EMPTY; i = (i + 1) & mask) {
		size_t home = slot_of(ki, ki->slots[i].key);

		/* it may move if its home is not in (hole, i], cyclically */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			ki->slots[hole] = ki->slots[i];
			hole = i;
		}
	}
	ki->slots[hole].val = KEY_INDEX_EMPTY;
}
