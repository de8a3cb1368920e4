// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The setup screen (F2), as htop's: which parts of the Overview show, and which
 * columns of the focused table; Space toggles, W saves them to the config file
 * (panes, hidden_columns), Esc closes. A table's key column (its PID, its ring)
 * always shows: rows without it could not be told apart.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "tui/draw.h"

static const char *const pane_what[PANE_COUNT] = {
	"the GPU blocks at the top", "the DRM scheduler's rings", "the MEMORY side pane",
	"the INTERRUPTS side pane", "the DISPLAY side pane", "the process table",
};

/* The focused table's columns the setup lists (not its details: those only the row view shows). */
static int setup_columns(struct view *v, const struct table_desc **d, unsigned int *cols)
{
	int n = 0;

	*d = NULL;
	if (!view_focused_table(v, d) || !*d)
		return 0;
	for (unsigned int c = 0; c < (*d)->ncols && n < TABLE_FIT_MAX_COLS; c++)
		if (!((*d)->cols[c].flags & COL_DETAIL))
			cols[n++] = c;
	return n;
}

void setup_open(struct view *v)
{
	v->setup_sel = 0;
	v->overlay = OVERLAY_SETUP;
}

static void toggle(struct view *v)
{
	const struct table_desc *d;
	unsigned int cols[TABLE_FIT_MAX_COLS];
	int n = setup_columns(v, &d, cols), i = v->setup_sel - PANE_COUNT;

	if (v->setup_sel < PANE_COUNT) {
		v->prefs.panes[v->setup_sel] = !v->prefs.panes[v->setup_sel];
		return;
	}
	if (i < 0 || i >= n)
		return;
	if (d->cols[cols[i]].flags & COL_KEY)
		view_message(v, false, "%s is the key of %s: it always shows", d->cols[cols[i]].title, d->title);
	else if (!prefs_col_toggle(&v->prefs, d->name, d->cols[cols[i]].key))
		view_message(v, true, "no room for another hidden column (W saves what is hidden)");
}

void setup_key(struct view *v, int key)
{
	const struct table_desc *d;
	unsigned int cols[TABLE_FIT_MAX_COLS];
	int n = PANE_COUNT + setup_columns(v, &d, cols);

	if (key == KEY_UP && v->setup_sel > 0)
		v->setup_sel--;
	else if (key == KEY_DOWN && v->setup_sel < n - 1)
		v->setup_sel++;
	else if (key == KEY_HOME)
		v->setup_sel = 0;
	else if (key == KEY_END)
		v->setup_sel = n - 1;
	else if (key == ' ' || key == '\n' || key == KEY_ENTER)
		toggle(v);
	else if (key == 'W')
		view_save_prefs(v);
	else if (key == KEY_ESC || key == KEY_F(2) || key == 'q')
		v->overlay = OVERLAY_NONE;
}

#define SETUP_WHAT 16 /* "[x] " and an 11-cell name and a space: where the descriptions start */

/* Item i of the list: a pane, or a column of the focused table; its description in what. */
static void setup_item(struct view *v, int i, const struct table_desc *d, const unsigned int *cols, char *mark,
		       char *what, size_t size)
{
	if (i < PANE_COUNT) {
		snprintf(mark, 32, "[%c] %-11s", v->prefs.panes[i] ? 'x' : ' ', pane_name((enum pane)i));
		snprintf(what, size, "%s", pane_what[i]);
	} else {
		const struct col_desc *col = &d->cols[cols[i - PANE_COUNT]];
		bool shown = (col->flags & COL_KEY) || !prefs_col_hidden(&v->prefs, d->name, col->key), fits = false;
		unsigned int drawn[TABLE_FIT_MAX_COLS];
		int ndrawn = sort_menu_columns(v, drawn); /* the columns drawn at the table's width now */
		char room[64] = "";
		const struct table_desc *fd;
		const struct table_state *ts = view_focused_table(v, &fd);

		for (int k = 0; k < ndrawn; k++)
			fits |= drawn[k] == cols[i - PANE_COUNT];
		if (!ts || ts->width <= 0)
			fits = true; /* not drawn at all yet (no rows): no width to have room in */
		if (shown && !fits && (col->flags & COL_IF_KNOWN) &&
		    !table_col_known(snapshot_table(v->snap, d->name), cols[i - PANE_COUNT]))
			snprintf(room, sizeof(room), "(no values yet) "); /* left out for that, not for room */
		else if (shown && !fits) /* on, but not drawn: said first */
			snprintf(room, sizeof(room), "(no room at %d columns) ", COLS);
		snprintf(mark, 32, "[%c] %-11s", shown ? 'x' : ' ', col->title);
		snprintf(what, size, "%s%s%s", room, col->help,
			 !(col->flags & COL_KEY) ? "" : fits ? " (its key: always)" : " (its key: where it fits)");
	}
}

