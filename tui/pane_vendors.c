// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The AMD and Intel panes (their drivers' tracepoints) and the Calls pane (GPU
 * ioctls and fence waits, vendor-neutral).
 */
#include "tui/panes.h"

static const struct pane_decl amd_pane = {
	.collector = "amdgpu",
	.screen = 10,
	.title = "AMD",
	.what = "command submissions and their latency per ring, buffer creation and migrations, interrupt vectors, VM flushes and mappings (amdgpu tracepoints); compute processes (KFD sysfs)",
	.tables = { "amdgpu.rings", "amdgpu.migrations", "amdgpu.processes", "amdgpu.submitters",
		    "amdgpu.interrupts", "kfd.processes" },
	.side = SIDE_NONE,
};
PANE_REGISTER(amd_pane);

static const struct pane_decl intel_pane = {
	.collector = "intel",
	.screen = 20,
	.title = "Intel",
	.what = "i915 requests, waits and time on the hardware per engine; GEM objects, binds, faults, shrinker pressure; xe jobs per exec queue, buffer moves (i915 and xe tracepoints)",
	.tables = { "intel.engines", "intel.processes", "intel.devices", "xe.queues", "xe.moves" },
	.side = SIDE_NONE,
};
PANE_REGISTER(intel_pane);

static const struct pane_decl calls_pane = {
	.collector = "calls",
	.screen = 60,
	.title = "Calls",
	.what = "per process the ioctls on DRM and NVIDIA devices by command (rate, errors, latency) and the time blocked in GPU fence waits",
	.tables = { "calls.fence_waits", "calls.ioctls" },
	.side = SIDE_NONE,
};
PANE_REGISTER(calls_pane);
