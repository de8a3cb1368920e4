/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One interning index of a Perfetto packet sequence (event names, or debug
 * annotation names): each string gets an iid (1, 2, ...) once, written in the
 * packet that first uses it. Bounded: past PERFETTO_INTERN_MAX strings a
 * caller writes names inline instead. An iid is only kept once its packet was
 * written: a caller asks (intern_find), then adds (intern_add) after writing.
 */
#ifndef GPUTOP_PERFETTO_INTERN_H
#define GPUTOP_PERFETTO_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERFETTO_INTERN_MAX 4096

struct perfetto_intern {
	char **strs; /* by slot: open addressing, 2 * PERFETTO_INTERN_MAX slots */
	uint64_t *iids;
	size_t n; /* strings kept */
};

int perfetto_intern_init(struct perfetto_intern *t);
void perfetto_intern_free(struct perfetto_intern *t);
/* The iid of s, 0 when it has none. */
uint64_t perfetto_intern_find(const struct perfetto_intern *t, const char *s);
/* The iid the next string added gets (n + 1 + ahead), 0 when the index is full by then. */
uint64_t perfetto_intern_next(const struct perfetto_intern *t, size_t ahead);
/* Keeps s with the next iid (s not there yet); false when full or out of memory. */
bool perfetto_intern_add(struct perfetto_intern *t, const char *s);

#endif
