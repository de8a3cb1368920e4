/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The interface's state: what is shown and selected. Owned by the UI thread. */
#ifndef GPUTOP_VIEW_H
#define GPUTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "model/feed.h"
#include "tui/tui.h"
#include "tui/config.h"
#include "tui/layout.h"
#include "tui/overview_fit.h"
#include "tui/panes.h"
#include "tui/table_fit.h"
#include "tui/theme.h"

#define KEY_ESC 27 /* curses names no key for it */
#define MAIN_PROCESSES 1 /* the Overview's process table: its second (pane_sched.c), below the rings */

enum overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_SORT, OVERLAY_ROW, OVERLAY_KILL, OVERLAY_SETUP };

struct histories;
struct table_seen;

/* A table's rows in the order shown, kept while the snapshot, sort and filter stay (table_view.c). */
struct row_order {
	size_t *rows, n, cap;
	uint64_t seq;
	const struct table_desc *desc;
	unsigned int sort;
	bool reverse, valid, tree;
	char filter[64];
};

/* The Stacks view (S, stacks_view.c): whose stacks, the weight, the selection, the nodes opened or closed. */
#define STACKS_TOGGLED_MAX 256
struct stacks_state {
	uint32_t pid; /* 0: all processes */
	char ring[160]; /* "DEV NAME": that ring's job stacks only */
	int weight; /* enum stack_weight */
	size_t sel, top; /* the selected line, the first shown */
	uint64_t sel_path; /* the selected node's identity, kept across snapshots */
	bool all_open; /* '*': every node open, but those toggled */
	char filter[64]; /* '/': only the stacks with a node that has this text (stack_filter) */
	bool editing; /* the filter being typed: every key goes to it */
	uint64_t toggled[STACKS_TOGGLED_MAX]; /* nodes opened or closed against the default, oldest first */
	size_t ntoggled;
	/* what Esc goes back to: the drill-down it was opened from, or none */
	pane_drill_fn back;
	const char *back_table;
	char back_key[TABLE_KEY_MAX];
};

struct view {
	const struct feed *feed;
	const struct snapshot *snap; /* the snapshot shown (a reference), or NULL before the first */
	int screen; /* index of the screen shown (panes.h: 0 is the overview) */
	enum overlay overlay;
	int sort_menu_sel;
	int row_top, row_page; /* the row view (Enter): its first field shown, and how many fit */
	int help_top; /* the help (h): its first line shown (the draw clamps it) */
	int setup_sel; /* the setup screen's line (F2) */
	/* the signal menu (F9, K): the process, its name, the signal chosen, whether it asks to confirm */
	struct {
		int sel;
		bool confirm;
		long pid;
		char comm[32];
	} kill;
	/* A table's drill-down, open over the screen: which table, which row (by identity). */
	pane_drill_fn detail;
	const char *detail_table;
	char detail_key[TABLE_KEY_MAX];
	struct tui_prefs prefs;
	char config_path[512];
	char filter[64];
	bool editing_filter;
	char edit[64];
	bool paused, quit, utf8, color;
	bool brief_devices; /* one line per GPU ('e'), not the expanded block */
	bool grouped; /* tables with a grouped alternative show it ('g': processes by container) */
	bool tree; /* process tables show their processes under their containers ('t', F5) */
	bool ended; /* the end of a replay was announced */
	uint32_t pid_filter; /* -p */
	bool pid_seen; /* a row of pid_filter's was shown: a replay's end says when none was */
	bool replay_paced; /* a replay played at a pace of the user's (-d, + -), not the recording's */
	double config_delay_s; /* the live refresh the config file gave: what W saves in a replay */
	const void *said; /* this frame: the collector (its info) whose reason a table has shown */
	size_t theme_idx;
	struct theme theme;
	char message[320];
	bool message_error;
	const struct tui_capture *capture; /* T: NULL when none is offered */
	const struct tui_stacks_key *stacks_key; /* c: NULL when none is offered */
	const char *record; /* --record's file: "REC name" in the header; NULL: none */
	bool capturing; /* one runs: capture_line is its progress */
	char capture_line[320];
	struct layout layout; /* last drawn, for mouse clicks */
	struct overview_fit fit; /* the Overview's panes whose source is absent, as last drawn */
	struct histories *histories; /* sparklines of the collector tables */
	struct table_seen *seen; /* the rows each table has had: what an empty one says */
	struct stacks_state stacks;
	struct table_state tstate[SCREEN_MAX][PANE_MAX_TABLES]; /* per declared table */
	struct row_order order[SCREEN_MAX][PANE_MAX_TABLES]; /* their rows' order, as last sorted */
	int table_focus[SCREEN_MAX]; /* which declared table of a screen has the keys */
	int tab_x[SCREEN_MAX], tab_w[SCREEN_MAX]; /* where each pane's tab was drawn (0 wide: left out) */
	bool instead_shown[SCREEN_MAX]; /* the screen shows its pane's instead[] tables (as last drawn) */
	bool focus_chosen[SCREEN_MAX]; /* by the user (Left/Right, a click) since the screen was entered */
};

