/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Where each pane of the main screen goes, for a terminal size: pure arithmetic. */
#ifndef GPUTOP_LAYOUT_H
#define GPUTOP_LAYOUT_H

#include <stdbool.h>
#include "config.h"

#define LAYOUT_MIN_COLS 50
#define LAYOUT_MIN_ROWS 12
#define LAYOUT_WIDE_COLS 120 /* side panes go to the right from here on */

struct rect {
	int y, x, h, w; /* h == 0: not shown */
};

struct layout_input {
	int rows, cols;
	int ndevices, nrings, nprocs;
	bool panes[PANE_COUNT];
};

struct layout {
	bool too_small; /* below LAYOUT_MIN_*: nothing but a message */
	struct rect header, devices, rings, procs, status, keybar;
	struct rect side[3]; /* memory, interrupts, display */
};

void layout_compute(const struct layout_input *in, struct layout *out);

#endif
