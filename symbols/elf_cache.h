/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What was read of each ELF file, kept per file: keyed by (device, inode,
 * build id), bounded in entries and bytes, the least recently used evicted
 * first, with counters of hits, misses and evictions. A file whose symbols
 * alone pass the byte bound is kept without them ("too large"), so that it is
 * not read again at every address that falls in it.
 */
#ifndef GPUTOP_SYMBOLS_ELF_CACHE_H
#define GPUTOP_SYMBOLS_ELF_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/elf_file.h"
#include "symbols/symtab.h"

struct elf_key {
	uint32_t dev_major, dev_minor;
	uint64_t inode;
	uint8_t build_id[BUILD_ID_MAX];
	uint8_t build_id_len;
};

struct elf_entry {
	struct elf_key key;
	struct elf_info info;
	struct symtab syms; /* empty when the file has none, or they were too large */
	bool too_large; /* its symbols passed the byte bound: not kept (the file is not read again) */
	bool unread; /* its symbol table could not be read (elf_file_syms' -EIO); set by the caller */
	size_t bytes;
	uint64_t used; /* the cache's clock when last returned */
};

struct elf_cache_stats {
	uint64_t hits, misses, evictions;
	uint64_t too_large; /* files whose symbols passed the byte bound (kept without them) */
	size_t entries, bytes;
};

struct elf_cache {
	struct elf_entry *entries;
	size_t n, max_entries, max_bytes, bytes;
	uint64_t clock;
	struct elf_cache_stats stats;
};

/* max_entries >= 1. 0 or -ENOMEM. */
int elf_cache_init(struct elf_cache *c, size_t max_entries, size_t max_bytes);
/* The entry of key (a hit), or NULL (a miss). Valid until the next put. */
struct elf_entry *elf_cache_get(struct elf_cache *c, const struct elf_key *key);
/*
 * Takes info and syms (syms is emptied either way) as key's entry, evicting the
 * least recently used until the bounds hold. Where syms alone are larger than
 * the byte bound they are freed and the entry is kept without them, too_large.
 * Valid until the next put.
 */
struct elf_entry *elf_cache_put(struct elf_cache *c, const struct elf_key *key,
				const struct elf_info *info, struct symtab *syms);
struct elf_cache_stats elf_cache_stats(const struct elf_cache *c);
void elf_cache_free(struct elf_cache *c);

#endif
