// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The one scrolling table widget: every collector table on every screen is drawn by it. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/privileges.h"
#include "model/histories.h"
#include "model/table_seen.h"
#include "format/cell_format.h"
#include "tui/draw.h"
#include "tui/sparkline.h"
#include "tui/table_tree.h"

/* Where a cut text cell differs from those alike: the nearest difference, and the farthest (0: none). */
struct apart {
	size_t near, far;
};

/* One cell, cut to its column with an ellipsis (text from byte ap.near on after it, and ap.far on, where not
 * 0); numbers right-aligned, text left. */
static void draw_cell(struct view *v, int y, int x, int width, const struct col_desc *col, const struct cell *c,
		      enum role role, struct apart ap)
{
	char raw[TABLE_LONG_STR_MAX], fit[TABLE_LONG_STR_MAX * 2]; /* a kernel's name whole to its cut */
	int cells;

	cell_format(col, c, raw, sizeof(raw));
	if (col->flags & COL_SHORT_IDS) {
		char full[TABLE_LONG_STR_MAX];

		memcpy(full, raw, sizeof(full));
		text_short_ids(full, raw, sizeof(raw));
	}
	cells = ap.near ?
			text_fit_apart(raw, ap.near, ap.far > ap.near ? ap.far : 0, width, v->utf8, fit, sizeof(fit)) :
		col->type == COL_STR ? text_fit_list(raw, width, v->utf8, fit, sizeof(fit)) :
				       text_fit(raw, width, v->utf8, fit, sizeof(fit));
	if (col->type == COL_STR)
		put(y, x, width, role, fit);
	else
		put(y, x + width - cells, cells, role, fit);
}

/*
 * A text cell cut to width that others of the n rows would show the same: where its text differs from
 * the least and the most alike of those (so that all can be shown apart); 0s when it fits or none is alike.
 */
static struct apart cell_apart(const struct view *v, const struct table *t, const size_t *rows, size_t n, size_t row,
			       unsigned int c, int width)
{
	const struct col_desc *col = &t->desc->cols[c];
	char raw[TABLE_LONG_STR_MAX], fit[TABLE_LONG_STR_MAX * 2], other[TABLE_LONG_STR_MAX],
		ofit[TABLE_LONG_STR_MAX * 2];
	struct apart ap = { 0, 0 };

	if (col->type != COL_STR)
		return ap;
	cell_format(col, &table_row(t, row)[c], raw, sizeof(raw));
	if (text_fit(raw, 1 << 20, v->utf8, fit, sizeof(fit)) <= width)
		return ap;
	text_fit(raw, width, v->utf8, fit, sizeof(fit));
	/*
	 * Those its cut shows the same; then, as its form apart keeps less of its beginning, also those
	 * that share that beginning (another name's form apart could show the same otherwise)
	 */
	for (int pass = 0; pass < 2; pass++) {
		size_t head = 0;

		if (pass == 1) {
			if (!ap.near)
				break;
			text_fit_apart(raw, ap.near, ap.far > ap.near ? ap.far : 0, width, v->utf8, ofit, sizeof(ofit));
			head = strcspn(ofit, v->utf8 ? "\xe2" : "~"); /* the bytes before its first ellipsis */
		}
		for (size_t i = 0; i < n; i++) {
			size_t same = 0;

			if (rows[i] == row)
				continue;
			cell_format(col, &table_row(t, rows[i])[c], other, sizeof(other));
			while (raw[same] && raw[same] == other[same])
				same++;
			if (!raw[same] && !other[same])
				continue; /* the same text: nothing sets them apart */
			if (pass == 0 && (text_fit(other, width, v->utf8, ofit, sizeof(ofit)), strcmp(fit, ofit)))
				continue;
			if (pass == 1 && same < head)
				continue;
			ap.near = !ap.near || same < ap.near ? same : ap.near;
			ap.far = same > ap.far ? same : ap.far;
		}
	}
	return ap;
}

/* *top (a first line) moved so that lines first..last of total show in rows lines. */
static void scroll_to(size_t *top, size_t first, size_t last, size_t total, int rows)
{
	if (rows <= 0)
		return;
	if (first < *top)
		*top = first;
	if (last >= *top + (size_t)rows)
		*top = last - (size_t)rows + 1;
	if (*top + (size_t)rows > total)
		*top = total > (size_t)rows ? total - (size_t)rows : 0;
}

