// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The Stacks view's call tree from the stacks tables' rows (stack_tree.h). No curses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui/stack_tree.h"

static uint64_t hash_bytes(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t hash_child(uint64_t parent, const char *name, size_t n)
{
	return hash_bytes(parent * 0x9e3779b97f4a7c15ULL + 0xcbf29ce484222325ULL, name, n);
}

static char root_name[] = "";

bool stack_tree_init(struct stack_tree *t)
{
	memset(t, 0, sizeof(*t));
	t->nslots = 1024;
	t->slots = calloc(t->nslots, sizeof(*t->slots));
	t->nodes = calloc(64, sizeof(*t->nodes));
	if (!t->slots || !t->nodes) {
		stack_tree_free(t);
		return false;
	}
	t->cap = 64;
	t->n = 1;
	t->nodes[0] = (struct stack_node){ .name = root_name, .parent = STACK_NONE,
					   .first_child = STACK_NONE, .next_sibling = STACK_NONE,
					   .kind = SK_ROOT };
	return true;
}

void stack_tree_free(struct stack_tree *t)
{
	for (size_t i = 1; i < t->n; i++)
		free(t->nodes[i].name);
	free(t->nodes);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static bool same_name(const struct stack_node *n, const char *name, size_t len)
{
	return !strncmp(n->name, name, len) && !n->name[len];
}

/* A name of STACK_NAME_MAX bytes or more cut at a character boundary and ended by "…", in out. */
static size_t name_cut(const char *name, char *out)
{
	size_t len = STACK_NAME_MAX - 4;

	while (len && ((unsigned char)name[len] & 0xc0) == 0x80)
		len--;
	memcpy(out, name, len);
	memcpy(out + len, "\xe2\x80\xa6", 4);
	return len + 3;
}

static bool slots_grow(struct stack_tree *t)
{
	size_t n = t->nslots * 2;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return false;
	for (size_t i = 1; i < t->n; i++) {
		size_t k = t->nodes[i].path & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return true;
}

/* A new node under parent (the caller found none of that name); STACK_NONE out of memory. */
static uint32_t node_new(struct stack_tree *t, uint32_t parent, const char *name, size_t len, uint64_t path,
			 enum stack_kind kind)
{
	struct stack_node *p, *n;

	if (t->n == t->cap) {
		struct stack_node *g = reallocarray(t->nodes, t->cap * 2, sizeof(*g));

		if (!g)
			return STACK_NONE;
		t->nodes = g;
		t->cap *= 2;
	}
	n = &t->nodes[t->n];
	*n = (struct stack_node){ .name = strndup(name, len), .parent = parent, .first_child = STACK_NONE,
				  .path = path, .kind = kind };
	if (!n->name)
		return STACK_NONE;
	p = &t->nodes[parent];
	n->depth = p->depth + 1;
	n->next_sibling = p->first_child;
	p->first_child = (uint32_t)t->n;
	p->nchildren++;
	return (uint32_t)t->n++;
}

/* The child of parent named name[0..len), made where there is none; STACK_NONE past the bound. */
static uint32_t child(struct stack_tree *t, uint32_t parent, const char *name, size_t len, enum stack_kind kind)
{
	char cut[STACK_NAME_MAX];
	uint64_t path;
	size_t k;
	uint32_t i;

	if (len >= STACK_NAME_MAX) /* names that differ only past the cut are one node */
		len = name_cut(name, cut), name = cut;
	if ((t->n + 1) * 2 > t->nslots && !slots_grow(t))
		return STACK_NONE;
	path = hash_child(t->nodes[parent].path, name, len) + kind;
	for (k = path & (t->nslots - 1); t->slots[k]; k = (k + 1) & (t->nslots - 1)) {
		const struct stack_node *n = &t->nodes[t->slots[k] - 1];

		if (n->parent == parent && n->path == path && n->kind == kind && same_name(n, name, len))
			return t->slots[k] - 1;
	}
	if (t->n >= STACK_NODES_MAX)
		return STACK_NONE;
	i = node_new(t, parent, name, len, path, kind);
	if (i != STACK_NONE)
		t->slots[k] = i + 1;
	return i;
}

/* The nodes of frames (root first, ';' between) under from into path, from path[*n] on; false past the bound. */
static bool frame_nodes(struct stack_tree *t, const char *frames, uint32_t *path, size_t *n)
{
	size_t kept = 0, more = 0;

	for (const char *p = frames; p && *p;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (kept < STACK_DEPTH_MAX) {
			path[*n] = len ? child(t, path[*n - 1], p, len, SK_FRAME) :
					 child(t, path[*n - 1], "[empty frame]", 13, SK_FRAME);
			if (path[(*n)++] == STACK_NONE)
				return false;
			kept++;
		} else {
			more++;
		}
		p = end ? end + 1 : p + len;
	}
	if (more) {
		char name[64];
		int len = snprintf(name, sizeof(name), "[%zu more frames not shown]", more);

		path[*n] = child(t, path[*n - 1], name, (size_t)len, SK_FRAME);
		if (path[(*n)++] == STACK_NONE)
			return false;
	}
	return true;
}

bool stack_tree_add(struct stack_tree *t, uint32_t pid, const char *comm, const char *frames,
		    const char *leaf, const double w[TW_COUNT])
{
	uint32_t path[STACK_DEPTH_MAX + 4];
	char proc[64];
	size_t n = 1;
	int len;

	t->rows++;
	len = snprintf(proc, sizeof(proc), "%.31s %u", comm && *comm ? comm : "?", pid);
	path[0] = 0;
	path[n] = child(t, 0, proc, (size_t)len, SK_PROCESS);
	if (path[n++] == STACK_NONE || !frame_nodes(t, frames, path, &n)) {
		t->rows_left_out++;
		return false;
	}
	path[n] = child(t, path[n - 1], leaf && *leaf ? leaf : "[no leaf]",
			leaf && *leaf ? strlen(leaf) : 9, SK_LEAF);
	if (path[n++] == STACK_NONE) {
		t->rows_left_out++;
		return false;
	}
	for (int k = 0; k < TW_COUNT; k++) {
		if (isnan(w[k]))
			continue;
		t->has[k] |= w[k] > 0;
		for (size_t i = 0; i < n; i++)
			t->nodes[path[i]].incl[k] += w[k];
		t->nodes[path[n - 1]].self[k] += w[k];
	}
	return true;
}

static const char *const stack_cols[] = { "pid", "comm", "source", "leaf", "frames", "count" };

bool stack_table_is(const struct table *t)
{
	size_t n = strlen(t->desc->name);

	if (n < 7 || strcmp(t->desc->name + n - 7, ".stacks"))
		return false;
	for (size_t i = 0; i < sizeof(stack_cols) / sizeof(stack_cols[0]); i++)
		if (table_col(t->desc, stack_cols[i]) < 0)
			return false;
	return true;
}

/* Row r's weights: its count under its source's weight, its times where known. */
static void row_weights(const struct table *t, size_t r, double w[TW_COUNT])
{
	const char *src = table_str(t, r, "source");

	for (int k = 0; k < TW_COUNT; k++)
		w[k] = NAN;
	w[!strcmp(src, "launch") ? TW_LAUNCHES : !strcmp(src, "job") ? TW_JOBS : TW_CALLS] =
		table_num(t, r, "count");
	w[TW_GPU_NS] = table_num(t, r, "gpu_time_ns");
	w[TW_QUEUE_NS] = table_num(t, r, "queue_wait_ns");
	w[TW_BLOCKED_NS] = table_num(t, r, "blocked_ns");
}

static void note_add(struct stack_tree *t, const char *note)
{
	if (!note[0])
		return;
	for (size_t i = 0; i < t->nnotes; i++)
		if (!strcmp(t->notes[i], note))
			return;
	if (t->nnotes < STACK_NOTES_MAX)
		snprintf(t->notes[t->nnotes++], sizeof(t->notes[0]), "%s", note);
}

/* Whether a node of row r has f's text: one of its frames, its leaf, or its process ("COMM PID"). */
static bool row_has_text(const struct table *t, size_t r, const char *text)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "%.31s %.0f", table_str(t, r, "comm"), table_num(t, r, "pid"));
	/* frames are joined by ';': a text without one matches within a frame */
	return strcasestr(table_str(t, r, "frames"), text) || strcasestr(table_str(t, r, "leaf"), text) ||
	       strcasestr(proc, text);
}

/* Whether f keeps row r of t. */
static bool row_kept(const struct table *t, size_t r, const struct stack_filter *f)
{
	if (f->pid && table_num(t, r, "pid") != f->pid)
		return false;
	if (f->text[0] && !row_has_text(t, r, f->text))
		return false;
	return !f->ring[0] || (!strcmp(table_str(t, r, "source"), "job") && !strcmp(table_str(t, r, "leaf"), f->ring));
}

bool stack_tree_build(struct stack_tree *t, const struct snapshot *s, const struct stack_filter *f)
{
	if (!stack_tree_init(t))
		return false;
	for (size_t i = 0; s && i < s->ntables; i++) {
		const struct table *tb = s->tables[i];

		if (!stack_table_is(tb))
			continue;
		t->tables++;
		for (size_t r = 0; r < tb->nrows; r++) {
			double w[TW_COUNT], pid = table_num(tb, r, "pid");

			if (!row_kept(tb, r, f) || isnan(pid))
				continue;
			row_weights(tb, r, w);
			note_add(t, table_str(tb, r, "sampled"));
			/* a row left out is counted in rows_left_out, and said */
			stack_tree_add(t, (uint32_t)pid, table_str(tb, r, "comm"), table_str(tb, r, "frames"),
				       table_str(tb, r, "leaf"), w);
		}
	}
	return true;
}

struct by_weight {
	const struct stack_tree *t;
	enum tree_weight w;
};

static int cmp_weight(const void *a, const void *b, void *ctx)
{
	const struct by_weight *c = ctx;
	const struct stack_node *x = &c->t->nodes[*(const uint32_t *)a], *y = &c->t->nodes[*(const uint32_t *)b];

	if (x->incl[c->w] != y->incl[c->w])
		return x->incl[c->w] > y->incl[c->w] ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t stack_tree_children(const struct stack_tree *t, uint32_t i, enum tree_weight w, uint32_t *out,
			   size_t max)
{
	struct by_weight c = { t, w };
	size_t n = 0;

	for (uint32_t k = t->nodes[i].first_child; k != STACK_NONE && n < max; k = t->nodes[k].next_sibling)
		out[n++] = k;
	qsort_r(out, n, sizeof(*out), cmp_weight, &c);
	return n;
}

size_t stack_tree_lines(const struct stack_tree *t, enum tree_weight w,
			bool (*open)(void *ctx, const struct stack_node *n), void *ctx, uint32_t *out,
			size_t max)
{
	size_t n = 0;
	uint32_t *kids = malloc(t->n * sizeof(*kids));
	/* a stack of the nodes still to list, last on top: every node at most once */
	uint32_t *todo = malloc(t->n * sizeof(*todo));
	size_t ntodo;

	if (!kids || !todo) {
		free(kids);
		free(todo);
		return 0;
	}
	ntodo = stack_tree_children(t, 0, w, kids, t->n);
	for (size_t i = 0; i < ntodo; i++)
		todo[i] = kids[ntodo - 1 - i];
	while (ntodo && n < max) {
		uint32_t i = todo[--ntodo];
		size_t k;

		if (!(t->nodes[i].incl[w] > 0) && t->nodes[0].incl[w] > 0)
			continue; /* none of the weight shown: a process without launches under "launches" */
		out[n++] = i;
		if (!t->nodes[i].nchildren || !open(ctx, &t->nodes[i]))
			continue;
		k = stack_tree_children(t, i, w, kids, t->n);
		for (size_t j = 0; j < k; j++)
			todo[ntodo++] = kids[k - 1 - j];
	}
	free(kids);
	free(todo);
	return n;
}

const char *tree_weight_name(enum tree_weight w)
{
	static const char *const names[TW_COUNT] = { "launches", "jobs", "calls", "GPU time", "queue wait",
						     "time blocked" };

	return w < TW_COUNT ? names[w] : "?";
}

const char *tree_weight_meaning(enum tree_weight w)
{
	static const char *const meanings[TW_COUNT] = {
		"each CUDA launch counts one",
		"each scheduler job counts one",
		"each GPU ioctl, fence wait or CUDA sync counts one",
		"jobs' run to done; CUDA kernels' start to end (the CUPTI library's)",
		"jobs' queue to run; CUDA kernels' queued to start",
		"the time inside GPU ioctls, fence waits and CUDA syncs",
	};

	return w < TW_COUNT ? meanings[w] : "?";
}

bool tree_weight_is_ns(enum tree_weight w)
{
	return w == TW_GPU_NS || w == TW_QUEUE_NS || w == TW_BLOCKED_NS;
}
