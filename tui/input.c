// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Keys and mouse: what each does to the view. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/delay.h"
#include "tui/draw.h"
#include "tui/table_tree.h"

#define KEY_CTRL_L 12

/* Rows a page moves: the focused table's height on the main screen, else a screenful. */
static int page(const struct view *v)
{
	int h = v->screen != SCREEN_MAIN ? LINES / 2 :
		v->table_focus[SCREEN_MAIN] ? v->layout.procs.h : v->layout.rings.h;

	return h > 3 ? h - 3 : 1;
}

/* Enter: the table's drill-down when it has one, else the row view. */
static void open_selected(struct view *v)
{
	const struct pane_decl *p = pane_for_screen(v->screen);
	int f = v->table_focus[v->screen];
	const char *name = view_table_name(v, p, f);
	const struct table *t = name ? snapshot_table(v->snap, name) : NULL;
	struct table_state *ts = &v->tstate[v->screen][f];
	const struct table_desc *d;
	const size_t *rows;
	size_t n;

	if (v->detail) { /* a view over the pane (a ring's, a process's, a GPU's): its rows are not the pane's */
		view_message(v, false, "Enter: nothing here to open; Esc goes back");
		return;
	}
	if (!name || !view_table_shown(v, v->screen, f)) {
		view_message(v, false, "Enter: no table here to open a row of");
		return;
	}
	d = table_desc_find(name);
	if (!t || !t->nrows) { /* said, not swallowed */
		view_message(v, false, "Enter: %s %s; Left/Right select another table", d ? d->title : name,
			     t ? "has no row now" : "is not available here (its collector is not attached)");
		return;
	}
	if (!(rows = view_rows(v, ts, t, &n)))
		return;
	if (!n) {
		view_message(v, false, "Enter: no row of %s matches the filter", d ? d->title : name);
		return;
	}
	if (ts->sel < n) {
		if (p->drill[f] && name == p->tables[f]) { /* not the grouped alternative's */
			table_row_key(t, rows[ts->sel], v->detail_key, sizeof(v->detail_key));
			v->detail_table = name;
			v->detail = p->drill[f];
		} else {
			v->overlay = OVERLAY_ROW;
			v->row_top = 0;
		}
	}
}

/* The pace in use: a replay not yet paced plays at its recorded intervals. */
static double delay_in_use(const struct view *v)
{
	if (v->feed->replay && !v->replay_paced && v->snap && v->snap->interval_s > 0)
		return delay_nearest(v->snap->interval_s);
	return v->prefs.delay_s;
}

static void set_delay(struct view *v, int dir)
{
	double d = delay_step(delay_in_use(v), dir);

	if (d == delay_in_use(v)) { /* at the end of the range: said, not silent */
		view_message(v, false, "%s every %g s already, the %s (+ and - step between %s s)",
			     v->feed->replay ? "played" : "refresh", d, dir > 0 ? "slowest" : "fastest",
			     DELAY_RANGE_TEXT);
		return;
	}
	v->prefs.delay_s = d;
	v->feed->ops->set_delay(v->feed->impl, d);
	v->replay_paced = v->feed->replay;
	view_message(v, false, v->feed->replay ? "played every %g s (not saved: W keeps the live refresh)" :
						 "refresh every %g s", d);
}

static void next_theme(struct view *v)
{
	char err[256];

	v->theme_idx = (v->theme_idx + 1) % theme_builtin_count();
	snprintf(v->prefs.theme, sizeof(v->prefs.theme), "%s", theme_builtin_name(v->theme_idx));
	theme_load(v->prefs.theme, &v->theme, err, sizeof(err));
	view_apply_theme(v);
	view_message(v, false, "theme %s", v->theme.name);
}

