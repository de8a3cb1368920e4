// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The interface's life: curses set-up, the loop, and restoring the terminal. */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include "model/histories.h"
#include "model/table_seen.h"
#include "tui/draw.h"
#include "tui/overview_fit.h"
#include "tui/tui.h"
#include "tui/table_tree.h"

#define TICK_MS 100 /* input latency; snapshots arrive at the refresh interval */

static bool curses_active;

static void restore_terminal(void)
{
	if (curses_active) {
		endwin();
		curses_active = false;
	}
}



/* Rows the layout gives a main-screen table under its title and header: its rows, or one line saying why none. */
static int main_table_rows(const struct view *v, int i)
{
	const struct pane_decl *p = pane_for_screen(SCREEN_MAIN);
	const struct table *t = p && p->tables[i] ? snapshot_table(v->snap, p->tables[i]) : NULL;

	if (!t || !t->nrows)
		return 0;
	if (v->filter[0]) /* the rows it keeps; none: the title says so */
		return (int)view_rows_kept(v, t);
	return v->tree && table_tree_applies(t->desc) ? (int)table_tree_lines(t) : (int)t->nrows;
}

void view_draw(struct view *v)
{
	struct layout_input in = { .rows = LINES, .cols = COLS };
	struct rect body;

	/* no device: rows for the screen that says so and what to try */
	in.ndevices = devices_count(v) ? devices_count(v) : 3;
	in.device_rows = v->brief_devices ? in.ndevices : devices_rows(v);
	in.nrings = main_table_rows(v, 0);
	in.nprocs = main_table_rows(v, 1);
	overview_fit(v, &v->fit);
	view_instead_changes(v);
	for (int i = 0; i < PANE_COUNT; i++)
		in.panes[i] = v->prefs.panes[i] && !v->fit.absent[i];
	in.absent_line = v->fit.n > 0;
	view_focus_shown(v);
	in.history_rows = gpu_history_rows(v, &in.history_least);
	layout_compute(&in, &v->layout);
	for (int i = 0; i < SIDE_COUNT; i++) /* the rows each side pane uses at the width it got: the rest to others */
		side_rows_need(v, i, v->layout.side[i].w, &in.side_need[i], &in.side_least[i]);
	layout_compute(&in, &v->layout);
	/* side panes the terminal has no room for: named on that line too (a line taken for it) */
	if (overview_fit_no_room(&v->fit, in.panes, &v->layout) && !in.absent_line) {
		in.absent_line = true;
		layout_compute(&in, &v->layout);
		overview_fit_no_room(&v->fit, in.panes, &v->layout);
	}
	erase();
	if (v->layout.too_small) {
		putf(LINES / 2, 0, COLS, ROLE_WARNING, "Terminal too small: %dx%d", COLS, LINES);
		putf(LINES / 2 + 1, 0, COLS, ROLE_NORMAL, "needs %dx%d; q quits", LAYOUT_MIN_COLS,
		     LAYOUT_MIN_ROWS);
		refresh();
		return;
	}
	v->said = NULL;
	draw_header(v, v->layout.header);
	body = (struct rect){ v->layout.header.h, 0, LINES - 2 - v->layout.header.h, COLS };
	if (v->detail) { /* a drill-down, on whichever screen it was opened */
		const struct table *t = snapshot_table(v->snap, v->detail_table);

		v->detail(v, t, t ? table_find_row(t, v->detail_key) : -1, body);
	} else if (v->screen != SCREEN_MAIN)
		draw_vendor(v, body);
	else if (!v->snap)
		put(body.y + 1, 1, COLS - 2, ROLE_DIM, "Waiting for the first snapshot...");
	else
		draw_main(v);
	draw_bottom(v);
	if (v->overlay == OVERLAY_HELP)
		draw_help(v);
	else if (v->overlay == OVERLAY_SORT)
		draw_sort_menu(v);
	else if (v->overlay == OVERLAY_ROW)
		draw_row_overlay(v);
	else if (v->overlay == OVERLAY_KILL)
		draw_kill_menu(v);
	else if (v->overlay == OVERLAY_SETUP)
		draw_setup(v);
	refresh();
}

/*
 * Home, End, Delete as the common terminals send them, whatever TERM's entry
 * says: with TERM naming another terminal (xterm-256color inside tmux or
 * screen) "\e[1~" would otherwise come as Esc, '[', '1', '~' (close, nothing,
 * pane 1, nothing).
 */