/* Table name's collector: its own where its name says ("kfd.processes"), else the pane's; none if derived. */
static const struct collector_status *table_collector(const struct view *v, const struct pane_decl *p,
						      const char *name, const struct table_desc *d)
{
	const struct collector_status *c = NULL;

	for (size_t k = 0; d && !d->derived && p && v->snap && k < v->snap->ncollectors; k++) {
		const char *cn = v->snap->collectors[k].info->name;
		size_t len = strlen(cn);

		if (d->collector ? !strcmp(d->collector, cn) : !strncmp(name, cn, len) && name[len] == '.')
			c = &v->snap->collectors[k];
		else if (!c && !strcmp(cn, p->collector))
			c = &v->snap->collectors[k];
	}
	return c;
}

void pane_table_draw(struct view *v, const struct pane_decl *p, int i, struct rect r)
{
	const char *name = view_table_name(v, p, i);
	const struct table_desc *d = name ? table_desc_find(name) : NULL;
	const struct collector_status *c = table_collector(v, p, name, d);
	int s = pane_screen_index(p);

	if (d && s >= 0 && i < PANE_MAX_TABLES)
		table_view_draw(v, d, snapshot_table(v->snap, d->name), &v->tstate[s][i], r,
				i == v->table_focus[s], c);
}

/* A process's row matches the filter by one of its rings (drm_sched.process_rings): /gfx keeps gfx's processes. */
static bool rings_match(const struct table *t, size_t row, const char *filter, void *ctx)
{
	const struct table *pr = ctx;
	int col = table_col(t->desc, "pid");
	double pid = col < 0 ? NAN : cell_number(t->desc, table_row(t, row), (unsigned int)col);

	for (size_t k = 0; pr && !isnan(pid) && k < pr->nrows; k++)
		if (table_num(pr, k, "pid") == pid && table_row_matches(pr, k, filter))
			return true;
	return false;
}

const size_t *view_rows(struct view *v, const struct table_state *ts, const struct table *t,
			size_t *n)
{
	unsigned int sort = ts->sort_set ? ts->sort_col : t->desc->sort_col;
	bool tree = v->tree && table_tree_applies(t->desc);
	static struct row_order scratch; /* a state outside the view's: sorted every time */
	struct row_order *o = &scratch;
	const struct table *rings;

	for (size_t k = 0; k < SCREEN_MAX * PANE_MAX_TABLES; k++)
		if (ts == &v->tstate[0][0] + k)
			o = &v->order[0][0] + k;
	if (o != &scratch && o->valid && v->snap && o->seq == v->snap->seq && o->desc == t->desc &&
	    o->sort == sort && o->reverse == ts->reverse && !strcmp(o->filter, v->filter) &&
	    o->tree == tree && o->cap >= t->nrows) {
		*n = o->n;
		return o->rows;
	}
	if (o->cap < t->nrows || !o->rows) {
		size_t *grown = realloc(o->rows, (t->nrows ? t->nrows : 1) * sizeof(*grown));

		if (!grown)
			return NULL;
		o->rows = grown;
		o->cap = t->nrows ? t->nrows : 1;
	}
	rings = table_pid_keyed(t->desc) && v->snap ? snapshot_table(v->snap, "drm_sched.process_rings") : NULL;
	o->n = table_rows_also(t, ts, v->filter, rings_match, (void *)rings, o->rows);
	if (tree && !table_tree_order(t, o->rows, o->n))
		return NULL;
	o->tree = tree;
	o->seq = v->snap ? v->snap->seq : 0;
	o->desc = t->desc;
	o->sort = sort;
	o->reverse = ts->reverse;
	snprintf(o->filter, sizeof(o->filter), "%s", v->filter);
	o->valid = o != &scratch;
	*n = o->n;
	return o->rows;
}

void view_rows_free(struct view *v)
{
	for (size_t k = 0; k < SCREEN_MAX * PANE_MAX_TABLES; k++) {
		free((&v->order[0][0])[k].rows);
		(&v->order[0][0])[k] = (struct row_order){ 0 };
	}
}

/* The vendor screen of a GPU here ("; press 4 for NVIDIA"), or "". */
static void other_screen(const struct view *v, char *out, size_t size)
{
	static const char *const vendors[][2] = {
		{ "nvidia", "nvidia" }, { "amdgpu", "amdgpu" }, { "intel", "i915" }, { "intel", "xe" },
	};

	*out = '\0';
	for (int i = 1; i < pane_screen_count(); i++)
		for (size_t k = 0; k < sizeof(vendors) / sizeof(vendors[0]); k++)
			for (size_t d = 0; v->snap && d < v->snap->ndevices; d++)
				if (!strcmp(pane_for_screen(i)->collector, vendors[k][0]) &&
				    !strcmp(v->snap->devices[d].driver, vendors[k][1])) {
					snprintf(out, size, "; press %d for %s", i + 1, pane_for_screen(i)->title);
					return;
				}
}

