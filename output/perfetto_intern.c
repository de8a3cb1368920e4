// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A bounded string interning index (perfetto_intern.h). */
#include <stdlib.h>
#include <string.h>
#include "output/perfetto_intern.h"

#define SLOTS (2 * PERFETTO_INTERN_MAX) /* a power of two: at most half full */

/* FNV-1a. */
static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (size_t)(h & (SLOTS - 1));
}

/* The slot that holds s, or the empty one where it would go. */
static size_t slot_of(const struct perfetto_intern *t, const char *s)
{
	size_t i = hash(s);

	while (t->strs[i] && strcmp(t->strs[i], s))
		i = (i + 1) & (SLOTS - 1);
	return i;
}

int perfetto_intern_init(struct perfetto_intern *t)
{
	t->n = 0;
	t->strs = calloc(SLOTS, sizeof(*t->strs));
	t->iids = calloc(SLOTS, sizeof(*t->iids));
	if (t->strs && t->iids)
		return 0;
	perfetto_intern_free(t);
	return -1;
}

void perfetto_intern_free(struct perfetto_intern *t)
{
	if (t->strs)
		for (size_t i = 0; i < SLOTS; i++)
			free(t->strs[i]);
	free(t->strs);
	free(t->iids);
	t->strs = NULL;
	t->iids = NULL;
	t->n = 0;
}

uint64_t perfetto_intern_find(const struct perfetto_intern *t, const char *s)
{
	size_t i = slot_of(t, s);

	return t->strs[i] ? t->iids[i] : 0;
}

uint64_t perfetto_intern_next(const struct perfetto_intern *t, size_t ahead)
{
	return t->n + ahead < PERFETTO_INTERN_MAX ? t->n + 1 + ahead : 0;
}

bool perfetto_intern_add(struct perfetto_intern *t, const char *s)
{
	size_t i;

	if (t->n >= PERFETTO_INTERN_MAX)
		return false;
	i = slot_of(t, s);
	if (t->strs[i])
		return true;
	t->strs[i] = strdup(s);
	t->n++; /* the iid is spent even without memory: it may be in a packet written */
	if (!t->strs[i])
		return false;
	t->iids[i] = t->n;
	return true;
}
