/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The one growable-array idiom: append a zeroed item, doubling the room when full. */
#ifndef GPUTOP_ARRAY_H
#define GPUTOP_ARRAY_H

#include <stddef.h>

/*
 * *items holds *n items of size bytes with room for *cap. Appends one zeroed
 * item and returns it; NULL (nothing changed) on allocation failure.
 */
void *array_push(void *items, size_t *n, size_t *cap, size_t size);

#endif
