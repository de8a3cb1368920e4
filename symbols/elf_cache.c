// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/elf_cache.h"

int elf_cache_init(struct elf_cache *c, size_t max_entries, size_t max_bytes)
{
	memset(c, 0, sizeof(*c));
	if (!max_entries)
		max_entries = 1;
	c->entries = calloc(max_entries, sizeof(*c->entries));
	if (!c->entries)
		return -ENOMEM;
	c->max_entries = max_entries;
	c->max_bytes = max_bytes;
	return 0;
}

static bool same_key(const struct elf_key *a, const struct elf_key *b)
{
	return a->dev_major == b->dev_major && a->dev_minor == b->dev_minor &&
	       a->inode == b->inode && a->build_id_len == b->build_id_len &&
	       !memcmp(a->build_id, b->build_id, a->build_id_len);
}

struct elf_entry *elf_cache_get(struct elf_cache *c, const struct elf_key *key)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (same_key(&c->entries[i].key, key)) {
			c->stats.hits++;
			c->entries[i].used = ++c->clock;
			return &c->entries[i];
		}
	c->stats.misses++;
	return NULL;
}

static void evict_oldest(struct elf_cache *c)
{
	size_t i, old = 0;

	for (i = 1; i < c->n; i++)
		if (c->entries[i].used < c->entries[old].used)
			old = i;
	c->bytes -= c->entries[old].bytes;
	symtab_free(&c->entries[old].syms);
	c->entries[old] = c->entries[--c->n];
	c->stats.evictions++;
}

struct elf_entry *elf_cache_put(struct elf_cache *c, const struct elf_key *key,
				const struct elf_info *info, struct symtab *syms)
{
	size_t bytes = symtab_bytes(syms) + sizeof(struct elf_entry);
	bool too_large = bytes > c->max_bytes;
	struct elf_entry *e;

	if (too_large) { /* kept without them: read once, not at every address in the file */
		symtab_free(syms);
		bytes = sizeof(struct elf_entry);
		c->stats.too_large++;
	}
	while (c->n && (c->n >= c->max_entries || c->bytes + bytes > c->max_bytes))
		evict_oldest(c);
	e = &c->entries[c->n++];
	e->key = *key;
	e->info = *info;
	e->syms = *syms;
	memset(syms, 0, sizeof(*syms));
	e->too_large = too_large;
	e->unread = false;
	e->bytes = bytes;
	e->used = ++c->clock;
	c->bytes += bytes;
	return e;
}

struct elf_cache_stats elf_cache_stats(const struct elf_cache *c)
{
	struct elf_cache_stats s = c->stats;

	s.entries = c->n;
	s.bytes = c->bytes;
	return s;
}

void elf_cache_free(struct elf_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		symtab_free(&c->entries[i].syms);
	free(c->entries);
	memset(c, 0, sizeof(*c));
}
