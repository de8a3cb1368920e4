/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Where each pane of the main screen goes, for a terminal size: pure arithmetic. */
#ifndef GPUTOP_LAYOUT_H
#define GPUTOP_LAYOUT_H

#include <stdbool.h>
#include "tui/config.h"

#define LAYOUT_MIN_COLS 50
#define LAYOUT_MIN_ROWS 12
#define LAYOUT_WIDE_COLS 120 /* side panes go to the right from here on */

struct rect {
	int y, x, h, w; /* h == 0: not shown */
};

struct layout_input {
	int rows, cols;
	int ndevices, nrings, nprocs;
	int device_rows; /* rows of the expanded GPU blocks (ndevices or more), taken while there is room */
	bool panes[PANE_COUNT];
	bool absent_line; /* one line naming the panes whose source the machine lacks (overview_fit) */
	int history_rows; /* rows the GPU history wants (0: none); it gets what the tables leave */
	int history_least; /* of those, the rows it must have to be worth a place (0: history_rows) */
	/*
	 * Rows a side pane (memory, interrupts, display) uses, its frame included: side_need[i] where it has
	 * them (0: all it gets); given fewer, all it gets where that is side_least[i] + 3 or more (room for
	 * its second part's blank line, titles and a row), else side_least[i] (0: all it gets).
	 */
	int side_need[3], side_least[3];
};

struct layout {
	bool too_small; /* below LAYOUT_MIN_*: nothing but a message */
	struct rect header, devices, absent, rings, procs, history, status, keybar;
	struct rect side[3]; /* memory, interrupts, display */
};

void layout_compute(const struct layout_input *in, struct layout *out);

/*
 * Rows for n stacked tables that need need[i] rows in avail: each its least
 * (need, up to min) while they last, none for one that cannot have it; then what
 * is left to table focus and those after it, then those before it, up to what
 * each needs: no row left blank while a table shown wants more. The out[i] sum
 * to at most avail.
 */
void layout_share(const int *need, int n, int focus, int avail, int min, int *out);
/* How many of the n tables layout_share gave no rows (out[i] <= 0). */
int layout_left_out(const int *out, int n);

#endif
