// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "collectors/kit/name_cache.h"

int name_cache_init(struct name_cache *c, size_t slots, size_t len)
{
	*c = (struct name_cache){ .slots = slots, .len = len };
	c->tgid = calloc(slots, sizeof(*c->tgid));
	c->key = calloc(slots, sizeof(*c->key));
	c->names = calloc(slots, len);
	if (c->tgid && c->key && c->names && slots && len)
		return 0;
	name_cache_free(c);
	return -ENOMEM;
}

void name_cache_free(struct name_cache *c)
{
	free(c->tgid);
	free(c->key);
	free(c->names);
	*c = (struct name_cache){ 0 };
}

static size_t slot_of(const struct name_cache *c, uint32_t tgid, uint64_t key)
{
	return (size_t)(((key >> 4) ^ key) * 2654435761u ^ tgid) % c->slots;
}

const char *name_cache_get(const struct name_cache *c, uint32_t tgid, uint64_t key)
{
	size_t i;

	if (!c->slots)
		return NULL;
	i = slot_of(c, tgid, key);
	if (!c->names[i * c->len] || c->tgid[i] != tgid || c->key[i] != key)
		return NULL;
	return &c->names[i * c->len];
}

void name_cache_put(struct name_cache *c, uint32_t tgid, uint64_t key, const char *name)
{
	size_t i;

	if (!c->slots)
		return;
	i = slot_of(c, tgid, key);
	c->tgid[i] = tgid;
	c->key[i] = key;
	snprintf(&c->names[i * c->len], c->len, "%s", name);
}

void name_cache_forget(struct name_cache *c, uint32_t tgid, uint64_t key)
{
	size_t i;

	if (!c->slots)
		return;
	i = slot_of(c, tgid, key);
	if (c->tgid[i] == tgid && c->key[i] == key)
		c->names[i * c->len] = '\0';
}
