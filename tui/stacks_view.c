// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * S: the Stacks view, over the screen: the CPU call stacks that made GPU work,
 * as a top-down call tree (stack_tree.c) of a process, a ring's jobs or all
 * processes: per node its inclusive and self weight and a bar of its inclusive
 * share; Enter, Right and Left open and close, + and - likewise, * opens all,
 * w switches the weight, S again shows all processes, / filters the stacks by
 * a frame's text, Esc clears the filter, then goes back.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "format/cell_text.h"
#include "tui/draw.h"
#include "tui/sparkline.h"
#include "tui/stack_tree.h"

#define LINES_MAX 100000 /* lines listed at most (an open tree of more is cut there, and says so) */
#define BAR_CELLS 10
#define SIBLINGS_COMPARED 1000 /* siblings a name is told apart from, at most */

/* The tree of the snapshot last drawn, and its lines, kept for the keys until the next. */
static struct {
	struct stack_tree tree;
	bool built;
	uint64_t seq;
	struct stack_filter filter;
	uint32_t lines[LINES_MAX];
	size_t nlines;
	int weight;
} cache;

static void draw_stacks(struct view *v, const struct table *unused, long row, struct rect a);

bool stacks_view_shown(const struct view *v)
{
	return v->detail == draw_stacks;
}

void stacks_view_free(void)
{
	if (cache.built)
		stack_tree_free(&cache.tree);
	cache.built = false;
	cache.nlines = 0;
}

/* Node n is toggled against the default (at the index returned), or -1. */
static long toggled_at(const struct stacks_state *st, uint64_t path)
{
	for (size_t i = 0; i < st->ntoggled; i++)
		if (st->toggled[i] == path)
			return (long)i;
	return -1;
}

/* Open: processes by default, every node after '*' or while filtered; a toggled node the other way. */
static bool node_open(void *ctx, const struct stack_node *n)
{
	const struct stacks_state *st = ctx;
	bool def = st->all_open || st->filter[0] || n->kind == SK_PROCESS;

	return toggled_at(st, n->path) >= 0 ? !def : def;
}

static void node_set_open(struct stacks_state *st, const struct stack_node *n, bool open)
{
	long i = toggled_at(st, n->path);

	if (node_open(st, n) == open)
		return;
	if (i >= 0) { /* back to the default */
		memmove(&st->toggled[i], &st->toggled[i + 1], (st->ntoggled - (size_t)i - 1) * sizeof(st->toggled[0]));
		st->ntoggled--;
		return;
	}
	if (st->ntoggled == STACKS_TOGGLED_MAX) { /* the oldest goes */
		memmove(&st->toggled[0], &st->toggled[1], (STACKS_TOGGLED_MAX - 1) * sizeof(st->toggled[0]));
		st->ntoggled--;
	}
	st->toggled[st->ntoggled++] = n->path;
}

/* The weight shown: the state's where the rows have it, else the first they have. */
static int weight_shown(const struct stack_tree *t, int w)
{
	for (int k = 0; k < TW_COUNT; k++)
		if (t->has[(w + k) % TW_COUNT])
			return (w + k) % TW_COUNT;
	return w;
}

/* The tree and lines of the current snapshot and state (built again only when they changed). */
static void cache_update(struct view *v)
{
	struct stacks_state *st = &v->stacks;
	struct stack_filter f = { .pid = st->pid };

	snprintf(f.ring, sizeof(f.ring), "%s", st->ring);
	snprintf(f.text, sizeof(f.text), "%s", st->filter);
	if (!cache.built || cache.seq != (v->snap ? v->snap->seq : 0) || memcmp(&f, &cache.filter, sizeof(f))) {
		stacks_view_free();
		cache.built = stack_tree_build(&cache.tree, v->snap, &f);
		cache.seq = v->snap ? v->snap->seq : 0;
		cache.filter = f;
	}
	if (!cache.built)
		return;
	cache.weight = weight_shown(&cache.tree, st->weight);
	cache.nlines = stack_tree_lines(&cache.tree, cache.weight, node_open, st, cache.lines, LINES_MAX);
	for (size_t i = 0; st->sel_path && i < cache.nlines; i++)
		if (cache.tree.nodes[cache.lines[i]].path == st->sel_path)
			st->sel = i;
	if (st->sel >= cache.nlines)
		st->sel = cache.nlines ? cache.nlines - 1 : 0;
	st->sel_path = cache.nlines ? cache.tree.nodes[cache.lines[st->sel]].path : 0;
}

