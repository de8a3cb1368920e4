// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collectors/sensors/sensors_tables.h"

static const struct col_desc gpu_cols[SG_COLS] = {
	[SG_DEV] = { "dev", "DEV", "the DRM card", COL_STR, UNIT_NONE, 6, COL_KEY | COL_ASCENDING },
	[SG_DRIVER] = { "driver", "DRIVER", "its kernel driver", COL_STR, UNIT_NONE, 7, COL_ASCENDING },
	[SG_BUS] = { "bus_id", "BUS", "its PCI address or platform device", COL_STR, UNIT_NONE, 13,
		     COL_ASCENDING | COL_WIDE },
	[SG_BUSY] = { "busy_pct", "BUSY%", "share of time the GPU was busy, as amdgpu samples it (gpu_busy_percent)",
		      COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[SG_MEM_BUSY] = { "mem_busy_pct", "MBUSY%",
			  "share of time its memory controller was busy (amdgpu mem_busy_percent)",
			  COL_F64, UNIT_PCT, 7, COL_WIDE },
	[SG_IDLE] = { "idle_pct", "IDLE%",
		      "share of the interval its GTs slept (i915 rc6_residency_ms, xe idle_residency_ms; mean of the GTs)",
		      COL_F64, UNIT_PCT, 6, COL_WIDE },
	[SG_TEMP] = { "temp_c", "TEMP C", "temperature: the hwmon sensor labelled edge, gpu or pkg, else the first",
		      COL_F64, UNIT_CELSIUS, 6, COL_HISTORY },
	[SG_TEMP_HOT] = { "temp_hotspot_c", "HOT C", "hottest point (hwmon label junction or hotspot)",
			  COL_F64, UNIT_CELSIUS, 5, COL_WIDE },
	[SG_TEMP_MEM] = { "temp_mem_c", "MEM C", "memory temperature (hwmon label mem or vram)", COL_F64,
			  UNIT_CELSIUS, 5, COL_WIDE },
	[SG_POWER] = { "power_w", "POWER W",
		       "power: hwmon power1_average or power1_input, else energy1_input over the interval",
		       COL_F64, UNIT_WATTS, 7, COL_HISTORY },
	[SG_POWER_CAP] = { "power_cap_w", "CAP W", "power limit (hwmon power1_cap, else power1_max)",
			   COL_F64, UNIT_WATTS, 6, COL_WITH_PREV },
	[SG_GFX_MHZ] = { "gfx_mhz", "GFX MHz",
			 "graphics clock (hwmon sclk; i915 gt_act_freq_mhz; xe tile0/gt0 act_freq)",
			 COL_F64, UNIT_MHZ, 7, 0 },
	[SG_MEM_MHZ] = { "mem_mhz", "MEM MHz", "memory clock (hwmon mclk)", COL_F64, UNIT_MHZ, 7,
			 COL_WIDE },
	[SG_FAN] = { "fan_rpm", "FAN RPM", "fan speed (hwmon fan1_input)", COL_F64, UNIT_RPM, 7,
		     COL_WIDE },
	[SG_METRICS] = { "gpu_metrics", "METRICS",
			 "amdgpu gpu_metrics revision read (v1.3 ...), or unknown vX.Y: it fills what hwmon and sysfs lack",
			 COL_STR, UNIT_NONE, 12, COL_DETAIL },
};

const struct table_desc sensors_gpus = {
	.name = "sensors.gpus",
	.title = "GPU sensors",
	.empty = "No DRM card in sysfs (class/drm/card*).",
	.cols = gpu_cols,
	.ncols = SG_COLS,
	.sort_col = SG_DEV,
};
TABLE_REGISTER(sensors_gpus);

static const struct col_desc engine_cols[SE_COLS] = {
	[SE_DEV] = { "dev", "DEV", "the DRM card", COL_STR, UNIT_NONE, 6, COL_KEY | COL_ASCENDING },
	[SE_ENGINE] = { "engine", "ENGINE", "the engine (rcs0, bcs0, vcs0, vecs0, ccs0 ...)", COL_STR,
			UNIT_NONE, 9, COL_KEY | COL_ASCENDING },
	[SE_CLASS] = { "class", "CLASS", "its class: 3d, compute, copy, video, other", COL_STR, UNIT_NONE,
		       7, COL_ASCENDING },
	[SE_BUSY] = { "busy_pct", "BUSY%",
		      "share of the interval it was busy, every client's work (i915 <engine>-busy; xe engine-active-ticks over engine-total-ticks)",
		      COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
	[SE_WAIT] = { "wait_pct", "WAIT%", "share of the interval it waited on an event (i915 <engine>-wait)",
		      COL_F64, UNIT_PCT, 6, COL_IF_KNOWN },
	[SE_SEMA] = { "sema_pct", "SEMA%", "share of the interval it waited on a semaphore (i915 <engine>-sema)",
		      COL_F64, UNIT_PCT, 6, COL_IF_KNOWN },
	[SE_PMU] = { "pmu", "PMU", "the perf PMU counted (i915, i915_0000_03_00.0, xe_0000_03_00.0)", COL_STR,
		     UNIT_NONE, 18, COL_DETAIL },
};

const struct table_desc sensors_engines = {
	.name = "sensors.engines",
	.title = "GPU engines (perf PMU)",
	.empty = "No Intel GPU engine counters: no i915 or xe perf PMU, or perf_event_open refused (gputop-bpf --list says which).",
	.cols = engine_cols,
	.ncols = SE_COLS,
	.sort_col = SE_DEV,
};
TABLE_REGISTER(sensors_engines);
