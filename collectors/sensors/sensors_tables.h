/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The sensors collector's tables: columns described once (model/table.h). */
#ifndef GPUTOP_SENSORS_TABLES_H
#define GPUTOP_SENSORS_TABLES_H

#include "model/table.h"

enum sensor_gpu_col {
	SG_DEV, SG_DRIVER, SG_BUS, SG_BUSY, SG_MEM_BUSY, SG_IDLE, SG_TEMP, SG_TEMP_HOT, SG_TEMP_MEM,
	SG_POWER, SG_POWER_CAP, SG_GFX_MHZ, SG_MEM_MHZ, SG_FAN, SG_METRICS, SG_COLS,
};

/* sensors.engines: one row per device and engine, from the Intel GPUs' perf PMUs (pmu_engines.h). */
enum sensor_engine_col { SE_DEV, SE_ENGINE, SE_CLASS, SE_BUSY, SE_WAIT, SE_SEMA, SE_PMU, SE_COLS };

extern const struct table_desc sensors_gpus;
extern const struct table_desc sensors_engines;

#endif