/* "1,234" (a count) or "12.345 ms" (a time), into buf. */
static const char *weight_text(double x, int w, char *buf, size_t size)
{
	if (tree_weight_is_ns(w))
		snprintf(buf, size, "%.3f ms", x / 1e6);
	else
		snprintf(buf, size, "%.0f", x);
	return buf;
}

/* What the view is of, for its title. */
static void subject(const struct view *v, char *buf, size_t size)
{
	const struct stack_tree *t = &cache.tree;
	const char *name = NULL;

	for (uint32_t k = t->n ? t->nodes[0].first_child : STACK_NONE; k != STACK_NONE; k = t->nodes[k].next_sibling)
		name = t->nodes[k].name;
	if (v->stacks.ring[0])
		snprintf(buf, size, "the jobs on ring %s", v->stacks.ring);
	else if (v->stacks.pid && name && t->nodes[0].nchildren == 1)
		snprintf(buf, size, "process %s", name);
	else if (v->stacks.pid)
		snprintf(buf, size, "process %u", v->stacks.pid);
	else
		snprintf(buf, size, "all processes");
}

/* Whether c can start stacks here: live, with the nvidia collector attached (it takes them). */
static bool c_key_works(const struct view *v)
{
	const struct collector_status *c = snapshot_collector(v->snap, "nvidia");

	return v->stacks_key && c && c->info->state == COLLECTOR_ATTACHED;
}

/* Why there is nothing to show, in a. */
static void draw_empty(struct view *v, struct rect a)
{
	const char *why;
	char text[400];

	if (!cache.built)
		why = "Out of memory while building the call tree.";
	else if (cache.tree.tables && v->stacks.filter[0]) {
		snprintf(text, sizeof(text),
			 "No stack has a frame, leaf or process matching \"%s\". Esc clears the filter.",
			 v->stacks.filter);
		why = text;
	} else if (!cache.tree.tables && v->feed && v->feed->replay)
		why = "This recording has no stacks: it was made without the stack capture. Record with "
		      "--stacks FILE to have the CPU call stacks of CUDA launches and DRM scheduler jobs.";
	else if (!cache.tree.tables && c_key_works(v)) /* c offered only where it can start them */
		why = "No stacks: the stack capture is not on. Press c to take the CPU call stacks of CUDA "
		      "launches from now on, or start gputop-bpf with --stacks FILE (or --stacks -, the "
		      "tables only) for those of DRM scheduler jobs too.";
	else if (!cache.tree.tables)
		why = "No stacks: the stack capture is not on. Start gputop-bpf with --stacks FILE (or --stacks -, "
		      "the tables only) to have the CPU call stacks of DRM scheduler jobs, and of CUDA launches "
		      "where the nvidia collector runs (not here).";
	else if (v->stacks.ring[0])
		why = "No job on this ring has a stack since the capture began.";
	else if (v->stacks.pid) {
		snprintf(text, sizeof(text), "Process %u has made no CUDA launch or scheduler job with a stack since "
			 "the capture began. S shows all processes.", v->stacks.pid);
		why = text;
	} else
		why = "No process has made a CUDA launch or scheduler job with a stack since the capture began.";
	put_wrapped(a, ROLE_DIM, why);
}

