// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The main screen's INTERRUPTS side pane: the GPU drivers' interrupt lines and their rate. */
#include "tui/panes.h"

static const struct pane_decl interrupts_pane = {
	.collector = "irq",
	.screen = -1,
	.side = SIDE_INTERRUPTS,
	.summary_table = "irq.lines",
	.summary_cols = { "irq", "per_s", "name" }, /* the rate before the name: it stays where narrow */
	.summary_quiet_col = "total",
	.summary_quiet_text = "never fired",
};
PANE_REGISTER(interrupts_pane);
