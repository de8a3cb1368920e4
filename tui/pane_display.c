// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The Display pane: CRTCs above their clients; the main screen's DISPLAY side pane lists CRTCs. */
#include "panes.h"
#include "view.h"

static const struct pane_decl display_pane = {
	.collector = "display",
	.screen = SCREEN_DISPLAY,
	.tables = { "display.crtcs", "display.clients" },
	.side = SIDE_DISPLAY,
	.summary_table = "display.crtcs",
	.summary_cols = { "crtc", "refresh_hz", "jitter_ns" },
};
PANE_REGISTER(display_pane);
