// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The AMD and Intel panes (their drivers' tracepoints) and the Calls pane (GPU
 * ioctls and fence waits, vendor-neutral).
 */
#include "panes.h"
#include "view.h"

static const struct pane_decl amd_pane = {
	.collector = "amdgpu",
	.screen = SCREEN_AMD,
	.tables = { "amdgpu.rings", "amdgpu.migrations", "amdgpu.processes", "amdgpu.submitters",
		    "amdgpu.interrupts" },
	.side = SIDE_NONE,
};
PANE_REGISTER(amd_pane);

static const struct pane_decl intel_pane = {
	.collector = "intel",
	.screen = SCREEN_INTEL,
	.tables = { "intel.engines", "intel.processes", "intel.devices", "xe.queues", "xe.moves" },
	.side = SIDE_NONE,
};
PANE_REGISTER(intel_pane);

static const struct pane_decl calls_pane = {
	.collector = "calls",
	.screen = SCREEN_CALLS,
	.tables = { "calls.fence_waits", "calls.ioctls" },
	.side = SIDE_NONE,
};
PANE_REGISTER(calls_pane);
