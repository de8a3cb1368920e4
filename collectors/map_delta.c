// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "map_delta.h"

int map_delta_init(struct map_delta *d, size_t key_size, size_t value_size)
{
	memset(d, 0, sizeof(*d));
	d->key_size = key_size;
	d->value_size = value_size;
	d->key = calloc(1, key_size);
	d->next = calloc(1, key_size);
	d->value = calloc(1, value_size);
	d->zero = calloc(1, value_size);
	if (!d->key || !d->next || !d->value || !d->zero) {
		map_delta_free(d);
		return -1;
	}
	return 0;
}

void map_delta_free(struct map_delta *d)
{
	free(d->entries);
	free(d->key);
	free(d->next);
	free(d->value);
	free(d->zero);
	memset(d, 0, sizeof(*d));
}

static unsigned char *entry(const struct map_delta *d, const unsigned char *entries, size_t i)
{
	return (unsigned char *)entries + i * (d->key_size + d->value_size);
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

long map_delta_read(struct map_delta *d, int fd,
		    bool (*fn)(const void *key, const void *now, const void *before, void *arg),
		    void *arg)
{
	size_t esz = d->key_size + d->value_size, n = 0, cap = 0, ngone = 0;
	unsigned char *fresh = NULL, *gone = NULL;
	bool first = true;
	long handed = 0;

	while (!bpf_map_get_next_key(fd, first ? NULL : d->key, d->next)) {
		const unsigned char *old;
		unsigned char *e;

		first = false;
		memcpy(d->key, d->next, d->key_size);
		if (bpf_map_lookup_elem(fd, d->key, d->value))
			continue; /* deleted since */
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			unsigned char *p = realloc(fresh, ncap * esz);

			if (!p) {
				handed = -1;
				break;
			}
			fresh = p;
			cap = ncap;
		}
		old = find(d, d->key);
		handed++;
		if (fn(d->key, d->value, old ? old + d->key_size : d->zero, arg)) {
			unsigned char *g = realloc(gone, (ngone + 1) * d->key_size);

			if (g) {
				gone = g;
				memcpy(gone + ngone++ * d->key_size, d->key, d->key_size);
			}
			continue; /* deleted below: not kept */
		}
		e = entry(d, fresh, n++);
		memcpy(e, d->key, d->key_size);
		memcpy(e + d->key_size, d->value, d->value_size);
	}
	for (size_t i = 0; i < ngone; i++)
		bpf_map_delete_elem(fd, gone + i * d->key_size);
	free(gone);
	if (n > 1)
		qsort_r(fresh, n, esz, by_key, &d->key_size);
	free(d->entries);
	d->entries = fresh;
	d->n = n;
	d->cap = cap;
	return handed;
}
