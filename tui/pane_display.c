// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The Display pane: CRTCs above their clients; the main screen's DISPLAY side pane lists CRTCs. */
#include "tui/panes.h"

static const struct pane_decl display_pane = {
	.collector = "display",
	.screen = 40,
	.title = "Display",
	.what = "per-CRTC refresh rate, vblank-interval jitter and gaps; per client events, delivery latency and missed frames",
	.tables = { "display.crtcs", "display.clients" },
	.side = SIDE_DISPLAY,
	.summary_table = "display.crtcs",
	.summary_cols = { "crtc", "refresh_hz", "jitter_ns" },
};
PANE_REGISTER(display_pane);