/*
 * The collector's state and reason in one line of in: the whole reason if it
 * fits, else cut at the last " (" or ": " that fits (a clause, never a word),
 * else its state alone; a vendor screen with data, and where the rest is told
 * (--list), are named where they fit.
 */
static void unavailable_line(struct view *v, const struct collector_status *c, struct rect in)
{
	char text[600], hint[64];
	const char *state = collector_state_name(c->info->state);
	/* an unprivileged start's: the fix first, so that what fits names it (the capabilities: --list) */
	const char *reason = strcmp(c->info->reason, PRIVILEGES_BPF_REASON) ?
				     c->info->reason :
				     "it needs root: sudo gputop-bpf (or " PRIVILEGES_NAMES ")";
	int len = (int)strlen(reason);

	other_screen(v, hint, sizeof(hint));
	while (len > 0) {
		bool cut = reason[len] || c->info->fix[0];

		snprintf(text, sizeof(text), "%s %s: %.*s%s%s", c->info->name, state, len, reason, hint,
			 cut ? " (--list: why, and the fix)" : "");
		if (put_whole(in.y, in.x, in.w, ROLE_WARNING, text))
			return;
		snprintf(text, sizeof(text), "%s %s: %.*s%s", c->info->name, state, len, reason, hint);
		if (put_whole(in.y, in.x, in.w, ROLE_WARNING, text))
			return;
		snprintf(text, sizeof(text), "%s %s: %.*s", c->info->name, state, len, reason);
		if (put_whole(in.y, in.x, in.w, ROLE_WARNING, text))
			return;
		while (--len > 0 && strncmp(reason + len, " (", 2) && strncmp(reason + len, ": ", 2))
			;
	}
	snprintf(text, sizeof(text), "%s %s", c->info->name, state);
	put(in.y, in.x, in.w, ROLE_WARNING, text);
}

/* ▲ when the rows run smallest first, ▼ largest first ('^' / 'v' without UTF-8). */
const char *sort_arrow(const struct col_desc *col, bool reverse, bool utf8)
{
	bool up = !!(col->flags & COL_ASCENDING) != reverse;

	return up ? (utf8 ? "▲" : "^") : (utf8 ? "▼" : "v");
}

/* A container's line in the tree: its name and how many of the rows shown are in it. */
static void draw_group(struct view *v, int y, struct rect r, const char *group, size_t count)
{
	char text[TABLE_STR_MAX + 64];

	snprintf(text, sizeof(text), "%s %s  (%zu process%s)", v->utf8 ? "▾" : "v",
		 group[0] ? group : "cgroup unknown", count, count == 1 ? "" : "es");
	fill(y, r.x, r.w, ROLE_LABEL);
	put(y, r.x + 1, r.w - 1, ROLE_LABEL, text);
}

/* Row rows[i] of the n shown: its cells, a cut text told apart from another row's that reads the same. */
static void draw_row(struct view *v, int y, const struct table *t, const size_t *rows, size_t n, size_t i,
		     const struct table_fit *fit, struct rect r, enum role role)
{
	const struct table_desc *d = t->desc;
	size_t row = rows[i];
	const struct cell *cells = table_row(t, row);
	int cx = r.x;

	fill(y, r.x, r.w, role);
	for (unsigned int k = 0; k < fit->ncols; k++) {
		const struct col_desc *col = &d->cols[fit->cols[k]];

		draw_cell(v, y, cx, fit->widths[k], col, &cells[fit->cols[k]], role,
			  cell_apart(v, t, rows, n, row, fit->cols[k], fit->widths[k]));
		cx += fit->widths[k] + 1;
	}
	if (fit->spark_col >= 0) {
		const struct history *h = histories_get(v->histories, t, row, (unsigned int)fit->spark_col);
		double vals[HISTORY_LEN];
		char spark[HISTORY_LEN * 4];
		size_t nv = h ? history_read(h, vals, HISTORY_LEN) : 0;
		int n = (int)sparkline_render(vals, nv, (size_t)fit->spark_w, spark_max(&d->cols[fit->spark_col]),
					      v->utf8, spark, sizeof(spark));

		/* the newest sample at the right edge: rows with shorter histories (a process that came later) line up */
		put(y, r.x + fit->spark_x + fit->spark_w - n, n, role == ROLE_SELECTED ? role : ROLE_SPARK, spark);
		spark_unknown_dots(v, y, r.x + fit->spark_x + fit->spark_w, vals, nv, n,
				   role == ROLE_SELECTED ? role : ROLE_DIM); /* the newest unknown shows as such */
	}
}

