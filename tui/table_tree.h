/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The tree view of a process table (t, F5): its processes under their
 * container (the cgroup column), each container a line of its own above them;
 * the containers in the order of their first process as sorted. No curses.
 */
#ifndef GPUTOP_TABLE_TREE_H
#define GPUTOP_TABLE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include "model/table.h"

/* A table the tree applies to: keyed by PID, with a cgroup column. */
bool table_tree_applies(const struct table_desc *d);
/* rows (n of t's, sorted) regrouped by container, each group keeping its order; false when out of memory. */
bool table_tree_order(const struct table *t, size_t *rows, size_t n);
/* Row i of rows starts a container's group (its line above it). */
bool table_tree_starts_group(const struct table *t, const size_t *rows, size_t i);
/* The screen lines rows[0..i] take, their containers' lines included, less one: row i's line. */
size_t table_tree_line_of(const struct table *t, const size_t *rows, size_t i);
/* The screen lines all of t's rows take in the tree, their containers' lines included (its rows where out of memory). */
size_t table_tree_lines(const struct table *t);
/* How many rows from i on share row i's container. */
size_t table_tree_group_size(const struct table *t, const size_t *rows, size_t n, size_t i);

#endif
