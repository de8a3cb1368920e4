/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Names a collector made once (a kernel's, demangled) kept by (process, key), so that the next
 * time costs no map lookup and no demangling: a fixed number of slots, one name each, a slot
 * taken over by the next name that falls on it. Bounded: the slots and their names' length are
 * set at its start.
 */
#ifndef GPUTOP_NAME_CACHE_H
#define GPUTOP_NAME_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct name_cache {
	size_t slots, len; /* names at most len - 1 bytes */
	uint32_t *tgid;
	uint64_t *key;
	char *names; /* slots * len; "" where none */
};

/* slots names of up to len - 1 bytes: 0, or -ENOMEM (then it keeps none, and says none). */
int name_cache_init(struct name_cache *c, size_t slots, size_t len);
void name_cache_free(struct name_cache *c);
/* The name kept for (tgid, key); NULL when none is. */
const char *name_cache_get(const struct name_cache *c, uint32_t tgid, uint64_t key);
/* name (cut to fit) kept for (tgid, key). */
void name_cache_put(struct name_cache *c, uint32_t tgid, uint64_t key, const char *name);
/* The name of (tgid, key) no longer kept (its process is gone: its pid may come again). */
void name_cache_forget(struct name_cache *c, uint32_t tgid, uint64_t key);

#endif
