/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A sorted table of named address ranges, the one form ELF symbols, perf map
 * entries and kernel symbols take: names in one pool, every count and byte
 * bounded by limits the owner gives.
 */
#ifndef GPUTOP_SYMBOLS_SYMTAB_H
#define GPUTOP_SYMBOLS_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A name longer than this is cut (kernel symbols are at most 512, C++ names can be any). */
#define SYMTAB_NAME_MAX 1024

struct sym {
	uint64_t addr;
	uint64_t size; /* 0: the address alone */
	uint32_t name; /* offset in the pool */
	uint32_t order; /* the order added: the later of two at one address wins */
};

struct symtab {
	struct sym *syms;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
	size_t max_syms; /* what add refuses beyond */
	size_t max_pool; /* bytes of names */
	bool full; /* a limit was reached: some names were left out */
};

void symtab_init(struct symtab *t, size_t max_syms, size_t max_pool);
/* Adds a range; len bytes of name (cut at SYMTAB_NAME_MAX, and at a NUL). -ENOSPC, -ENOMEM. */
int symtab_add(struct symtab *t, uint64_t addr, uint64_t size, const char *name, size_t len);
/*
 * Sorts by address; with fill_sizes, a range without a size reaches to the next
 * address (kernel symbols have no sizes). Drops duplicates of one address and
 * size, keeping the later.
 */
void symtab_sort(struct symtab *t, bool fill_sizes);
/* The range that holds addr, the nearest that starts at or before it; NULL if none. */
const struct sym *symtab_find(const struct symtab *t, uint64_t addr);
static inline const char *symtab_name(const struct symtab *t, const struct sym *s)
{
	return t->pool + s->name;
}
/* Bytes held (for the cache's bound). */
size_t symtab_bytes(const struct symtab *t);
void symtab_free(struct symtab *t);

#endif