/*
 * The rows in body, scrolled to the selected one: in the tree, each container's
 * line above its processes (scrolling counts lines). Keeps which row each line shows.
 */
/* Draws the rows that fit from ts->top on; returns how many lines there are in all. */
static size_t draw_body(struct view *v, const struct table *t, struct table_state *ts, const size_t *rows,
			size_t n, const struct table_fit *fit, struct rect body, bool focused)
{
	bool tree = v->tree && table_tree_applies(t->desc);
	size_t total, first, last, line = 0;
	int y = body.y;

	if (ts->sel >= n)
		ts->sel = n - 1;
	total = tree ? table_tree_line_of(t, rows, n - 1) + 1 : n;
	last = tree ? table_tree_line_of(t, rows, ts->sel) : ts->sel;
	first = tree && table_tree_starts_group(t, rows, ts->sel) ? last - 1 : last; /* its container too */
	scroll_to(&ts->top, first, last, total, body.h);
	ts->nlines = 0;
	for (size_t i = 0; i < n && y < body.y + body.h; i++) {
		if (tree && table_tree_starts_group(t, rows, i) && line++ >= ts->top) {
			draw_group(v, y++, body, table_str(t, rows[i], "cgroup"),
				   table_tree_group_size(t, rows, n, i));
			if (ts->nlines < TABLE_LINES_MAX)
				ts->line_row[ts->nlines++] = -1;
		}
		if (line++ < ts->top || y >= body.y + body.h)
			continue;
		draw_row(v, y++, t, rows, n, i, fit, body, focused && i == ts->sel ? ROLE_SELECTED : ROLE_NORMAL);
		if (ts->nlines < TABLE_LINES_MAX)
			ts->line_row[ts->nlines++] = (int)i;
	}
	return total;
}

/*
 * The title line: "Processes (57)", the filter's count, where the lines shown
 * are when not all fit ("rows 21-40 of 57 ↑↓", at its right end, before the
 * hint), and the hint of the focused table.
 */
static void draw_title(struct view *v, const struct table_desc *d, const struct table *t,
		       const struct table_state *ts, size_t n, size_t total, struct rect r, bool focused)
{
	bool tree = v->tree && table_tree_applies(d);
	size_t shown = (size_t)(r.h > 2 ? r.h - 2 : 0), end = ts->top + shown;
	char where[80] = "", fit[80], count[32];
	const char *paren = strstr(d->title, " (");
	int x = r.x, right = r.x + r.w, w, title = (int)strlen(d->title);

	if (n && total > shown)
		snprintf(where, sizeof(where), "  %s %zu-%zu of %zu%s%s", tree ? "lines" : "rows", ts->top + 1,
			 end < total ? end : total, total, ts->top ? (v->utf8 ? " ↑" : " ^") : "",
			 end < total ? (v->utf8 ? " ↓" : " v") : "");
	w = text_fit(where, 1 << 20, true, fit, sizeof(fit));
	snprintf(count, sizeof(count), " (%zu)", n);
	/* its source said only where it has room, beside where the rows shown are */
	if (paren && title + (int)strlen(count) + w > r.w)
		title = (int)(paren - d->title);
	if (v->filter[0] && t && t->nrows) /* the filter said where the rows are counted, all or not */
		x += putf(r.y, x, r.w, focused ? ROLE_TITLE : ROLE_LABEL, "%.*s (%zu of %zu match \"%s\")", title,
			  d->title, n, t->nrows, v->filter);
	else
		x += putf(r.y, x, r.w, focused ? ROLE_TITLE : ROLE_LABEL, "%.*s%s", title, d->title, count);
	if (w && w <= right - x) {
		put(r.y, right - w, w, ROLE_LABEL, where);
		right -= w;
	}
	if (focused && n)
		put_whole(r.y, x, right - x, ROLE_DIM, "  <Enter> opens the selected row");
}

const char *view_empty_text(const struct view *v, const struct table_desc *d, const struct table *t, const char *scope,
			    char *text, size_t size)
{
	struct empty_context ctx = {
		.seen = v->seen, .scope = scope, .pid_filter = v->pid_filter, .replay = v->feed->replay
	};

	if (v->filter[0] && t && t->nrows)
		return "No row matches the filter.";
	return table_empty_text(d, t, &ctx, text, size);
}

