// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "collectors/nvidia/launch_dwarf.h"
#include "core/array.h"

static int key_cmp(const struct nv_stack_key *a, const struct nv_stack_key *b)
{
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->handle != b->handle)
		return a->handle < b->handle ? -1 : 1;
	if (a->caller != b->caller)
		return a->caller < b->caller ? -1 : 1;
	return a->stack_id == b->stack_id ? 0 : a->stack_id < b->stack_id ? -1 : 1;
}

static bool same_chain(const struct dwarf_chain *c, const struct unwind_result *r)
{
	return c->n == r->n && c->truncated == r->truncated && c->complete == r->complete && !memcmp(c->ips, r->ips, r->n * sizeof(r->ips[0]));
}

void launch_dwarf_add(struct launch_dwarf *d, const struct nv_stack_key *k, const struct unwind_result *r)
{
	struct dwarf_chain *c;

	for (size_t i = 0; i < d->n; i++) {
		c = &d->chains[i];
		if (!key_cmp(&c->key, k) && same_chain(c, r)) {
			c->samples++;
			d->samples++;
			return;
		}
	}
	if (d->n >= LAUNCH_DWARF_CHAINS_MAX || !(c = array_push(&d->chains, &d->n, &d->cap, sizeof(*c)))) {
		d->lost++;
		return;
	}
	c->key = *k;
	c->text = NULL;
	c->samples = 1;
	c->truncated = r->truncated;
	c->complete = r->complete;
	c->n = (uint32_t)r->n;
	memcpy(c->ips, r->ips, r->n * sizeof(r->ips[0]));
	d->samples++;
	d->sorted = false;
}

static int chain_cmp(const void *a, const void *b)
{
	return key_cmp(&((const struct dwarf_chain *)a)->key, &((const struct dwarf_chain *)b)->key);
}

struct dwarf_chain *launch_dwarf_of(struct launch_dwarf *d, const struct nv_stack_key *k, size_t *n)
{
	size_t lo = 0, hi = d->n, end;

	if (!d->sorted) {
		if (d->n)
			qsort(d->chains, d->n, sizeof(d->chains[0]), chain_cmp);
		d->sorted = true;
	}
	while (lo < hi) { /* the first chain not before k */
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&d->chains[mid].key, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < d->n && !key_cmp(&d->chains[end].key, k); end++)
		;
	*n = end - lo;
	return *n ? &d->chains[lo] : NULL;
}

uint64_t launch_dwarf_share(const struct dwarf_chain *chains, size_t n, size_t i, uint64_t count)
{
	uint64_t total = 0, given = 0;

	for (size_t j = 0; j < n; j++)
		total += chains[j].samples;
	if (!total)
		return 0;
	for (size_t j = 0; j < n; j++)
		given += (uint64_t)((unsigned __int128)count * chains[j].samples / total);
	return (uint64_t)((unsigned __int128)count * chains[i].samples / total) + (i < count - given ? 1 : 0);
}

void launch_dwarf_free(struct launch_dwarf *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->chains[i].text);
	free(d->chains);
	memset(d, 0, sizeof(*d));
}
