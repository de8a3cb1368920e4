/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Drawing helpers for the curses screens. */
#ifndef GPUTOP_DRAW_H
#define GPUTOP_DRAW_H

#include <stdbool.h>
#include "format/cell_format.h" /* format_ns */
#include "tui/layout.h"
#include "tui/table_fit.h"
#include "tui/view.h"

enum role {
	ROLE_NORMAL, ROLE_HEADER, ROLE_TITLE, ROLE_LABEL, ROLE_VALUE, ROLE_DIM, ROLE_SELECTED,
	ROLE_METER_LOW, ROLE_METER_MID, ROLE_METER_HIGH, ROLE_SPARK, ROLE_WARNING, ROLE_ERROR,
	ROLE_KEY, ROLE_KEYBAR, ROLES,
};

/* Curses attributes (colour pair and video attributes) of a role. */
int role_attr(enum role r);
void colors_setup(const struct theme *t, bool color);

/* Text at (y, x), cut at w cells; returns the cells written. */
int put(int y, int x, int w, enum role r, const char *text);
/* Text at (y, x) only if all of it fits in w cells (nothing cut mid-word); returns the cells written. */
int put_whole(int y, int x, int w, enum role r, const char *text);
/* Parts at (y, x), each whole where it fits before right (a part that does not is left out), the first
 * in role first, the rest r; returns the x after them. Parts of one width in every row keep their columns. */