void view_message(struct view *v, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether pane p shows its instead[] tables now: its collector not attached, instead[0] with rows. */
bool view_pane_instead(const struct view *v, const struct pane_decl *p);
/* The name of pane p's table i as shown now (instead[], the grouped alternative, or its own), NULL past the last. */
const char *view_table_name(const struct view *v, const struct pane_decl *p, int i);
/* A screen whose tables changed (instead[] came or went): their states, order and focus start again. */
void view_instead_changes(struct view *v);
/*
 * Whether table i of a screen is drawn: on the Overview, the rings or the
 * processes are not where F2 hid their pane or this machine lacks its source
 * (overview_fit); no key acts on such a table. Why not (for the status line), or NULL.
 */
bool view_table_shown(const struct view *v, int screen, int i);
const char *view_table_hidden_why(const struct view *v, int i);
/* The Overview's keys moved off a table not drawn, to the first that is. */
void view_focus_shown(struct view *v);
/* The table the keys act on (the focused one of the screen) and its state; NULL when none. */
struct table_state *view_focused_table(struct view *v, const struct table_desc **d);
/* What another monitor's key (htop's, nvtop's) not bound here means there and what to use; NULL: none. */
const char *habit_hint(int key);
/* Handles one key (curses key code); may set v->quit. */
void view_key(struct view *v, int key);
/* The selected row of the focused table (or the open drill-down's) and its table; -1 when none. */
long view_selected_row(struct view *v, const struct table **t);
/* F9, K: the signal menu for the selected process (kill.c); its keys; drawn over the screen. */
void kill_menu_open(struct view *v);
void kill_menu_key(struct view *v, int key);
void draw_kill_menu(struct view *v);
/* F2: the setup screen (setup.c): panes and the focused table's columns; its keys; drawn over the screen. */
void setup_open(struct view *v);
void setup_key(struct view *v, int key);
void draw_setup(struct view *v);
/* T: a capture of the next seconds starts (capture_key.c); each snapshot it takes while one runs. */
void view_capture_start(struct view *v);
void view_capture_snapshot(struct view *v, const struct snapshot *s);
/* W: the settings saved to the config file, and said in the status line. */
void view_save_prefs(struct view *v);
/* Takes a newer snapshot from the feed, unless paused; true when there was one. */
bool view_refresh(struct view *v, int timeout_ms);
/* Screen i shown (a key, a tab click): its keys start again on its first table with rows (focus_first_rows). */
void view_enter_screen(struct view *v, int screen);
void view_draw(struct view *v);
/* The theme and colour mode take effect (curses colour pairs). */
void view_apply_theme(struct view *v);
/*
 * The rows of t to show, in order (sorted, filtered), for the table state ts of
 * this view: sorted again only when the snapshot, the sort or the filter changed
 * (50,000 rows sorted every frame made keys lag). NULL when out of memory.
 */
const size_t *view_rows(struct view *v, const struct table_state *ts, const struct table *t,
			size_t *n);
void view_rows_free(struct view *v);
/* S: the Stacks view of the selected process, the open process's or ring's, else of all (stacks_view.c). */
void stacks_view_open(struct view *v);
/* A key while the Stacks view is open: true when it took it. */
bool stacks_view_key(struct view *v, int key);
/* Whether the Stacks view is the drill-down open. */
bool stacks_view_shown(const struct view *v);
/* Its tree, kept between frames, freed (at exit). */
void stacks_view_free(void);

#endif
