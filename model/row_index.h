/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A table's rows found by the values of one or two of its number columns (a
 * process's pid; a GPU's index and a pid), through a hash: what the derived
 * tables join on, each row found in constant time rather than by a walk of the
 * table. A key is whole numbers from 0 to 2^32 - 1 (pids, GPU indices, minor
 * numbers): a row with another value in a key column is not found, nor is one
 * looked up with such a value.
 */
#ifndef GPUTOP_ROW_INDEX_H
#define GPUTOP_ROW_INDEX_H

#include <stdbool.h>
#include "core/key_index.h"
#include "model/table.h"

/* The key of a and b (b: 0 for one column), false where either is no whole number below 2^32. */
bool row_key(double a, double b, uint64_t *key);
/* Fills ki (empty): the first row of t (NULL: none) of each key of col_a and col_b (NULL: one). -1: no memory. */
int row_index_build(struct key_index *ki, const struct table *t, const char *col_a, const char *col_b);
/* The first row whose key is a and b (b: 0 for one column); false where none is. */
bool row_index_find(const struct key_index *ki, double a, double b, size_t *row);

#endif