int put_columns(int y, int x, int right, enum role first, enum role r, char (*parts)[48], int n);
/* Text whole if it fits in w cells, else cut at a word and ended by an ellipsis; returns the cells written. */
int put_cut(int y, int x, int w, enum role r, const char *text);
int putf(int y, int x, int w, enum role r, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/*
 * Text word-wrapped into a (at spaces; a word longer than a line is cut); returns the rows used.
 * Text longer than a: its first whole sentences that fit, the rest left out (nothing when none fits).
 */
int put_wrapped(struct rect a, enum role r, const char *text);
/*
 * The n parts in a, gap spaces apart, each whole: a part that does not fit on
 * the line goes to the next; returns the rows used.
 */
int put_parts(struct rect a, enum role r, const char *const *parts, int n, int gap);
/* The rows put_parts takes for the n parts at width w (a part wider than a line: left out, as there). */
int parts_rows(const char *const *parts, int n, int w, int gap);
/* On the borders of the box around in: "↑ N more" (top) and "↓ N more" (bottom) where a list goes on. */
void list_more(const struct view *v, struct rect in, int above, int below);
/* put_wrapped, but text longer than a fills it, its last line ending at a word and an ellipsis. */
int put_wrapped_cut(struct rect a, enum role r, bool utf8, const char *text);
/* The rows put_wrapped would use for text at width w, however many. */
int wrapped_rows(const char *text, int w);
/* Whether put_wrapped in h rows of w would put some of text (all of it, or a whole sentence). */
bool wrapped_fits_some(const char *text, int w, int h);
/* Fills a row segment with spaces in a role. */
void fill(int y, int x, int w, enum role r);
/* A titled frame around r; returns the inner rect. */
struct rect frame(struct rect r, const char *title, bool utf8);
/* A box of h rows and w cells in the middle of the screen (the screen where it is smaller), blanked and
 * framed with its title; returns the inner rect. */
struct rect popup(int h, int w, const char *title, bool utf8);
const char *fmt_rate(double per_s, char *buf, size_t size);

/*
 * One collector table in r: title, header, the rows that fit (scrolled to keep
 * the selection in sight), a sparkline of its history column where room is left.
 * t NULL: the table's collector published nothing this tick. Returns the rows shown.
 */
void table_view_draw(struct view *v, const struct table_desc *d, const struct table *t,
		     struct table_state *ts, struct rect r, bool focused,
		     const struct collector_status *c);
/*
 * What the empty table d of an attached collector says (t: its rows, NULL where the snapshot
 * has none; scope: where its rows are counted, NULL its name's): a filter's, else table_empty_text's.
 */
const char *view_empty_text(const struct view *v, const struct table_desc *d, const struct table *t, const char *scope,
			    char *text, size_t size);
/* The rows table i of pane p asks for at width w: title, header and rows, or its empty text; a blank line. */
int pane_table_need(const struct view *v, const struct pane_decl *p, int i, int w);
/* The rows of t the filter keeps (all, without a filter), as view_rows keeps them. */
size_t view_rows_kept(const struct view *v, const struct table *t);
/* Table i of pane p in r, with its collector's reason and fix when it has nothing to show. */
void pane_table_draw(struct view *v, const struct pane_decl *p, int i, struct rect r);
/* Every column of the selected row of the focused table, over the screen. */
void draw_row_overlay(struct view *v);
void draw_main(struct view *v);
/* The rows side pane which (SIDE_*) uses in a frame w wide: all it shows, and the least it shows (layout_input). */
void side_rows_need(const struct view *v, int which, int w, int *need, int *least);
/* The Overview's GPU blocks (draw_devices.c) in r. */
void draw_devices(struct view *v, struct rect r);
/*
 * The GPU history's rows wanted (a title, a row per GPU and metric; 0: no GPU with one), *least those of its
 * use, memory and power rows alone; and the drawing.
 */
int gpu_history_rows(const struct view *v, int *least);
void draw_gpu_history(struct view *v, struct rect r);
/* The lines the GPU blocks list: the devices, and those only the scheduler's rings name. */
int devices_count(const struct view *v);
#define RING_ONLY_MAX 8
/*
 * The devices the scheduler's rings name that no device line is (a driver with
 * no DRM card, as the mock GPU): their jobs are shown on a line of their own,
 * never summed into nothing. Up to RING_ONLY_MAX into out; how many.
 */
int ring_only_devices(const struct snapshot *s, const char **out);
/* The rows the expanded GPU blocks take (a device with no detail takes one). */
int devices_rows(const struct view *v);
void draw_vendor(struct view *v, struct rect area);
/* The collector whose state a vendor screen shows. */
void draw_help(struct view *v);
/* "label  sparkline" of the history of column key of row in t, on row y of a. */
void draw_spark_row(struct view *v, int y, struct rect a, const char *label, const struct table *t,
		    size_t row, const char *key);
#define SPARK_BANDS_MAX 8 /* the tallest a chart of draw_spark_rows grows where rows are left */
/* Whether the history of row's key column in t has a value known (a sparkline to draw). */
bool spark_known(struct view *v, const struct table *t, size_t row, const char *key);
/* The same drawn bands rows tall from row y (the label and scale on its last), as nvtop's charts. */
void draw_spark_rows(struct view *v, int y, int bands, struct rect a, const char *label, const struct table *t,
		     size_t row, const char *key);
/*
 * Over a sparkline of the last cells of vals[0..n) drawn on row y ending before column end: each unknown sample
 * (an interval without a value) as a dot in role, not a blank that reads as nothing at all.
 */
void spark_unknown_dots(const struct view *v, int y, int end, const double *vals, size_t n, int cells,
			enum role role);
/* Blanks r. */
void clear_rect(struct rect r);
/* A drill-down whose row left the snapshot: "<what> <key>   (Esc goes back)" and why, in a. */
void draw_drill_gone(struct view *v, struct rect a, const char *what, const char *why);
/* The value a sparkline of col draws as a full cell: 100 for a percentage (a steady 5 % is low, not
 * full), else 0 (its largest value). */
double spark_max(const struct col_desc *col);
/* A number cell, 0 when unknown. */
double num_or_0(const struct table *t, size_t row, const char *key);
/* Enter on a process of gpu.processes: what every source says of it, its rings, its history. */
void draw_process_drill(struct view *v, const struct table *t, long row, struct rect a);
/* G: the drill-down of the device list's first GPU, or of the next while one is open (gpu_drill.c). */
void gpu_drill_next(struct view *v);
/* Every GPU's rows of s counted in seen, each under its view's scope (what its empty tables say). */
void gpu_drill_seen(struct table_seen *seen, const struct snapshot *s);
/* The GPU memory and engine use of process pid (memory.processes) in r; returns the rows used. */
int memory_process_lines(struct view *v, double pid, struct rect r);
void draw_sort_menu(struct view *v);
/* The sort menu's entries: the focused table's columns on screen, into cols; how many. */
int sort_menu_columns(struct view *v, unsigned int *cols);
/* The arrow of a sorted column's order. */
const char *sort_arrow(const struct col_desc *col, bool reverse, bool utf8);
void draw_header(struct view *v, struct rect r);
void draw_bottom(struct view *v);
/* The key bar, left to right: what each item says and the key a click on it stands for. */
struct keybar_item {
	const char *key, *what;
	int code;
	bool live_only; /* not offered in a replay (signals) */
};
extern const struct keybar_item keybar_items[];
extern const size_t keybar_count;
/* Whether the key bar shows item i in this view (drawn and clicked alike). */
bool keybar_shown(const struct view *v, size_t i);

#endif
