/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Texts kept by the bytes of a key (a BPF map's key: a stack's), each made once,
 * at its first use, and kept: the symbolized stacks of the --stacks sources,
 * which would cost too much to make again every interval. A text put "again"
 * (its frames partly unknown for now) is kept until it is made again: get
 * gives NULL for it, and the next put replaces it.
 */
#ifndef GPUTOP_KIT_KEY_TEXT_H
#define GPUTOP_KIT_KEY_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/key_index.h"

#define KEY_TEXT_KEY_MAX 40 /* bytes of a key at most */

struct key_text_entry;

struct key_text {
	size_t key_size;
	struct key_text_entry *e;
	size_t n, cap;
	struct key_index index; /* a key's hash -> its first entry */
};

/* Keys of key_size bytes (at most KEY_TEXT_KEY_MAX). */
void key_text_init(struct key_text *kt, size_t key_size);
/* key's text, or NULL when it has none yet (or one to make again). */
const char *key_text_get(const struct key_text *kt, const void *key);
/* text copied as key's (which has none, or one to make again); the copy, or NULL: no memory. */
const char *key_text_put(struct key_text *kt, const void *key, const char *text, bool again);
void key_text_free(struct key_text *kt);

#endif