void view_save_prefs(struct view *v)
{
	const struct pane_decl *p = pane_for_screen(SCREEN_MAIN);
	char *keys[2] = { v->prefs.ring_sort, v->prefs.proc_sort };
	struct tui_prefs saved;
	int err;

	for (int i = 0; p && i < 2 && p->tables[i]; i++) { /* the main tables' order */
		const struct table_desc *d = table_desc_find(p->tables[i]);
		const struct table_state *ts = &v->tstate[SCREEN_MAIN][i];

		if (d && ts->sort_set && ts->sort_col < d->ncols)
			snprintf(keys[i], sizeof(v->prefs.ring_sort), "%s", d->cols[ts->sort_col].key);
		*(i == 0 ? &v->prefs.reverse : &v->prefs.proc_reverse) = ts->reverse;
	}
	if (!v->config_path[0]) {
		view_message(v, true, "cannot save: neither XDG_CONFIG_HOME nor HOME is set, or the path is too long");
		return;
	}
	saved = v->prefs;
	if (v->feed->replay) /* a replay's pace is not the live refresh */
		saved.delay_s = v->config_delay_s;
	err = prefs_save(v->config_path, &saved);
	if (err)
		view_message(v, true, "cannot save %s: %s", v->config_path, strerror(-err));
	else
		view_message(v, false, "settings saved to %s", v->config_path);
}

static void filter_key(struct view *v, int key)
{
	size_t len = strlen(v->edit);

	if (key == '\n' || key == KEY_ENTER) {
		snprintf(v->filter, sizeof(v->filter), "%s", v->edit);
		v->editing_filter = false;
	} else if (key == KEY_ESC) {
		v->filter[0] = v->edit[0] = '\0';
		v->editing_filter = false;
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (len)
			v->edit[len - 1] = '\0';
	} else if (key >= 32 && key < 127 && len + 1 < sizeof(v->edit)) {
		v->edit[len] = (char)key;
		v->edit[len + 1] = '\0';
	}
	if (v->editing_filter) /* live filtering while typing */
		snprintf(v->filter, sizeof(v->filter), "%s", v->edit);
	for (int i = 0; i < PANE_MAX_TABLES; i++)
		v->tstate[v->screen][i].sel = v->tstate[v->screen][i].top = 0;
}

static void sort_key(struct view *v, int key)
{
	unsigned int cols[TABLE_FIT_MAX_COLS];
	int n = sort_menu_columns(v, cols);
	const struct table_desc *d;
	struct table_state *ts = view_focused_table(v, &d);

	if (key == KEY_UP || key == 'k')
		v->sort_menu_sel = v->sort_menu_sel > 0 ? v->sort_menu_sel - 1 : 0;
	else if (key == KEY_DOWN || key == 'j')
		v->sort_menu_sel = v->sort_menu_sel + 1 < n ? v->sort_menu_sel + 1 : n - 1;
	else if (key == KEY_HOME)
		v->sort_menu_sel = 0;
	else if (key == KEY_END)
		v->sort_menu_sel = n - 1;
	else if (key == 'r' && ts)
		ts->reverse = !ts->reverse;
	else if (key == '\n' || key == KEY_ENTER) {
		v->overlay = OVERLAY_NONE;
		if (ts && v->sort_menu_sel >= 0 && v->sort_menu_sel < n) {
			ts->sort_col = cols[v->sort_menu_sel];
			ts->sort_set = true;
			view_message(v, false, "%s sorted by %s", d->title, d->cols[ts->sort_col].title);
		}
	} else if (key == KEY_ESC || key == 'q') {
		v->overlay = OVERLAY_NONE;
	}
}

/* The key bar item under column x, as draw_bottom lays them out: the key it stands for; 0: none. */
static int keybar_key(const struct view *v, int x)
{
	int at = 0;

	for (size_t i = 0; i < keybar_count; i++) {
		int w = (int)(strlen(keybar_items[i].key) + strlen(keybar_items[i].what)) + 1;

		if (!keybar_shown(v, i))
			continue;
		if (x >= at && x < at + w)
			return keybar_items[i].code;
		at += w;
	}
	return 0;
}

/* The pane tab under column x of the header's second line, as draw_header lays them out; -1: none. */
static int tab_at(const struct view *v, int x)
{
	for (int i = 0; i < pane_screen_count() && i < SCREEN_MAX; i++)
		if (v->tab_w[i] && x >= v->tab_x[i] && x < v->tab_x[i] + v->tab_w[i])
			return i;
	return -1;
}