/*
 * An empty table's text where its title line has room for it whole ("MIG devices (0)  No MIG
 * device ..."): the table takes one line, not two or more (not while a filter hides its rows).
 */
static bool empty_on_title(const struct view *v, const struct table_desc *d, const struct table *t, const char *text,
			   int w)
{
	char fit[640];
	int title = (int)strlen(d->title) + 6; /* " (0)" and two spaces */

	if (v->filter[0] && t && t->nrows)
		return false;
	return title + text_fit(text, 1 << 20, v->utf8, fit, sizeof(fit)) <= w;
}

size_t view_rows_kept(const struct view *v, const struct table *t)
{
	const struct table *rings;
	size_t n = 0;

	if (!v->filter[0])
		return t->nrows;
	rings = table_pid_keyed(t->desc) && v->snap ? snapshot_table(v->snap, "drm_sched.process_rings") : NULL;
	for (size_t r = 0; r < t->nrows; r++)
		n += table_row_matches(t, r, v->filter) || rings_match(t, r, v->filter, (void *)rings);
	return n;
}

int pane_table_need(const struct view *v, const struct pane_decl *p, int i, int w)
{
	const char *name = view_table_name(v, p, i);
	const struct table_desc *d = name ? table_desc_find(name) : NULL;
	const struct collector_status *c = table_collector(v, p, name, d);
	const struct table *t = name ? snapshot_table(v->snap, name) : NULL;
	const char *e;
	char text[600];

	if (t && t->nrows) { /* title, header, rows, a blank line; none matching: the title says so, a blank line */
		size_t kept = view_rows_kept(v, t);

		return kept ? (int)kept + 3 : 2;
	}
	if (!d || (c && c->info->state != COLLECTOR_ATTACHED && v->said == c->info))
		return 3; /* title, "... (above)", a blank line */
	if (c && c->info->state != COLLECTOR_ATTACHED)
		return 4; /* title, its reason (and fix) on two lines, a blank line */
	e = view_empty_text(v, d, t, NULL, text, sizeof(text));
	return empty_on_title(v, d, t, e, w) ? 2 : 2 + wrapped_rows(e, w - 1);
}

/* What an empty table says: its collector's state once a screen, or its empty text. */
static void draw_empty(struct view *v, const struct table_desc *d, const struct table *t, const struct table_state *ts,
		       const struct collector_status *c, struct rect r, struct rect in)
{
	const char *e;
	char text[600];

	if (c && c->info->state != COLLECTOR_ATTACHED && v->said == c->info) {
		snprintf(text, sizeof(text), "%s %s (above)", c->info->name,
			 collector_state_name(c->info->state));
		put_whole(in.y, in.x, in.w, ROLE_DIM, text);
		return;
	}
	if (c && c->info->state != COLLECTOR_ATTACHED && in.h == 1) {
		v->said = c->info;
		unavailable_line(v, c, in);
		return;
	}
	if (c && c->info->state != COLLECTOR_ATTACHED) {
		v->said = c->info; /* said once a screen */
		snprintf(text, sizeof(text), "%s %s: %s", c->info->name, collector_state_name(c->info->state),
			 c->info->reason);
		in.y += put_wrapped(in, ROLE_WARNING, text);
		in.h = r.y + r.h - in.y;
		if (c->info->fix[0] && in.h > 0) {
			snprintf(text, sizeof(text), "fix: %s", c->info->fix);
			put_wrapped(in, ROLE_DIM, text);
		}
		return;
	}
	e = view_empty_text(v, d, t, ts->seen_scope[0] ? ts->seen_scope : NULL, text, sizeof(text));
	if (empty_on_title(v, d, t, e, r.w)) /* beside the title: "MIG devices (0)  No MIG device ..." */
		put(r.y, r.x + (int)strlen(d->title) + 6, r.w - (int)strlen(d->title) - 6, ROLE_DIM, e);
	else
		put_wrapped(in, ROLE_DIM, e);
}

/*
 * A sparkline's title: its column's and its scale, or less of them where that does not fit; never
 * "history" alone (beside another column's title it read as that column's: "GFX MHz history"), nor
 * its column's title alone (beside that column: "▼TOTAL TOTAL"): none where none fits.
 */
