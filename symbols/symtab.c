// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "symbols/symtab.h"

void symtab_init(struct symtab *t, size_t max_syms, size_t max_pool)
{
	memset(t, 0, sizeof(*t));
	t->max_syms = max_syms;
	t->max_pool = max_pool < UINT32_MAX ? max_pool : UINT32_MAX;
}

static int pool_reserve(struct symtab *t, size_t need)
{
	size_t cap = t->pool_cap ? t->pool_cap : 4096;
	char *p;

	if (t->pool_len + need <= t->pool_cap)
		return 0;
	while (cap < t->pool_len + need)
		cap *= 2;
	if (cap > t->max_pool)
		cap = t->max_pool;
	p = realloc(t->pool, cap);
	if (!p)
		return -ENOMEM;
	t->pool = p;
	t->pool_cap = cap;
	return 0;
}

int symtab_add(struct symtab *t, uint64_t addr, uint64_t size, const char *name, size_t len)
{
	struct sym *s;
	const char *nul = memchr(name, '\0', len);

	if (nul)
		len = (size_t)(nul - name);
	if (len > SYMTAB_NAME_MAX)
		len = SYMTAB_NAME_MAX;
	if (t->n >= t->max_syms || t->pool_len + len + 1 > t->max_pool) {
		t->full = true;
		return -ENOSPC;
	}
	if (pool_reserve(t, len + 1))
		return -ENOMEM;
	s = array_push(&t->syms, &t->n, &t->cap, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->addr = addr;
	s->size = size;
	s->name = (uint32_t)t->pool_len;
	s->order = (uint32_t)(t->n - 1);
	memcpy(t->pool + t->pool_len, name, len);
	t->pool[t->pool_len + len] = '\0';
	t->pool_len += len + 1;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void symtab_sort(struct symtab *t, bool fill_sizes)
{
	size_t i, out = 0;

	if (t->n)
		qsort(t->syms, t->n, sizeof(*t->syms), by_addr);
	for (i = 0; i < t->n; i++) {
		/* of one address, the later added wins over one of the same size or none */
		if (out && t->syms[out - 1].addr == t->syms[i].addr &&
		    (t->syms[out - 1].size == t->syms[i].size || !t->syms[out - 1].size ||
		     !t->syms[i].size)) {
			if (t->syms[i].size || !t->syms[out - 1].size)
				t->syms[out - 1] = t->syms[i];
			continue;
		}
		t->syms[out++] = t->syms[i];
	}
	t->n = out;
	if (!fill_sizes)
		return;
	for (i = 0; i + 1 < t->n; i++)
		if (!t->syms[i].size)
			t->syms[i].size = t->syms[i + 1].addr - t->syms[i].addr;
}

/* Within s: [addr, addr + size), wrapping at the top guarded; size 0 holds its address alone. */
static bool holds(const struct sym *s, uint64_t addr)
{
	if (addr < s->addr)
		return false;
	if (!s->size)
		return addr == s->addr;
	return addr - s->addr < s->size;
}

const struct sym *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n, back;

	while (lo < hi) { /* the first that starts after addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* nested or overlapping ranges: a few before may still hold it */
	for (back = 0; back < 8 && lo > 0; back++, lo--)
		if (holds(&t->syms[lo - 1], addr))
			return &t->syms[lo - 1];
	return NULL;
}

size_t symtab_bytes(const struct symtab *t)
{
	return t->cap * sizeof(*t->syms) + t->pool_cap + sizeof(*t);
}

void symtab_free(struct symtab *t)
{
	free(t->syms);
	free(t->pool);
	memset(t, 0, sizeof(*t));
}