/* A click on a table's column title sorts by it (again: reversed); true when it was one. */
static bool header_click(struct view *v, const MEVENT *ev)
{
	const struct pane_decl *p = pane_for_screen(v->screen);

	for (int i = 0; p && i < PANE_MAX_TABLES && view_table_name(v, p, i); i++) {
		struct table_state *ts = &v->tstate[v->screen][i];
		const struct table_desc *d = table_desc_find(view_table_name(v, p, i));
		struct table_fit fit;
		int cx;

		if (!d || !ts->width || !view_table_shown(v, v->screen, i) || ev->y != ts->drawn_y + 1 ||
		    ev->x < ts->drawn_x || ev->x >= ts->drawn_x + ts->width)
			continue;
		table_fit_sorted(d, snapshot_table(v->snap, d->name), ts->width, &v->prefs,
				 ts->sort_set ? ts->sort_col : d->sort_col, &fit); /* as drawn */
		cx = ts->drawn_x;
		for (unsigned int k = 0; k < fit.ncols; cx += fit.widths[k] + 1, k++) {
			if (ev->x < cx || ev->x >= cx + fit.widths[k])
				continue;
			v->table_focus[v->screen] = i;
			v->focus_chosen[v->screen] = true;
			if (ts->sort_set && ts->sort_col == fit.cols[k])
				ts->reverse = !ts->reverse;
			ts->sort_col = fit.cols[k];
			ts->sort_set = true;
			view_message(v, false, "%s sorted by %s", d->title, d->cols[fit.cols[k]].title);
			return true;
		}
	}
	return false;
}

/*
 * Clicks: a pane tab shows its pane, a key bar item does what its key does, a
 * column title sorts by it; on the main screen a click selects the row under
 * it and a double click opens it.
 */
static void mouse_key(struct view *v)
{
	const struct rect *areas[2] = { &v->layout.rings, &v->layout.procs };
	MEVENT ev;
	int key;

	if (getmouse(&ev) != OK)
		return;
	if (ev.y == v->layout.header.y + 1 && v->layout.header.h >= 2 && tab_at(v, ev.x) >= 0) {
		view_enter_screen(v, tab_at(v, ev.x));
		return;
	}
	if (ev.y == v->layout.keybar.y && (key = keybar_key(v, ev.x))) {
		view_key(v, key);
		return;
	}
	if (v->detail || header_click(v, &ev) || v->screen != SCREEN_MAIN)
		return;
	for (int i = 0; i < 2; i++) {
		const struct rect *r = areas[i];
		struct table_state *ts = &v->tstate[SCREEN_MAIN][i];

		if (!r->h || ev.y < r->y + 2 || ev.y >= r->y + r->h || ev.x >= r->x + r->w)
			continue;
		v->table_focus[SCREEN_MAIN] = i;
		v->focus_chosen[SCREEN_MAIN] = true;
		if (ev.y - r->y - 2 >= ts->nlines || ts->line_row[ev.y - r->y - 2] < 0)
			return; /* below the rows, or a container's line */
		ts->sel = (size_t)ts->line_row[ev.y - r->y - 2];
		if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
			open_selected(v);
		return;
	}
}

/* ---- the actions, each bound to keys in the table below ---- */

static void act_quit(struct view *v, int key)
{
	(void)key;
	v->quit = true;
}

static void act_help(struct view *v, int key)
{
	(void)key;
	v->overlay = OVERLAY_HELP;
	v->help_top = 0;
}

/* The help: arrows and pages scroll it (the draw clamps), any other key closes it. */
static void help_key(struct view *v, int key)
{
	int step = key == KEY_UP ? -1 : key == KEY_DOWN ? 1 : key == KEY_PPAGE ? -(LINES / 2) :
		   key == KEY_NPAGE ? LINES / 2 : key == KEY_HOME ? -(1 << 20) : key == KEY_END ? 1 << 20 : 0;

	if (step)
		v->help_top += step;
	else if (key != KEY_RESIZE && key != ERR && key != KEY_MOUSE)
		v->overlay = OVERLAY_NONE;
	if (v->help_top < 0)
		v->help_top = 0;
	if (v->help_top > 1 << 20)
		v->help_top = 1 << 20;
}