static void known_key_sequences(void)
{
	static const struct {
		const char *seq;
		int key;
	} keys[] = {
		{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME }, { "\033OH", KEY_HOME },
		{ "\033[4~", KEY_END },  { "\033[8~", KEY_END },  { "\033[F", KEY_END },  { "\033OF", KEY_END },
		{ "\033[3~", KEY_DC },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (key_defined(keys[i].seq) <= 0) /* not bound already (0), nor a prefix of one (-1) */
			define_key(keys[i].seq, keys[i].key);
}

/* The saved sort order of the main screen's tables (rings, processes). */
static void prefs_to_tables(struct view *v)
{
	const struct pane_decl *p = pane_for_screen(SCREEN_MAIN);
	const char *keys[2] = { v->prefs.ring_sort, v->prefs.proc_sort };

	for (int i = 0; p && i < 2 && p->tables[i]; i++) {
		const struct table_desc *d = table_desc_find(p->tables[i]);
		int col = d ? table_col(d, keys[i]) : -1;
		struct table_state *ts = &v->tstate[SCREEN_MAIN][i];

		ts->sort_set = col >= 0;
		ts->sort_col = col >= 0 ? (unsigned int)col : 0;
		ts->reverse = i == 0 ? v->prefs.reverse : v->prefs.proc_reverse;
	}
}

/* Settings: the config file, then the command line over it. */
static void load_settings(struct view *v, const struct tui_settings *ts)
{
	char err[320] = "";
	int bad;

	prefs_defaults(&v->prefs);
	if (prefs_path(v->config_path, sizeof(v->config_path))) {
		bad = prefs_load(v->config_path, &v->prefs, err, sizeof(err));
		if (bad)
			view_message(v, true, "%s%s", err, bad > 1 ? " (and more lines skipped)" : "");
	}
	v->config_delay_s = v->prefs.delay_s;
	if (ts->delay_given || !v->feed->replay)
		v->prefs.delay_s = ts->delay_given ? ts->delay_s : v->prefs.delay_s;
	v->replay_paced = v->feed->replay && ts->delay_given;
	v->pid_filter = ts->pid;
	if (ts->notice && ts->notice[0])
		view_message(v, true, "%s", ts->notice);
	if (ts->theme && strlen(ts->theme) >= sizeof(v->prefs.theme))
		view_message(v, true, "theme: the path is longer than %zu bytes: not loaded",
			     sizeof(v->prefs.theme) - 1);
	else if (ts->theme)
		snprintf(v->prefs.theme, sizeof(v->prefs.theme), "%s", ts->theme);
	bad = theme_load(v->prefs.theme, &v->theme, err, sizeof(err));
	if (bad)
		view_message(v, true, "theme: %s", err);
	for (size_t i = 0; i < theme_builtin_count(); i++)
		if (!strcmp(theme_builtin_name(i), v->theme.name))
			v->theme_idx = i;
	prefs_to_tables(v);
}

int tui_run(const struct feed *feed, const struct tui_settings *ts)
{
	struct view v = { .feed = feed, .histories = histories_new(), .seen = table_seen_new() };
	bool dirty = true;

	v.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	load_settings(&v, ts);
	v.color = !ts->no_color;
	v.capture = ts->capture;
	v.stacks_key = ts->stacks_key;
	v.record = ts->record;
	if (!feed->replay || ts->delay_given)
		feed->ops->set_delay(feed->impl, v.prefs.delay_s);

	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "gputop-bpf: cannot start the interface on this terminal (TERM=%s); use -b\n",
			getenv("TERM") ? getenv("TERM") : "unset");
		return -1;
	}
	curses_active = true;
	atexit(restore_terminal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	known_key_sequences();
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED, NULL);
	timeout(TICK_MS);
	view_apply_theme(&v);

	while (!v.quit && !*ts->stop) {
		int key;

		if (view_refresh(&v, 0))
			dirty = true;
		if (dirty) {
			view_draw(&v);
			dirty = false;
		}
		key = getch();
		/* keys first: each one's effect drawn at once, those waiting too, then a new snapshot */
		while (key != ERR && !v.quit) {
			view_key(&v, key == '\r' ? '\n' : key);
			if (v.quit)
				break;
			view_draw(&v);
			timeout(0);
			key = getch();
			timeout(TICK_MS);
		}
	}
	if (v.snap)
		feed->ops->release(feed->impl, v.snap);
	histories_free(v.histories);
	table_seen_free(v.seen);
	view_rows_free(&v);
	stacks_view_free();
	restore_terminal();
	return 0;
}
