/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* How a collector table fits a width, and text that fits a cell: pure arithmetic, no curses. */
#ifndef GPUTOP_TABLE_FIT_H
#define GPUTOP_TABLE_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include "model/table.h"
#include "format/cell_text.h" /* text_fit */
#include "tui/config.h"

#define TABLE_FIT_MAX_COLS 32
#define TABLE_FIT_SPARK_MIN 8 /* narrowest sparkline worth drawing */
#define TABLE_FIT_SPARK_KEEP 12 /* room kept for the sparkline before wide columns */

struct table_fit {
	unsigned int cols[TABLE_FIT_MAX_COLS]; /* shown columns, in order */
	int widths[TABLE_FIT_MAX_COLS]; /* their cells: the descriptor's, a cut text column given spare room */
	unsigned int ncols;
	int spark_col; /* the column whose history is drawn at the right, -1: none */
	int spark_x, spark_w; /* where, relative to the table's left edge */
};

/*
 * Columns in descriptor order (drill-down-only ones left out) while they fit in
 * width cells, one space between; a column that does not fit is left out whole,
 * never cut. Wide columns come last, after room for the sparkline (the
 * COL_SPARK history, else the first) is kept; the sparkline gets what is left, where
 * that holds its title's short form ("TOTAL hist.": untitled it reads as the column beside it).
 * A COL_IF_KNOWN column shows only when a row of t knows it (t NULL: never).
 * Room left over beyond the sparkline's titled short form ("LAUNCH/S hist.", at least
 * TABLE_FIT_SPARK_KEEP cells) widens the text columns whose values t cuts (a kernel's
 * name, a container's path), up to their widest value.
 */
void table_fit_columns(const struct table_desc *d, const struct table *t, int width, const struct tui_prefs *prefs,
		       struct table_fit *out);
/*
 * table_fit_columns as drawn sorted by column sort: that column one cell wider where its title fills it, so its
 * arrow has a cell of its own and a space still parts it from the next title (never CRTC▲DEVICE). The cell comes
 * from the room left over, else the sparkline's; else the last column that fits gives way. Where the sorted column
 * does not fit in order, it is taken first and the others fit around it: rows in an order whose values are not shown
 * say little.
 */
void table_fit_sorted(const struct table_desc *d, const struct table *t, int width, const struct tui_prefs *prefs,
		      unsigned int sort, struct table_fit *out);
/* Whether some row of t knows column c (t NULL: no). */
bool table_col_known(const struct table *t, unsigned int c);

/* How one table is shown: sort order and selection (the interface keeps one per table). */
#define TABLE_LINES_MAX 256 /* body lines a table keeps the rows of, for clicks */

struct table_state {
	unsigned int sort_col;
	bool sort_set; /* sort_col chosen by the user, else the table's default */
	bool reverse;
	size_t sel, top; /* selected row and first row shown, in the sorted, filtered rows */
	int width; /* cells it was last drawn in: its shown columns (the sort menu offers those) */
	int drawn_y, drawn_x; /* where its title was last drawn (a click on its header sorts); width 0: not */
	/* what each body line last drawn shows: the index of its row in the shown order, or -1 (a container's line) */
	int line_row[TABLE_LINES_MAX];
	int nlines;
	char seen_scope[64]; /* where table_seen counts the rows it shows: "" its table's (a G view's: one GPU's) */
};

/*
 * The rows of t to show, in order: those matching filter (case-insensitive part
 * of a text cell, or a key column's number), sorted. out has room for t->nrows.
 */
size_t table_rows(const struct table *t, const struct table_state *ts, const char *filter,
		  size_t *out);
/* table_rows, where a row the filter does not match may match by also (a process by its rings). */
size_t table_rows_also(const struct table *t, const struct table_state *ts, const char *filter,
		       bool (*also)(const struct table *t, size_t row, const char *filter, void *ctx), void *ctx,
		       size_t *out);
/* Whether the filter is part of a text cell of the row (case-insensitive) or a key column's number. */
bool table_row_matches(const struct table *t, size_t row, const char *filter);

#endif