static void act_move(struct view *v, int key)
{
	const struct table_desc *d;
	struct table_state *ts = view_focused_table(v, &d);
	long delta = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 :
		     key == KEY_PPAGE ? -page(v) : key == KEY_NPAGE ? page(v) :
		     key == KEY_HOME ? -1000000 : 1000000;

	if (!ts)
		return;
	/* The widget clamps to the rows it has when it draws. */
	if (delta < 0)
		ts->sel = (size_t)-delta > ts->sel ? 0 : ts->sel - (size_t)-delta;
	else
		ts->sel += (size_t)delta;
	if (ts->sel > 1000000)
		ts->sel = 1000000;
}

static void act_focus(struct view *v, int key)
{
	const struct pane_decl *p = pane_for_screen(v->screen);
	int *f = &v->table_focus[v->screen], to = *f + (key == KEY_LEFT ? -1 : 1);
	const struct table_desc *d;

	if (!p)
		return;
	v->focus_chosen[v->screen] = true;
	if (to < 0 || !view_table_name(v, p, to))
		return;
	if (!view_table_shown(v, v->screen, to)) { /* the keys never go to a table not drawn */
		d = table_desc_find(view_table_name(v, p, to));
		view_message(v, false, "%s: %s; the keys stay where they are", d ? d->title : "that table",
			     view_table_hidden_why(v, to));
		return;
	}
	*f = to;
}

/*
 * htop's keys (s, F6, P, M, N, I, t, F5, k, F9) act on the processes, as there: on
 * the Overview they take the keys to its process table, unless Left, Right or a
 * click chose the rings since the Overview was entered.
 */
static void htop_focus(struct view *v)
{
	if (v->screen == SCREEN_MAIN && !v->focus_chosen[SCREEN_MAIN] &&
	    view_table_shown(v, SCREEN_MAIN, MAIN_PROCESSES))
		v->table_focus[SCREEN_MAIN] = MAIN_PROCESSES;
}

static void act_open(struct view *v, int key)
{
	(void)key;
	open_selected(v);
}

static void act_back(struct view *v, int key)
{
	(void)key;
	if (v->detail)
		v->detail = NULL;
	else if (v->filter[0])
		v->filter[0] = v->edit[0] = '\0';
	else if (v->screen != SCREEN_MAIN)
		view_enter_screen(v, SCREEN_MAIN);
}

static void act_screen(struct view *v, int key)
{
	int n = pane_screen_count();

	if (n < 1)
		return;
	if (key == '\t')
		view_enter_screen(v, (v->screen + 1) % n);
	else if (key == KEY_BTAB)
		view_enter_screen(v, (v->screen + n - 1) % n);
	else if (key - '1' < n)
		view_enter_screen(v, key - '1');
	else /* said, not silent */
		view_message(v, false, "%c: no such pane (1-%d, Tab)", key, n);
}

static void act_sort_menu(struct view *v, int key)
{
	const struct table_desc *d;
	struct table_state *ts;
	unsigned int cols[TABLE_FIT_MAX_COLS], cur;
	int n;

	(void)key;
	htop_focus(v); /* s as F6 (htop's): the processes on the Overview, unless Left/Right chose the rings */
	ts = view_focused_table(v, &d);
	if (!ts)
		return;
	if (!snapshot_table(v->snap, d->name) || !snapshot_table(v->snap, d->name)->nrows) {
		view_message(v, false, "sort: %s %s, nothing to sort; Left/Right select another table", d->title,
			     snapshot_table(v->snap, d->name) ? "has no row now" : "is not available here");
		return;
	}
	cur = ts->sort_set ? ts->sort_col : d->sort_col;
	n = sort_menu_columns(v, cols);
	v->overlay = OVERLAY_SORT;
	v->sort_menu_sel = 0;
	for (int i = 0; i < n; i++)
		if (cols[i] == cur)
			v->sort_menu_sel = i;
}

/* r: the order of the table that has the keys reversed; I (htop's invert): the processes'. */
static void act_reverse(struct view *v, int key)
{
	const struct table_desc *d;
	struct table_state *ts;
	bool rev;

	if (key == 'I')
		htop_focus(v);
	ts = view_focused_table(v, &d);
	if (!ts)
		return;
	rev = ts->reverse = !ts->reverse;
	view_message(v, false, "%s: order %s", d->title, rev ? "reversed" : "normal");
}

static void act_filter(struct view *v, int key)
{
	(void)key;
	v->editing_filter = true;
	snprintf(v->edit, sizeof(v->edit), "%s", v->filter);
}

