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

/* Line i of the list: a pane, or a column of the focused table. */
static void setup_line(struct view *v, int i, int y, struct rect in, const struct table_desc *d,
		       const unsigned int *cols)
{
	enum role role = i == v->setup_sel ? ROLE_SELECTED : ROLE_NORMAL;
	char text[512];

	if (i < PANE_COUNT) {
		snprintf(text, sizeof(text), "[%c] %-11s %s", v->prefs.panes[i] ? 'x' : ' ', pane_name((enum pane)i),
			 pane_what[i]);
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
		else if (shown && !fits) /* on, but not drawn: said first, where no cut hides it */
			snprintf(room, sizeof(room), "(no room at %d columns) ", COLS);
		snprintf(text, sizeof(text), "[%c] %-11s %s%s%s", shown ? 'x' : ' ', col->title, room, col->help,
			 !(col->flags & COL_KEY) ? "" : fits ? " (its key: always)" : " (its key: where it fits)");
	}
	fill(y, in.x, in.w, role);
	put_cut(y, in.x + 1, in.w - 2, role, text); /* whole, or cut at a word and said */
}

void draw_setup(struct view *v)
{
	const struct table_desc *d;
	unsigned int cols[TABLE_FIT_MAX_COLS];
	int ncols = setup_columns(v, &d, cols), n = PANE_COUNT + ncols, first = 0, y;
	struct rect in = popup(n + 5, COLS - 4 < 100 ? COLS - 4 : 100, "Setup (F2)", v->utf8);
	char title[160];

	if (in.h < 4)
		return;
	put(in.y, in.x + 1, in.w - 2, ROLE_TITLE, "Overview panes");
	if (v->setup_sel >= in.h - 4)
		first = v->setup_sel - (in.h - 4) + 1; /* long lists scroll */
	y = in.y + 1;
	for (int i = first; i < n && y < in.y + in.h - 1; i++) {
		if (i == PANE_COUNT) {
			snprintf(title, sizeof(title), "Columns of %s (the focused table; where they fit)", d->title);
			put_whole(y, in.x + 1, in.w - 2, ROLE_TITLE, title);
			if (++y >= in.y + in.h - 1)
				break;
		}
		setup_line(v, i, y++, in, d, cols);
	}
	put_whole(in.y + in.h - 1, in.x + 1, in.w - 2, ROLE_DIM, "Space toggles, W saves, Esc closes");
}