/* The lines above the tree: the weight and its total, the sampled notes, the keys; returns the rows used. */
static int draw_head(struct view *v, struct rect a)
{
	const struct stack_tree *t = &cache.tree;
	char parts[8][320], val[48], weights[120] = "";
	const char *ptr[8];
	int n = 0, y = a.y, nweights = 0;

	for (int k = 0; k < TW_COUNT; k++)
		if (t->has[k])
			snprintf(weights + strlen(weights), sizeof(weights) - strlen(weights), "%s%s",
				 nweights++ ? ", " : "", tree_weight_name(k));
	snprintf(parts[n++], sizeof(parts[0]), "Weight: %s (%s in all)", tree_weight_name(cache.weight),
		 weight_text(t->nodes[0].incl[cache.weight], cache.weight, val, sizeof(val)));
	if (nweights > 1) /* one weight: nothing to switch to */
		snprintf(parts[n++], sizeof(parts[0]), "(w: the next of %s)", weights);
	for (size_t i = 0; i < t->nnotes; i++) {
		char fit[256];

		text_fit(t->notes[i], a.w - 10 > 0 ? a.w - 10 : 1, v->utf8, fit, sizeof(fit));
		snprintf(parts[n++], sizeof(parts[0]), "Sampled: %s", fit);
	}
	if (cache.nlines == LINES_MAX)
		snprintf(parts[n++], sizeof(parts[0]), "the first %d lines listed: close some (*)", LINES_MAX);
	if (t->rows_left_out)
		snprintf(parts[n++], sizeof(parts[0]), "%zu of %zu stacks left out: the tree holds %d nodes at most",
			 t->rows_left_out, t->rows, STACK_NODES_MAX);
	for (int i = 0; i < n; i++)
		ptr[i] = parts[i];
	y += put_parts((struct rect){ y, a.x, a.h, a.w }, ROLE_NORMAL, ptr, n, 3);
	ptr[0] = "Enter, Right, Left: open, close";
	ptr[1] = "+ - likewise";
	ptr[2] = "*: open all";
	ptr[3] = "S: all processes";
	ptr[4] = "/: filter";
	y += put_parts((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_DIM, ptr, 5, 3);
	return y - a.y;
}

/* Where name and another differ, n bytes in, noted: the nearest past least, and the furthest. */
struct apart {
	size_t least, near, far;
};

static void apart_note(struct apart *ap, const char *name, const char *o)
{
	size_t n = 0;

	if (!strcmp(name, o))
		return;
	while (name[n] && name[n] == o[n])
		n++;
	ap->far = n > ap->far ? n : ap->far;
	if (n >= ap->least && (!ap->near || n < ap->near))
		ap->near = n;
}

/* Where node i's name differs from its siblings' (some of them) and from the lines' [first, end) drawn with it. */
static struct apart apart_of(const struct stack_tree *t, uint32_t i, size_t first, size_t end, int room)
{
	struct apart ap = { .least = (size_t)room / 3 };
	size_t seen = 0;

	for (uint32_t k = t->nodes[t->nodes[i].parent].first_child; k != STACK_NONE && seen < SIBLINGS_COMPARED;
	     k = t->nodes[k].next_sibling, seen++)
		if (k != i)
			apart_note(&ap, t->nodes[i].name, t->nodes[k].name);
	for (size_t l = first; l < end && l < cache.nlines; l++)
		if (cache.lines[l] != i)
			apart_note(&ap, t->nodes[i].name, t->nodes[cache.lines[l]].name);
	return ap;
}

/* Line i of the tree on row y of a, among the lines [first, end) drawn. */
static void draw_node(struct view *v, int y, struct rect a, size_t i, int col_w, size_t first, size_t end)
{
	const struct stack_tree *t = &cache.tree;
	uint32_t k = cache.lines[i];
	const struct stack_node *n = &t->nodes[k];
	int w = cache.weight, x = a.x, room, indent;
	enum role role = i == v->stacks.sel ? ROLE_SELECTED : ROLE_NORMAL;
	char val[48], bar[64], name[TEXT_CELL_MAX], mark[16];
	double total = t->nodes[0].incl[w];

	fill(y, a.x, a.w, role);
	x += putf(y, x, a.w, role, "%*s %*s ", col_w, weight_text(n->incl[w], w, val, sizeof(val)), col_w,
		  weight_text(n->self[w], w, bar, sizeof(bar)));
	if (a.w - (x - a.x) > BAR_CELLS + 20) {
		size_t cells = bar_render(total > 0 ? n->incl[w] / total : 0, BAR_CELLS, v->utf8, bar, sizeof(bar));

		put(y, x, BAR_CELLS, role == ROLE_SELECTED ? role : ROLE_METER_LOW, bar);
		x += BAR_CELLS + 1;
		(void)cells;
	}
	room = a.w - (x - a.x);
	indent = 2 * (n->depth - 1);
	if (indent > room / 4) { /* deeper than the width shows: the depth said instead */
		int d = snprintf(mark, sizeof(mark), "[%u] ", n->depth);

		indent = room / 4 - d > 0 ? room / 4 - d : 0;
		x += indent;
		x += put(y, x, room - indent, role, mark);
	} else
		x += indent;
	room = a.w - (x - a.x);
	snprintf(mark, sizeof(mark), "%s",
		 !n->nchildren ? "  " : node_open(&v->stacks, n) ? (v->utf8 ? "▾ " : "- ") : (v->utf8 ? "▸ " : "+ "));
	x += put(y, x, room, role, mark);
	room = a.w - (x - a.x);
	if (text_fit(n->name, 1 << 20, v->utf8, name, sizeof(name)) > room) { /* cut where the others differ */
		struct apart ap = apart_of(t, k, first, end, room);

		text_fit_apart(n->name, ap.near ? ap.near : ap.far, ap.far, room, v->utf8, name, sizeof(name));
	}
	put(y, x, room, role != ROLE_SELECTED && n->kind == SK_LEAF ? ROLE_VALUE :
			role != ROLE_SELECTED && n->kind == SK_PROCESS ? ROLE_TITLE : role, name);
}

static void draw_stacks(struct view *v, const struct table *unused, long row, struct rect a)
{
	struct stacks_state *st = &v->stacks;
	struct rect in = { a.y, a.x + 1, a.h, a.w - 2 };
	char what[300], title[400], val[48];
	int y = a.y, col_w, rows, x;

	(void)unused, (void)row;
	clear_rect(a);
	cache_update(v);
	subject(v, what, sizeof(what));
	/* the subject cut at a word where it must, the hint only whole */
	snprintf(title, sizeof(title), "Stacks: CPU call stacks of %s", what);
	x = put_cut(y, in.x, in.w, ROLE_TITLE, title);
	snprintf(val, sizeof(val), "   (Esc %s)", st->filter[0] ? "clears the filter" : "goes back");
	put_whole(y++, in.x + x, in.w - x, ROLE_DIM, val);
	if (st->filter[0] || st->editing) { /* the filter, said above the tree */
		snprintf(title, sizeof(title),
			 st->editing ? "Filter (a frame, leaf or COMM PID; Enter keeps, Esc clears): %s_" :
				       "Filter: %s   (/ edits, Esc clears)",
			 st->filter);
		put_cut(y++, in.x, in.w, ROLE_VALUE, title);
	}
	if (!cache.built || !cache.nlines) {
		draw_empty(v, (struct rect){ y, in.x, in.h - 1, in.w });
		return;
	}
	y += draw_head(v, (struct rect){ y, in.x, in.h - 1, in.w });
	col_w = (int)strlen(tree_weight_name(cache.weight)) + 5;
	col_w = col_w < 13 ? 13 : col_w;
	snprintf(title, sizeof(title), "INCL %s", tree_weight_name(cache.weight));
	snprintf(what, sizeof(what), "SELF %s", tree_weight_name(cache.weight));
	x = putf(y, in.x, in.w, ROLE_HEADER, "%*s %*s %-*s CALL TREE", col_w, title, col_w, what,
		 in.w - 2 * col_w > BAR_CELLS + 22 ? BAR_CELLS : 0, in.w - 2 * col_w > BAR_CELLS + 22 ? "SHARE" : "");
	snprintf(val, sizeof(val), "  (line %zu of %zu)", st->sel + 1, cache.nlines);
	put_whole(y++, in.x + x, in.w - x, ROLE_HEADER, val); /* whole, or not at all */
	rows = in.y + in.h - y;
	if (rows <= 0)
		return;
	if (st->sel < st->top)
		st->top = st->sel;
	if (st->sel >= st->top + (size_t)rows)
		st->top = st->sel - (size_t)rows + 1;
	if (st->top + (size_t)rows > cache.nlines) /* no rows left blank below while lines hide above */
		st->top = cache.nlines > (size_t)rows ? cache.nlines - (size_t)rows : 0;
	for (size_t i = st->top; i < cache.nlines && y < in.y + in.h; i++)
		draw_node(v, y++, in, i, col_w, st->top, st->top + (size_t)rows);
	(void)val;
}

/* The selected node of the lines last drawn, or NULL. */
static const struct stack_node *selected(const struct view *v)
{
	return cache.built && v->stacks.sel < cache.nlines ? &cache.tree.nodes[cache.lines[v->stacks.sel]] : NULL;
}

static void select_line(struct view *v, long line)
{
	struct stacks_state *st = &v->stacks;

	if (line >= (long)cache.nlines)
		line = (long)cache.nlines - 1;
	st->sel = line > 0 ? (size_t)line : 0;
	st->sel_path = selected(v) ? selected(v)->path : 0;
}

/* Right, +: open; Right on an open node: its first child. Left, -: close; Left on a closed one: its parent. */
static void open_close(struct view *v, int key)
{
	const struct stack_node *n = selected(v);
	bool open = n && n->nchildren && node_open(&v->stacks, n);

	if (!n)
		return;
	if ((key == KEY_RIGHT || key == '+') && n->nchildren && !open)
		node_set_open(&v->stacks, n, true);
	else if (key == KEY_RIGHT && open)
		select_line(v, (long)v->stacks.sel + 1);
	else if ((key == KEY_LEFT || key == '-') && open)
		node_set_open(&v->stacks, n, false);
	else if (key == KEY_LEFT && n->parent) {
		for (size_t i = v->stacks.sel; i-- > 0;)
			if (cache.lines[i] == n->parent) {
				select_line(v, (long)i);
				break;
			}
	}
}

/* A key while the filter is typed: Enter keeps it, Esc clears it, the rest edit it (live). */
static void filter_edit(struct stacks_state *st, int key)
{
	size_t len = strlen(st->filter);

	if (key == '\n' || key == KEY_ENTER) {
		st->editing = false;
	} else if (key == KEY_ESC) {
		st->filter[0] = '\0';
		st->editing = false;
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len) {
		st->filter[len - 1] = '\0';
	} else if (key >= 32 && key < 127 && len + 1 < sizeof(st->filter)) {
		st->filter[len] = (char)key;
		st->filter[len + 1] = '\0';
	} else {
		return;
	}
	st->ntoggled = 0; /* what was opened or closed was of another tree */
}

static void go_back(struct view *v)
{
	struct stacks_state *st = &v->stacks;

	v->detail = st->back;
	v->detail_table = st->back_table;
	snprintf(v->detail_key, sizeof(v->detail_key), "%s", st->back_key);
}

bool stacks_view_key(struct view *v, int key)
{
	struct stacks_state *st = &v->stacks;
	long page = LINES > 12 ? LINES - 10 : 2;
	const struct stack_node *n = selected(v);

	if (st->editing) {
		filter_edit(st, key);
		return true;
	}
	if (key == KEY_UP || key == KEY_DOWN || key == KEY_PPAGE || key == KEY_NPAGE || key == KEY_HOME ||
	    key == KEY_END)
		select_line(v, key == KEY_UP ? (long)st->sel - 1 : key == KEY_DOWN ? (long)st->sel + 1 :
			       key == KEY_PPAGE ? (long)st->sel - page : key == KEY_NPAGE ? (long)st->sel + page :
			       key == KEY_HOME ? 0 : (long)cache.nlines);
	else if (key == '\n' || key == KEY_ENTER) {
		if (n && n->nchildren)
			node_set_open(st, n, !node_open(st, n));
	} else if (key == KEY_RIGHT || key == KEY_LEFT || key == '+' || key == '-')
		open_close(v, key);
	else if (key == '*') {
		st->all_open = !st->all_open;
		st->ntoggled = 0;
	} else if (key == 'w') {
		int next = cache.built ? weight_shown(&cache.tree, cache.weight + 1) : st->weight;

		if (next == cache.weight)
			view_message(v, false, "w: %s is the only weight these stacks have",
				     tree_weight_name(cache.weight));
		else
			view_message(v, false, "Weight: %s: %s", tree_weight_name(next), tree_weight_meaning(next));
		st->weight = next;
	} else if (key == 'S') {
		st->pid = 0;
		st->ring[0] = '\0';
	} else if (key == '/') {
		st->editing = true;
	} else if (key == KEY_ESC && st->filter[0]) {
		filter_edit(st, key);
	} else if (key == KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8)
		go_back(v);
	else
		return false;
	return true;
}

/* What S opens on: the ring or process selected or open (ring: "DEV NAME"); neither: all processes. */
static void subject_selected(struct view *v)
{
	struct stacks_state *st = &v->stacks;
	const struct table *t = NULL;
	long row = view_selected_row(v, &t);
	double pid;

	if (row < 0 || !t)
		return;
	if (!strcmp(t->desc->name, "drm_sched.rings")) {
		const char *dev = table_str(t, (size_t)row, "dev"), *name = table_str(t, (size_t)row, "name");

		snprintf(st->ring, sizeof(st->ring), "%s%s%s", dev, dev[0] ? " " : "", name);
		return;
	}
	pid = table_num(t, (size_t)row, "pid");
	if (table_col(t->desc, "pid") >= 0 && !isnan(pid) && pid > 0 && pid <= UINT32_MAX)
		st->pid = (uint32_t)pid;
}

void stacks_view_open(struct view *v)
{
	struct stacks_state *st = &v->stacks;
	int weight = st->weight;

	if (stacks_view_shown(v)) {
		stacks_view_key(v, 'S');
		return;
	}
	*st = (struct stacks_state){ .weight = weight, .back = v->detail,
				     .back_table = v->detail ? v->detail_table : NULL };
	snprintf(st->back_key, sizeof(st->back_key), "%s", v->detail_key);
	subject_selected(v);
	v->overlay = OVERLAY_NONE;
	v->detail = draw_stacks;
	v->detail_table = st->back_table ? st->back_table : "";
}