static void act_pause(struct view *v, int key)
{
	(void)key;
	if (v->ended) { /* nothing to resume: the end lasts */
		view_message(v, false, "the recording has ended: nothing to resume; q quits");
		return;
	}
	v->paused = !v->paused;
}

static void act_step(struct view *v, int key)
{
	(void)key;
	if (v->ended) {
		view_message(v, false, "the recording has ended: no snapshot after this one; q quits");
		return;
	}
	if (v->feed->ops->step)
		v->feed->ops->step(v->feed->impl);
	if (v->paused) {
		v->paused = false;
		view_refresh(v, 300);
		v->paused = true;
	}
}

static void act_delay(struct view *v, int key)
{
	set_delay(v, key == '-' ? -1 : 1);
}

static void act_theme(struct view *v, int key)
{
	(void)key;
	next_theme(v);
}

static void act_save(struct view *v, int key)
{
	(void)key;
	view_save_prefs(v);
}

static void act_capture(struct view *v, int key)
{
	(void)key;
	view_capture_start(v);
}

/* c: the CPU call stacks of CUDA launches taken from now on (the stacks tables). */
static void act_stacks_start(struct view *v, int key)
{
	char msg[300];
	bool ok;

	(void)key;
	if (!v->stacks_key) {
		view_message(v, true,
			     v->feed->replay ? "c: no stack capture in a replay: a recording has the stacks "
					       "it was made with (--stacks FILE while recording)" :
					       "c: no stack capture here");
		return;
	}
	ok = v->stacks_key->start(v->stacks_key->impl, msg, sizeof(msg));
	view_message(v, !ok, "c: %s", msg);
}

static void act_redraw(struct view *v, int key)
{
	(void)v, (void)key;
	clearok(curscr, TRUE);
}

/* e: each GPU's block expanded (engines, fan, clocks, PCIe) or one line, on the Overview. */
static void act_expand(struct view *v, int key)
{
	(void)key;
	v->brief_devices = !v->brief_devices;
	view_message(v, false,
		     v->brief_devices ?
			     "GPUs: one line each (e expands)" :
			     "GPUs: engines, fans, clocks and PCIe below each, when all fit in a third of the "
			     "screen or in rows the tables leave (e: one line each)");
}

/* G: a GPU's processes (the Overview's first GPU, then the next), over the screen; Esc goes back. */
static void act_gpu(struct view *v, int key)
{
	(void)key;
	gpu_drill_next(v);
}

/* g: tables with a grouped alternative (processes -> containers) switch to it and back. */
static void act_group(struct view *v, int key)
{
	const struct pane_decl *p = pane_for_screen(v->screen);

	(void)key;
	if (view_pane_instead(v, pane_for_side(SIDE_MEMORY)) && (!pane_can_group(p) || view_pane_instead(v, p))) {
		/* the Memory screen shows NVML's tables: no DRM client to group by container */
		view_message(v, false, "nothing to group here: no DRM process to group by container (Memory: NVML's)");
		return;
	}
	if (!pane_can_group(p)) {
		view_message(v, false, "nothing to group here (6: Memory groups processes by container)");
		return;
	}
	v->grouped = !v->grouped;
	v->detail = NULL;
	for (int i = 0; i < PANE_MAX_TABLES; i++)
		if (p->grouped[i]) /* another table: its own columns */
			v->tstate[v->screen][i] = (struct table_state){ 0 };
	view_message(v, false, "%s", v->grouped ? "grouped by cgroup / container" : "by process");
}

/* F2: the setup screen. */
static void act_setup(struct view *v, int key)
{
	(void)key;
	setup_open(v);
}

/* t, F5: process tables show their processes under their containers, and back. */
static void act_tree(struct view *v, int key)
{
	const struct table_desc *d = NULL;
	struct table_state *ts;

	(void)key;
	htop_focus(v);
	ts = view_focused_table(v, &d);
	if (!ts || !d || !table_tree_applies(d)) {
		view_message(v, false, "t (tree): %s has no processes with containers; select a process table",
			     d ? d->title : "this screen");
		return;
	}
	v->tree = !v->tree;
	view_message(v, false, "%s", v->tree ? "tree: processes under their container (cgroup); t: flat" :
						   "flat: one line per process");
}

