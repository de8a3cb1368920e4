// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The main screen's MEMORY side pane: per device and region, the DRM clients' resident memory and sysfs use. */
#include "panes.h"

static const struct pane_decl memory_pane = {
	.collector = "memory",
	.screen = -1,
	.side = SIDE_MEMORY,
	.summary_table = "memory.devices",
	.summary_cols = { "dev", "region", "resident_bytes", "used_pct" },
};
PANE_REGISTER(memory_pane);