static void spark_title(const struct col_desc *col, struct rect r)
{
	const char *forms[] = { "%s history%s", "%s history", "%s hist." };
	char what[64];

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(what, sizeof(what), forms[i], col->title, spark_max(col) > 0 ? " 0-100" : " (row max)");
		if ((int)strlen(what) <= r.w) {
			put(r.y, r.x, r.w, ROLE_HEADER, what);
			return;
		}
	}
}

void table_view_draw(struct view *v, const struct table_desc *d, const struct table *t,
		     struct table_state *ts, struct rect r, bool focused,
		     const struct collector_status *c)
{
	unsigned int sort = ts->sort_set ? ts->sort_col : d->sort_col;
	struct table_fit fit;
	const size_t *rows = NULL;
	size_t n = 0;
	int y = r.y + 1;

	if (r.h <= 0 || r.w <= 0)
		return;
	if (t && !(rows = view_rows(v, ts, t, &n)))
		return;
	if (!n) {
		draw_title(v, d, t, ts, n, 0, r, focused);
		draw_empty(v, d, t, ts, c, r, (struct rect){ y, r.x + 1, r.h - 1, r.w - 1 });
		return;
	}
	table_fit_sorted(d, t, r.w, &v->prefs, sort, &fit);
	ts->width = r.w;
	ts->drawn_y = r.y;
	ts->drawn_x = r.x;
	fill(y, r.x, r.w, ROLE_HEADER);
	for (unsigned int i = 0, cx = (unsigned int)r.x; i < fit.ncols; i++) {
		const struct col_desc *col = &d->cols[fit.cols[i]];
		int w = fit.widths[i], tw = (int)strlen(col->title);
		int tx = (int)cx + (col->type == COL_STR ? 0 : w - tw);
		int ax = col->type == COL_STR ? tx + tw : tx - 1; /* the sorted column's arrow */

		if (fit.cols[i] == sort && tw >= w) { /* no cell to spare (table_fit_sorted): its title cut by one */
			tx = (int)cx + (col->type == COL_STR ? 0 : 1);
			ax = col->type == COL_STR ? tx + w - 1 : (int)cx;
			tw = w - 1;
		}
		put(y, tx, fit.cols[i] == sort ? tw : w, fit.cols[i] == sort ? ROLE_VALUE : ROLE_HEADER, col->title);
		if (fit.cols[i] == sort)
			put(y, ax, 1, ROLE_VALUE, sort_arrow(col, ts->reverse, v->utf8));
		cx += (unsigned int)w + 1;
	}
	if (fit.spark_col >= 0) /* what it draws, and on what scale where it has one */
		spark_title(&d->cols[fit.spark_col], (struct rect){ y, r.x + fit.spark_x, 1, fit.spark_w });
	y++;
	draw_title(v, d, t, ts, n, draw_body(v, t, ts, rows, n, &fit, (struct rect){ y, r.x, r.y + r.h - y, r.w }, focused),
		   r, focused);
}

/* The selected row of the focused table of the current screen, or -1. */
static long selected_row(struct view *v, const struct table **out, struct table_state **ts)
{
	const struct pane_decl *p = pane_for_screen(v->screen);
	const struct table *t;
	const size_t *rows;
	size_t n;
	long row = -1;

	if (!view_table_name(v, p, v->table_focus[v->screen]) ||
	    !view_table_shown(v, v->screen, v->table_focus[v->screen]))
		return -1;
	t = snapshot_table(v->snap, view_table_name(v, p, v->table_focus[v->screen]));
	*ts = &v->tstate[v->screen][v->table_focus[v->screen]];
	if (!t || !t->nrows)
		return -1;
	rows = view_rows(v, *ts, t, &n);
	if (!rows)
		return -1;
	if ((*ts)->sel < n)
		row = (long)rows[(*ts)->sel];
	*out = t;
	return row;
}

/* The unit a value of col is read in, for the row view where no column title carries it. */
static const char *unit_suffix(const struct col_desc *col, bool utf8)
{

	switch (col->unit) {
	case UNIT_PCT:
		return "%";
	case UNIT_HZ:
		return " Hz";
	case UNIT_WATTS:
		return " W";
	case UNIT_CELSIUS:
		return utf8 ? " °C" : " C";
	case UNIT_MHZ:
		return " MHz";
	case UNIT_RPM:
		return " RPM";
	case UNIT_PER_S:
		return "/s";
	default:
		return "";
	}
}

#define FIELD_LINES_MAX 10 /* a field's value or meaning wraps onto at most this many lines */

