// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/kit/map_delta.h"
#include "collectors/kit/map_walk.h"

/* Each part of an entry starts 8-byte aligned: values hold u64 counters. */
#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

static size_t value_off(const struct map_delta *d)
{
	return ALIGN8(d->key_size);
}

static size_t state_off(const struct map_delta *d)
{
	return value_off(d) + ALIGN8(d->value_size);
}

static size_t entry_size(const struct map_delta *d)
{
	return state_off(d) + ALIGN8(d->state_size);
}

int map_delta_init(struct map_delta *d, size_t key_size, size_t value_size, size_t state_size)
{
	memset(d, 0, sizeof(*d));
	d->key_size = key_size;
	d->value_size = value_size;
	d->state_size = state_size;
	d->zero = calloc(1, ALIGN8(value_size) + ALIGN8(state_size));
	return d->zero ? 0 : -1;
}

void map_delta_free(struct map_delta *d)
{
	free(d->entries);
	free(d->zero);
	free(d->fresh);
	memset(d, 0, sizeof(*d));
}

static unsigned char *entry(const struct map_delta *d, const unsigned char *entries, size_t i)
{
	return (unsigned char *)entries + i * entry_size(d);
}

/* The kept entry for key in the sorted entries[0, n), or NULL. */
static unsigned char *find(const struct map_delta *d, const void *key)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(entry(d, d->entries, mid), key, d->key_size);

		if (!c)
			return entry(d, d->entries, mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int by_key(const void *a, const void *b, void *size)
{
	return memcmp(a, b, *(size_t *)size);
}

static bool one_entry(const void *key, void *now, void *arg)
{
	struct map_delta *d = arg;
	const unsigned char *old = find(d, key);
	const unsigned char *before = old ? old + value_off(d) : d->zero;
	uint64_t state[MAP_DELTA_STATE_MAX / 8];
	unsigned char *e;

	if (d->failed)
		return false;
	memcpy(state, before + state_off(d) - value_off(d), d->state_size);
	if (d->fn(key, now, before, d->state_size ? state : NULL, d->arg))
		return true; /* deleted after the walk: not kept */
	if (d->nfresh == d->fresh_cap) {
		size_t ncap = d->fresh_cap ? d->fresh_cap * 2 : 64;
		unsigned char *p = realloc(d->fresh, ncap * entry_size(d));

		if (!p) {
			d->failed = true;
			return false;
		}
		d->fresh = p;
		d->fresh_cap = ncap;
	}
	e = entry(d, d->fresh, d->nfresh++);
	memset(e, 0, entry_size(d));
	memcpy(e, key, d->key_size);
	memcpy(e + value_off(d), now, d->value_size);
	memcpy(e + state_off(d), state, d->state_size);
	return false;
}

long map_delta_read(struct map_delta *d, int fd,
		    bool (*fn)(const void *key, const void *now, const void *before, void *state,
			       void *arg),
		    void *arg)
{
	unsigned char *swap;
	size_t cap;

	if (d->state_size > MAP_DELTA_STATE_MAX)
		return -1;
	d->fn = fn;
	d->arg = arg;
	d->failed = false;
	d->nfresh = 0;
	if (map_walk(fd, d->key_size, d->value_size, one_entry, d) < 0)
		d->failed = true;
	if (d->nfresh > 1)
		qsort_r(d->fresh, d->nfresh, entry_size(d), by_key, &d->key_size);
	/* this read's entries become the kept ones; the old array is reused for the next read */
	swap = d->entries, d->entries = d->fresh, d->fresh = swap;
	cap = d->cap, d->cap = d->fresh_cap, d->fresh_cap = cap;
	d->n = d->nfresh;
	return d->failed ? -1 : (long)d->n;
}