/* F9 and k, as in htop (K where vi_keys makes k "up"): the signal menu, for the processes. */
static void act_kill(struct view *v, int key)
{
	if (key == 'k' && v->prefs.vi_keys) {
		act_move(v, key);
		return;
	}
	if (key == 'K' && !v->prefs.vi_keys) { /* htop's K hides kernel threads */
		view_message(v, false, "%s", habit_hint(key));
		return;
	}
	htop_focus(v);
	kill_menu_open(v);
}

/* j moves down only with vi_keys (k then moves up). */
static void act_vi_down(struct view *v, int key)
{
	if (v->prefs.vi_keys)
		act_move(v, key);
	else
		view_message(v, false, "j: no such key (vi_keys = yes in the config makes j and k move)");
}

/* The sort column of the focused table, by key: its key, or -1. */
static void sort_by(struct view *v, int col, const char *why)
{
	const struct table_desc *d;
	struct table_state *ts = view_focused_table(v, &d);

	if (!ts)
		return;
	if (col < 0) {
		view_message(v, false, "%s: %s has no such column", why, d->title);
		return;
	}
	ts->sort_col = (unsigned int)col;
	ts->sort_set = true;
	view_message(v, false, "%s sorted by %s", d->title, d->cols[col].title);
}

/* The first column of d whose key is one of keys, or -1. */
static int first_col(const struct table_desc *d, const char *const *keys)
{
	for (; *keys; keys++)
		if (table_col(d, *keys) >= 0)
			return table_col(d, *keys);
	return -1;
}

/* M: by memory, P: by GPU use, N: by PID (htop's memory, processor and PID keys), where the table has one. */
static void act_sort_shortcut(struct view *v, int key)
{
	static const char *const mem[] = { "mem_bytes", "resident_bytes", "vram_bytes", "total_bytes",
					   "mem_used_bytes", "used_bytes", NULL };
	static const char *const gpu[] = { "gpu_pct", "busy_pct", "util_pct", "sm_pct", NULL };
	static const char *const pid[] = { "pid", NULL };
	const char *const *cols = key == 'M' ? mem : key == 'N' ? pid : gpu;
	const char *why = key == 'M' ? "M (memory)" : key == 'N' ? "N (PID)" : "P (GPU use)";
	const struct table_desc *d;

	htop_focus(v);
	if (view_focused_table(v, &d))
		sort_by(v, first_col(d, cols), why);
}

/* < and >: the sort column moves to the shown column left or right of it. */
static void act_sort_step(struct view *v, int key)
{
	const struct table_desc *d;
	struct table_state *ts = view_focused_table(v, &d);
	unsigned int cols[TABLE_FIT_MAX_COLS], cur;
	int n, at = -1;

	if (!ts)
		return;
	cur = ts->sort_set ? ts->sort_col : d->sort_col;
	n = sort_menu_columns(v, cols); /* the columns drawn at the table's width, as the sort menu offers them */
	for (int i = 0; i < n; i++)
		if (cols[i] == cur)
			at = i;
	if (!n)
		return;
	at = key == '<' ? (at <= 0 ? 0 : at - 1) : (at < 0 ? 0 : at + 1 < n ? at + 1 : at);
	sort_by(v, (int)cols[at], key == '<' ? "<" : ">");
}

static void act_stacks(struct view *v, int key)
{
	(void)key;
	stacks_view_open(v);
}

static void act_mouse(struct view *v, int key)
{
	(void)key;
	mouse_key(v);
}

