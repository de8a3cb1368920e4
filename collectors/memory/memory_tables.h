/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The memory collector's tables: columns described once (model/table.h). */
#ifndef GPUTOP_MEMORY_TABLES_H
#define GPUTOP_MEMORY_TABLES_H

#include <stdbool.h>
#include <stdint.h>
#include "collectors/memory/fdinfo.h"
#include "model/table.h"

enum mem_client_col {
	MC_DEV, MC_CLIENT, MC_DRIVER, MC_PID, MC_COMM, MC_CGROUP, MC_HOLDERS, MC_TOTAL, MC_RESIDENT,
	MC_REGIONS, MC_BUSY, MC_COLS,
};

enum mem_region_col {
	MR_DEV, MR_CLIENT, MR_REGION, MR_PID, MR_COMM, MR_TOTAL, MR_RESIDENT, MR_SHARED, MR_PURGEABLE,
	MR_ACTIVE, MR_TOTAL_PER_S, MR_COLS,
};

enum mem_device_col {
	MD_DEV, MD_REGION, MD_DRIVER, MD_CLIENTS, MD_TOTAL, MD_RESIDENT, MD_USED, MD_SIZE, MD_USED_PCT,
	MD_COLS,
};

enum mem_engine_col {
	ME_DEV, ME_CLIENT, ME_ENGINE, ME_PID, ME_COMM, ME_BUSY, ME_CAPACITY, ME_COLS,
};

/* Engine classes the drivers' names fall in (memory.c: engine_class). */
enum engine_class { EC_RENDER, EC_COMPUTE, EC_COPY, EC_VIDEO, EC_OTHER, EC_COUNT };

enum mem_process_col {
	MP_PID, MP_COMM, MP_CGROUP, MP_CLIENTS, MP_TOTAL, MP_RESIDENT, MP_SHARED, MP_TOTAL_PER_S,
	MP_BUSY, MP_COLS = MP_BUSY + EC_COUNT,
};

enum mem_container_col {
	MK_CGROUP, MK_PROCS, MK_CLIENTS, MK_TOTAL, MK_RESIDENT, MK_SHARED, MK_BUSY,
	MK_COLS = MK_BUSY + EC_COUNT,
};

enum mem_device_engine_col { MDE_DEV, MDE_CLASS, MDE_CLIENTS, MDE_BUSY, MDE_COLS };

extern const struct table_desc memory_clients;
/* "3d", "compute", "copy", "video", "other" */
const char *engine_class_name(enum engine_class c);
extern const struct table_desc memory_device_engines;
extern const struct table_desc memory_processes;
extern const struct table_desc memory_containers;
extern const struct table_desc memory_regions;
extern const struct table_desc memory_devices;
extern const struct table_desc memory_engines;

/* An engine's busy counters as fdinfo printed them at the last read. */
struct engine_reading {
	uint64_t ns, cycles, total_cycles;
	bool known;
};

/*
 * An engine's busy %, over its capacity, from its fdinfo counters now and at
 * the last read: from ns (drm-engine-) or else cycles (drm-cycles- over
 * drm-total-cycles-); -1 when unknown: no last read, or a counter that went
 * backwards (a client id reused by another file). Every busy % of the memory
 * tables (engines, clients, processes, containers, device_engines) is made of these.
 */
double memory_engine_busy(const struct fdinfo_engine *now, const struct engine_reading *before,
			  double interval_s);

#endif