/* The lines item i takes at width w: its description wrapped, and the title of its group above the first. */
static int setup_rows(struct view *v, int i, int w, const struct table_desc *d, const unsigned int *cols)
{
	char mark[32], what[512];
	int rows;

	setup_item(v, i, d, cols, mark, what, sizeof(what));
	rows = wrapped_rows(what, w - 2 - SETUP_WHAT);
	return (rows > 0 ? rows : 1) + (i == 0 || i == PANE_COUNT);
}

/*
 * Item i from y (its group's title first where it starts one) in at most left lines; its description
 * wrapped at words, cut at one with an ellipsis where it has fewer lines than it needs.
 */
static void setup_draw_item(struct view *v, int i, int y, int left, struct rect in, const struct table_desc *d,
			    const unsigned int *cols)
{
	enum role role = i == v->setup_sel ? ROLE_SELECTED : ROLE_NORMAL;
	char mark[32], what[512], title[160];
	int rows;

	if (i == 0 || i == PANE_COUNT) {
		if (i == 0)
			snprintf(title, sizeof(title), "Overview panes");
		else
			snprintf(title, sizeof(title), "Columns of %s (the focused table; where they fit)", d->title);
		if (!put_whole(y, in.x + 1, in.w - 2, ROLE_TITLE, title))
			put_whole(y, in.x + 1, in.w - 2, ROLE_TITLE, i ? "Columns of the focused table" : "Panes");
		y++;
	}
	setup_item(v, i, d, cols, mark, what, sizeof(what));
	rows = setup_rows(v, i, in.w, d, cols);
	rows = (rows < left ? rows : left) - (i == 0 || i == PANE_COUNT);
	for (int k = 0; k < rows; k++)
		fill(y + k, in.x, in.w, role);
	put(y, in.x + 1, SETUP_WHAT, role, mark);
	put_wrapped_cut((struct rect){ y, in.x + 1 + SETUP_WHAT, rows, in.w - 2 - SETUP_WHAT }, role, v->utf8, what);
}

void draw_setup(struct view *v)
{
	const struct table_desc *d;
	unsigned int cols[TABLE_FIT_MAX_COLS];
	int ncols = setup_columns(v, &d, cols), n = PANE_COUNT + ncols, first, i, y, rows = 0, need = 1;
	struct rect in;

	for (i = 0; i < n; i++)
		need += setup_rows(v, i, COLS - 4 < 100 ? COLS - 4 : 100, d, cols);
	in = popup(need + 2, COLS - 4 < 100 ? COLS - 4 : 100, "Setup (F2)", v->utf8);
	if (in.h < 4)
		return;
	/* the first item shown: the selected one and as many above it as fit (long lists scroll) */
	for (first = v->setup_sel; first >= 0; first--) {
		rows += setup_rows(v, first, in.w, d, cols);
		if (rows > in.h - 1)
			break;
	}
	first = first < v->setup_sel ? first + 1 : v->setup_sel;
	y = in.y;
	/* whole items; the last one with a line of its own left its description cut at a word */
	for (i = first; i < n && y + 1 + (i == 0 || i == PANE_COUNT) <= in.y + in.h - 1; i++) {
		int left = in.y + in.h - 1 - y;

		setup_draw_item(v, i, y, left, in, d, cols);
		y += setup_rows(v, i, in.w, d, cols) < left ? setup_rows(v, i, in.w, d, cols) : left;
	}
	list_more(v, in, first, n - i);
	put_whole(in.y + in.h - 1, in.x + 1, in.w - 2, ROLE_DIM, "Space toggles, W saves, Esc closes");
}
