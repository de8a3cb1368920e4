// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "symbols/folded_sum.h"

/* FNV-1a, 64 bits. */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* The slot of text: its line's, or the free one where it would go. */
static uint32_t *slot_of(const struct folded_sum *fs, const char *text)
{
	size_t i = text_hash(text) & (fs->nslots - 1);

	while (fs->slots[i] && strcmp(fs->lines[fs->slots[i] - 1].text, text))
		i = (i + 1) & (fs->nslots - 1);
	return &fs->slots[i];
}

/* Twice the slots (16 at first), every line placed again; -ENOMEM. */
static int grow(struct folded_sum *fs)
{
	size_t n = fs->nslots ? 2 * fs->nslots : 16;
	uint32_t *slots = n <= UINT32_MAX ? calloc(n, sizeof(*slots)) : NULL;

	if (!slots)
		return -ENOMEM;
	free(fs->slots);
	fs->slots = slots;
	fs->nslots = n;
	for (size_t i = 0; i < fs->n; i++)
		*slot_of(fs, fs->lines[i].text) = (uint32_t)(i + 1);
	return 0;
}

int folded_sum_add(struct folded_sum *fs, const char *text, uint64_t weight)
{
	struct folded_sum_line *l;
	uint32_t *slot;
	char *copy;

	if (2 * (fs->n + 1) > fs->nslots && grow(fs))
		return -ENOMEM;
	slot = slot_of(fs, text);
	if (*slot) {
		fs->lines[*slot - 1].weight += weight;
		return 0;
	}
	copy = strdup(text);
	l = copy ? array_push(&fs->lines, &fs->n, &fs->cap, sizeof(*l)) : NULL;
	if (!l)
		return free(copy), -ENOMEM;
	l->text = copy;
	l->weight = weight;
	*slot = (uint32_t)fs->n;
	return 0;
}

int folded_sum_write(const struct folded_sum *fs, FILE *f)
{
	for (size_t i = 0; i < fs->n; i++)
		fprintf(f, "%s %" PRIu64 "\n", fs->lines[i].text, fs->lines[i].weight);
	return ferror(f) ? -EIO : 0;
}

void folded_sum_free(struct folded_sum *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->lines[i].text);
	free(fs->lines);
	free(fs->slots);
	memset(fs, 0, sizeof(*fs));
}
