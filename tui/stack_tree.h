/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The Stacks view's call tree (S), built from the rows of every "*.stacks"
 * table (nvidia.stacks, drm_sched.stacks, ...): under a process ("comm PID")
 * its frames root first, then the leaf (the GPU kernel, or the ring "DEV NAME");
 * each node's inclusive and self weight in every unit the rows give. Frames are
 * others' text: names bounded, depth bounded, nodes bounded. No curses.
 */
#ifndef GPUTOP_STACK_TREE_H
#define GPUTOP_STACK_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/snapshot.h"

/* The weights a node carries; a row's count goes to the one its source names. */
enum tree_weight {
	TW_LAUNCHES, /* source "launch" */
	TW_JOBS, /* source "job" */
	TW_CALLS, /* any other source ("ioctl", "fence-wait", "sync") */
	TW_GPU_NS,
	TW_QUEUE_NS,
	TW_BLOCKED_NS,
	TW_COUNT,
};

#define STACK_NONE UINT32_MAX
#define STACK_DEPTH_MAX 128 /* frames kept of one row; those past it are one node that says how many */
#define STACK_NODES_MAX 200000 /* nodes of one tree; rows past it are counted, not shown */
#define STACK_NAME_MAX 512 /* bytes of a node's name; a longer one ends in "…" */
#define STACK_NOTES_MAX 4 /* distinct "sampled" notes kept */

enum stack_kind { SK_ROOT, SK_PROCESS, SK_FRAME, SK_LEAF };

struct stack_node {
	char *name;
	uint32_t parent, first_child, next_sibling, nchildren;
	uint16_t depth; /* processes 1 */
	uint8_t kind; /* enum stack_kind */
	uint64_t path; /* a hash of the names from the process down: the node's identity across trees */
	double incl[TW_COUNT], self[TW_COUNT];
};

struct stack_tree {
	struct stack_node *nodes; /* nodes[0]: the root, all rows' totals */
	size_t n, cap;
	uint32_t *slots; /* open addressing by (parent, name): node index + 1, 0 empty */
	size_t nslots;
	bool has[TW_COUNT]; /* a row gave a known weight above zero */
	size_t rows, rows_left_out; /* rows added; rows past STACK_NODES_MAX or out of memory */
	char notes[STACK_NOTES_MAX][256]; /* the "sampled" notes, once each */
	size_t nnotes;
	size_t tables; /* "*.stacks" tables the snapshot has */
};

/*
 * Which rows: pid 0 all processes; ring non-empty: only job rows whose leaf is
 * that ring ("DEV NAME"); text non-empty: only rows with a node that has it
 * (case-insensitive: a frame, the leaf, or the process "COMM PID"), so the
 * tree keeps the nodes that match, the paths to them and what is under them.
 */
struct stack_filter {
	uint32_t pid;
	char ring[160];
	char text[64];
};

/* An empty tree (its root only); false out of memory. */
bool stack_tree_init(struct stack_tree *t);
void stack_tree_free(struct stack_tree *t);
/*
 * One row: frames root first joined by ';' (may be empty or NULL), leaf the last
 * node; w[k] NAN where the row does not know weight k. False when it was left
 * out (the node bound, or out of memory): counted in rows_left_out.
 */
bool stack_tree_add(struct stack_tree *t, uint32_t pid, const char *comm, const char *frames,
		    const char *leaf, const double w[TW_COUNT]);
/* A new tree (t not yet initialised; free it after) of every row of s's stacks tables that f keeps; false out of memory. */
bool stack_tree_build(struct stack_tree *t, const struct snapshot *s, const struct stack_filter *f);
/* Whether table t is a stacks table: its name ends in ".stacks" and it has the columns read. */
bool stack_table_is(const struct table *t);
/* The children of node i, sorted by inclusive weight w, largest first (ties by name); how many. */
size_t stack_tree_children(const struct stack_tree *t, uint32_t i, enum tree_weight w, uint32_t *out,
			   size_t max);
/*
 * The lines shown: the nodes in tree order, each node's children (sorted as
 * stack_tree_children) after it where open(ctx, node) says it is open; into
 * out (at most max); how many. Nodes without weight w are left out where others have it.
 */
size_t stack_tree_lines(const struct stack_tree *t, enum tree_weight w,
			bool (*open)(void *ctx, const struct stack_node *n), void *ctx, uint32_t *out,
			size_t max);
/* A weight's name ("launches", "GPU time") and whether it is a time in ns. */
const char *tree_weight_name(enum tree_weight w);
bool tree_weight_is_ns(enum tree_weight w);
/* What a weight weighs, in a few words ("jobs' run to done; CUDA kernels' start to end ..."). */
const char *tree_weight_meaning(enum tree_weight w);

#endif