/* A field's value as the row view shows it: formatted, with its unit where no title carries it. */
static void field_value(const struct table *t, long row, int c, bool utf8, char *raw, size_t size)
{
	const struct col_desc *col = &t->desc->cols[c];

	cell_format(col, &table_row(t, (size_t)row)[c], raw, size);
	if (table_row(t, (size_t)row)[c].known)
		strncat(raw, unit_suffix(col, utf8), size - strlen(raw) - 1);
}

/*
 * How the row view lays its fields out: the key, then the value beside it; the meaning beside the value
 * where it has 24 cells or more, else under them, indented, the box's width (stacked).
 */
struct row_layout {
	int kw, valw, helpw;
	bool stacked;
};

/* The lines field c's value takes. */
static int value_lines(const struct table *t, long row, int c, bool utf8, const struct row_layout *lay)
{
	char raw[TABLE_LONG_STR_MAX];
	int l;

	field_value(t, row, c, utf8, raw, sizeof(raw));
	l = wrapped_rows(raw, lay->valw);
	return l < 1 ? 1 : l > FIELD_LINES_MAX ? FIELD_LINES_MAX : l;
}

/* The lines field c takes: its value and its meaning each wrapped to their widths. */
static int field_lines(const struct table *t, long row, int c, bool utf8, const struct row_layout *lay)
{
	int v = value_lines(t, row, c, utf8, lay), h = wrapped_rows(t->desc->cols[c].help, lay->helpw);

	h = h < 1 ? 1 : h > FIELD_LINES_MAX ? FIELD_LINES_MAX : h;
	return lay->stacked ? v + h : v > h ? v : h;
}

/* The cells of the longest run of text without a space in s (bytes: values are ASCII but names). */
static int longest_word(const char *s)
{
	int best = 0, run = 0;

	for (; *s; s++) {
		run = *s == ' ' ? 0 : run + 1;
		best = run > best ? run : best;
	}
	return best;
}

/* The first field of the last page: the fields from it to the end fill at most rows lines. */
static int last_top(const struct table *t, long row, bool utf8, const struct row_layout *lay, int rows)
{
	int n = (int)t->desc->ncols, used = 0, top = n;

	while (top > 0) {
		int l = field_lines(t, row, top - 1, utf8, lay);

		if (used + l > rows && top < n)
			break;
		used += l;
		top--;
	}
	return top;
}

/*
 * The box's width and the layout in it: the keys' column as wide as the longest key (24 at most); the
 * values as wide as the longest, leaving the meanings half of what is left (16 to 24 cells) and a value
 * of one word (a bus id) whole; narrower than 24 cells, the meanings go under the values.
 */
static int row_layout_of(const struct view *v, const struct table *t, long row, struct row_layout *lay)
{
	int n = (int)t->desc->ncols, valw = 1, helpw = 0, word = 0, w, avail, minhelp;

	lay->kw = 0;
	for (int c = 0; c < n; c++) {
		char raw[TABLE_LONG_STR_MAX], fit[TABLE_LONG_STR_MAX * 2];
		int vw, ww, hw = text_fit(t->desc->cols[c].help, 1 << 20, v->utf8, fit, sizeof(fit));

		field_value(t, row, c, v->utf8, raw, sizeof(raw));
		vw = text_fit(raw, TABLE_STR_MAX, v->utf8, fit, sizeof(fit));
		ww = longest_word(raw);
		lay->kw = (int)strlen(t->desc->cols[c].key) > lay->kw ? (int)strlen(t->desc->cols[c].key) : lay->kw;
		valw = vw > valw ? vw : valw;
		word = ww > word ? ww : word;
		helpw = hw > helpw ? hw : helpw;
	}
	lay->kw = lay->kw > 24 ? 24 : lay->kw;
	w = lay->kw + 1 + valw + 1 + helpw + 4;
	w = w < 60 ? 60 : w;
	w = w > COLS - 2 ? COLS - 2 : w;
	avail = w - 2 - lay->kw - 4; /* inside the border: the key, the gaps and the margins taken */
	minhelp = avail / 2 < 16 ? 16 : avail / 2 > 24 ? 24 : avail / 2;
	lay->stacked = avail - (valw > word ? valw : word) < 24 && avail - minhelp < valw;
	if (lay->stacked) { /* the value the rest of the line; the meaning under it, 2 in, the box's width */
		lay->valw = avail + 1 > 1 ? avail + 1 : 1;
		lay->helpw = w - 6 > 1 ? w - 6 : 1;
		return w;
	}
	lay->valw = valw > avail - minhelp ? avail - minhelp : valw;
	lay->valw = lay->valw < 1 ? 1 : lay->valw;
	lay->helpw = avail - lay->valw > 1 ? avail - lay->valw : 1;
	return w;
}

