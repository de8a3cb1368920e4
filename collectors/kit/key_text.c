// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "collectors/kit/key_text.h"
#include "core/array.h"
#include "core/text_copy.h"

#define NONE UINT32_MAX

struct key_text_entry {
	unsigned char key[KEY_TEXT_KEY_MAX];
	char *text;
	bool again; /* to be made again at its next use */
	uint32_t next; /* the next of the same hash, NONE: the last */
};

void key_text_init(struct key_text *kt, size_t key_size)
{
	memset(kt, 0, sizeof(*kt));
	kt->key_size = key_size < KEY_TEXT_KEY_MAX ? key_size : KEY_TEXT_KEY_MAX;
}

static uint64_t key_hash(const struct key_text *kt, const void *key)
{
	const unsigned char *b = key;
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (size_t i = 0; i < kt->key_size; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* key's entry, NONE when it has none; *last: the last entry of its hash (NONE: no entry of it). */
static uint32_t find(const struct key_text *kt, const void *key, uint32_t *last)
{
	uint32_t i;

	*last = NONE;
	if (!key_index_get(&kt->index, key_hash(kt, key), &i))
		return NONE;
	for (; i != NONE; *last = i, i = kt->e[i].next)
		if (!memcmp(kt->e[i].key, key, kt->key_size))
			return i;
	return NONE;
}

const char *key_text_get(const struct key_text *kt, const void *key)
{
	uint32_t last, i = find(kt, key, &last);

	return i == NONE || kt->e[i].again ? NULL : kt->e[i].text;
}

/* Entry t's text replaced (it was to be made again); NULL: no memory (it keeps the old one). */
static const char *replace(struct key_text_entry *t, const char *text, bool again)
{
	if (!text_dup_into(&t->text, text))
		return NULL;
	t->again = again;
	return t->text;
}

const char *key_text_put(struct key_text *kt, const void *key, const char *text, bool again)
{
	struct key_text_entry *t;
	uint32_t last, i = find(kt, key, &last);

	if (i != NONE)
		return kt->e[i].again ? replace(&kt->e[i], text, again) : NULL;
	if (kt->n >= NONE - 1)
		return NULL;
	if (!(t = array_push(&kt->e, &kt->n, &kt->cap, sizeof(*t))))
		return NULL;
	i = (uint32_t)(kt->n - 1);
	memset(t->key, 0, sizeof(t->key));
	memcpy(t->key, key, kt->key_size);
	t->next = NONE;
	t->again = again;
	if (!(t->text = strdup(text)) || (last == NONE && key_index_put(&kt->index, key_hash(kt, key), i))) {
		free(t->text);
		kt->n--;
		return NULL;
	}
	if (last != NONE)
		kt->e[last].next = i;
	return t->text;
}

void key_text_free(struct key_text *kt)
{
	for (size_t i = 0; i < kt->n; i++)
		free(kt->e[i].text);
	free(kt->e);
	key_index_free(&kt->index);
	memset(kt, 0, sizeof(*kt));
}