static const struct {
	int key;
	void (*act)(struct view *v, int key);
} bindings[] = {
	{ 'q', act_quit },	   { KEY_F(10), act_quit },	{ 'h', act_help },
	{ '?', act_help },	   { KEY_F(1), act_help },	{ KEY_UP, act_move },
	{ 'k', act_kill },	   { KEY_DOWN, act_move },	{ 'j', act_vi_down },
	{ KEY_F(9), act_kill },	   { 'K', act_kill },		{ KEY_F(4), act_filter },
	{ 'M', act_sort_shortcut }, { 'P', act_sort_shortcut }, { '<', act_sort_step },
	{ '>', act_sort_step },
	{ KEY_PPAGE, act_move },   { KEY_NPAGE, act_move },	{ KEY_HOME, act_move },
	{ KEY_END, act_move },	   { KEY_LEFT, act_focus },	{ KEY_RIGHT, act_focus },
	{ '\n', act_open },	   { KEY_ENTER, act_open },	{ KEY_ESC, act_back },
	{ KEY_BACKSPACE, act_back }, { 127, act_back },		{ 8, act_back },
	{ '\t', act_screen },	   { KEY_BTAB, act_screen },	{ '1', act_screen },
	{ '2', act_screen },	   { '3', act_screen },		{ '4', act_screen },
	{ '5', act_screen },	   { '6', act_screen },		{ '7', act_screen },		{ '8', act_screen },		{ '9', act_screen },		{ 'g', act_group },	{ 'G', act_gpu }, { 'e', act_expand }, { 't', act_tree }, { KEY_F(5), act_tree }, { KEY_F(2), act_setup },
	{ 's', act_sort_menu },	{ KEY_F(6), act_sort_menu },
	{ 'r', act_reverse },	   { '/', act_filter },		{ KEY_F(3), act_filter },
	{ ' ', act_pause },	   { 'n', act_step },		{ '.', act_step },
	{ '+', act_delay },	   { '=', act_delay },		{ '-', act_delay },
	{ 'C', act_theme },	   { 'W', act_save },		{ KEY_CTRL_L, act_redraw },
	{ KEY_MOUSE, act_mouse },	   { 'T', act_capture },	{ 'S', act_stacks },
	{ 'c', act_stacks_start },
};

/* Keys other monitors taught, bound to what does the same here (habits.c: those not here). */
static const struct {
	int key;
	void (*act)(struct view *v, int key);
} habit_bindings[] = {
	{ 'Z', act_pause }, /* htop: freeze */
	{ 'I', act_reverse }, /* htop: invert the sort */
	{ 'N', act_sort_shortcut }, /* htop: sort by PID */
	{ '\\', act_filter }, /* htop: filter */
	{ KEY_F(12), act_save }, /* nvtop: save the settings */
};

void view_key(struct view *v, int key)
{
	if (v->editing_filter) {
		filter_key(v, key);
		return;
	}
	if (v->overlay == OVERLAY_ROW) { /* arrows and pages scroll its fields; other keys close it */
		int page = v->row_page > 1 ? v->row_page - 1 : 1;

		if (key == KEY_UP || key == KEY_DOWN || key == KEY_PPAGE || key == KEY_NPAGE || key == KEY_HOME ||
		    key == KEY_END)
			v->row_top = key == KEY_UP ? v->row_top - 1 : key == KEY_DOWN ? v->row_top + 1 :
				     key == KEY_PPAGE ? v->row_top - page : key == KEY_NPAGE ? v->row_top + page :
				     key == KEY_HOME ? 0 : 1 << 20; /* the draw clamps it */
		else if (key != KEY_RESIZE && key != ERR)
			v->overlay = OVERLAY_NONE;
		if (v->row_top < 0)
			v->row_top = 0;
		return;
	}
	if (v->overlay == OVERLAY_HELP) {
		help_key(v, key);
		return;
	}
	if (v->overlay == OVERLAY_SORT) {
		sort_key(v, key);
		return;
	}
	if (v->overlay == OVERLAY_KILL) {
		kill_menu_key(v, key);
		return;
	}
	if (v->overlay == OVERLAY_SETUP) {
		setup_key(v, key);
		return;
	}
	if (key != KEY_RESIZE && key != KEY_MOUSE)
		v->message[0] = '\0';
	view_focus_shown(v);
	if (stacks_view_shown(v) && stacks_view_key(v, key))
		return;
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++) {
		if (bindings[i].key == key) {
			bindings[i].act(v, key);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(habit_bindings) / sizeof(habit_bindings[0]); i++) {
		if (habit_bindings[i].key == key) {
			habit_bindings[i].act(v, key);
			return;
		}
	}
	if (habit_hint(key)) /* another monitor's key: what to use here */
		view_message(v, false, "%s", habit_hint(key));
	else if (key != KEY_RESIZE && key != ERR) /* said, not silently ignored */
		view_message(v, false, "%s: no such key here (F1 lists the keys)", keyname(key) ? keyname(key) : "?");
}