/* Field c at y in the box in, at most l lines of it. */
static void draw_field(struct view *v, const struct table *t, long row, int c, const struct row_layout *lay,
		       struct rect in, int y, int l)
{
	const struct col_desc *col = &t->desc->cols[c];
	char raw[TABLE_LONG_STR_MAX], fit[TABLE_STR_MAX * 2];
	int x = in.x + 1, vl;

	text_fit(col->key, lay->kw, v->utf8, fit, sizeof(fit));
	x += putf(y, x, lay->kw + 1, ROLE_LABEL, "%-*s ", lay->kw, fit);
	field_value(t, row, c, v->utf8, raw, sizeof(raw));
	vl = put_wrapped((struct rect){ y, x, l, lay->valw }, ROLE_VALUE, raw);
	if (lay->stacked)
		put_wrapped((struct rect){ y + vl, in.x + 3, l - vl, lay->helpw }, ROLE_DIM, col->help);
	else
		put_wrapped((struct rect){ y, x + lay->valw + 1, l, lay->helpw }, ROLE_DIM, col->help);
}

/* The box's last line: where the fields shown are and the keys, whole, as much as fits. */
static void row_where(struct view *v, struct rect in, int first, int end, int n)
{
	char where[3][160], at[64];

	if (end - first < n) { /* not all fit: where they are, as the tables say it */
		snprintf(at, sizeof(at), "fields %d-%d of %d%s%s", first + 1, end, n,
			 first ? (v->utf8 ? " ↑" : " ^") : "", end < n ? (v->utf8 ? " ↓" : " v") : "");
		snprintf(where[0], sizeof(where[0]), "%s  arrows, PgUp/PgDn, Home/End; other keys close", at);
		snprintf(where[1], sizeof(where[1]), "%s  arrows, PgUp/PgDn scroll", at);
		snprintf(where[2], sizeof(where[2]), "%s", at);
	} else {
		for (int k = 0; k < 3; k++)
			snprintf(where[k], sizeof(where[k]), "any key closes");
	}
	for (int k = 0; k < 3; k++)
		if (put_whole(in.y + in.h - 1, in.x + 1, in.w - 2, ROLE_DIM, where[k]))
			break;
}

void draw_row_overlay(struct view *v)
{
	const struct table *t = NULL;
	struct table_state *ts;
	long row = selected_row(v, &t, &ts);
	struct row_layout lay;
	int h, w, y, c, n, rows, lines = 0;
	struct rect in;

	if (row < 0) {
		v->overlay = OVERLAY_NONE;
		return;
	}
	n = (int)t->desc->ncols;
	w = row_layout_of(v, t, row, &lay);
	for (c = 0; c < n; c++)
		lines += field_lines(t, row, c, v->utf8, &lay);
	h = lines + 3;
	h = h > LINES - 2 ? LINES - 2 : h;
	in = popup(h, w, t->desc->title, v->utf8);
	rows = in.h - 1 > 0 ? in.h - 1 : 0; /* the last line: where the fields shown are, and the keys */
	c = last_top(t, row, v->utf8, &lay, rows);
	v->row_top = v->row_top > c ? c : v->row_top;
	y = in.y;
	for (c = v->row_top; c < n && y < in.y + rows; c++) {
		int l = field_lines(t, row, c, v->utf8, &lay), vl = value_lines(t, row, c, v->utf8, &lay);
		int left = in.y + rows - y;

		/* whole values only, but the first field's; a meaning to its sentences that fit */
		if (l > left && c > v->row_top &&
		    (vl > left || !wrapped_fits_some(t->desc->cols[c].help, lay.helpw, lay.stacked ? left - vl : left)))
			break;
		l = l > left ? left : l;
		draw_field(v, t, row, c, &lay, in, y, l);
		y += l;
	}
	v->row_page = c - v->row_top > 1 ? c - v->row_top : 1;
	row_where(v, in, v->row_top, c, n);
}

long view_selected_row(struct view *v, const struct table **t)
{
	struct table_state *ts;

	*t = NULL;
	if (v->detail) { /* a drill-down: its row */
		*t = snapshot_table(v->snap, v->detail_table);
		return *t ? table_find_row(*t, v->detail_key) : -1;
	}
	return selected_row(v, t, &ts);
}
