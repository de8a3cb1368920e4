// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "symbols/dwarf_chains.h"
#include "core/array.h"
#include "core/text_copy.h"

struct dwarf_key dwarf_key_of(const void *key, size_t size)
{
	struct dwarf_key k = { { 0 } };

	memcpy(&k, key, size < sizeof(k) ? size : sizeof(k));
	return k;
}

static int key_cmp(const struct dwarf_key *a, const struct dwarf_key *b)
{
	for (size_t i = 0; i < sizeof(a->w) / sizeof(a->w[0]); i++)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

static bool same_chain(const struct dwarf_chain *c, const struct unwind_result *r)
{
	return c->n == r->n && c->truncated == r->truncated && c->complete == r->complete && !memcmp(c->ips, r->ips, r->n * sizeof(r->ips[0]));
}

void dwarf_chains_add(struct dwarf_chains *d, const struct dwarf_key *k, const struct unwind_result *r)
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
	if (d->n >= DWARF_CHAINS_MAX || !(c = array_push(&d->chains, &d->n, &d->cap, sizeof(*c)))) {
		d->lost++;
		return;
	}
	c->key = *k;
	c->text = NULL;
	c->text_again = false;
	c->samples = 1;
	c->truncated = r->truncated;
	c->complete = r->complete;
	c->n = (uint32_t)r->n;
	memcpy(c->ips, r->ips, r->n * sizeof(r->ips[0]));
	d->samples++;
	d->sorted = false;
}

const char *dwarf_chain_text(const struct dwarf_chain *c)
{
	return c->text_again ? NULL : c->text;
}

const char *dwarf_chain_text_set(struct dwarf_chain *c, const char *text, bool again)
{
	if (!text_dup_into(&c->text, text))
		return NULL;
	c->text_again = again;
	return c->text;
}

static int chain_cmp(const void *a, const void *b)
{
	return key_cmp(&((const struct dwarf_chain *)a)->key, &((const struct dwarf_chain *)b)->key);
}

struct dwarf_chain *dwarf_chains_of(struct dwarf_chains *d, const struct dwarf_key *k, size_t *n)
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

uint64_t dwarf_chains_samples(struct dwarf_chains *d, const struct dwarf_key *k)
{
	size_t n;
	const struct dwarf_chain *c = dwarf_chains_of(d, k, &n);
	uint64_t samples = 0;

	for (size_t i = 0; i < n; i++)
		samples += c[i].samples;
	return samples;
}

static bool any(const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i])
			return true;
	return false;
}

/* Weight w's share of samples out of total, floored. */
static uint64_t floor_share(uint64_t w, uint64_t samples, uint64_t total)
{
	return (uint64_t)((unsigned __int128)w * samples / total);
}

bool dwarf_chains_split(struct dwarf_chains *d, const struct dwarf_key *k, const struct dwarf_split *s)
{
	uint64_t fp[DWARF_WEIGHTS_MAX] = { 0 }, share[DWARF_WEIGHTS_MAX], left[DWARF_WEIGHTS_MAX] = { 0 }, total = 0;
	size_t n, nw = s->nw < DWARF_WEIGHTS_MAX ? s->nw : DWARF_WEIGHTS_MAX, depth = SIZE_MAX;
	struct dwarf_chain *c = dwarf_chains_of(d, k, &n);

	if (!c) {
		if (any(s->w, nw))
			s->part(s->arg, NULL, s->w);
		return false;
	}
	for (size_t i = 0; i < n; i++) /* a chain has a sample at least: total > 0 */
		total += c[i].samples;
	for (size_t j = 0; j < nw; j++) {
		left[j] = s->w[j];
		for (size_t i = 0; i < n; i++)
			left[j] -= floor_share(s->w[j], c[i].samples, total);
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < nw; j++)
			share[j] = floor_share(s->w[j], c[i].samples, total) + (i < left[j] ? 1 : 0);
		if (!c[i].complete && depth == SIZE_MAX)
			depth = s->fp_depth(s->arg);
		if (!c[i].complete && depth > c[i].n) { /* the frame pointers' */
			for (size_t j = 0; j < nw; j++)
				fp[j] += share[j];
		} else if (any(share, nw)) {
			s->part(s->arg, &c[i], share);
		}
	}
	if (any(fp, nw))
		s->part(s->arg, NULL, fp);
	return true;
}

void dwarf_chains_free(struct dwarf_chains *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->chains[i].text);
	free(d->chains);
	memset(d, 0, sizeof(*d));
}
