// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "collectors/memory/memory_tables.h"

static const struct col_desc client_cols[MC_COLS] = {
	[MC_DEV] = { "dev", "DEVICE", "its GPU: PCI address (drm-pdev), else the driver", COL_STR,
		     UNIT_NONE, 13, COL_KEY | COL_ASCENDING },
	[MC_CLIENT] = { "client", "CLIENT", "drm-client-id: one open DRM file, however many fds share it",
			COL_U64, UNIT_NONE, 6, COL_KEY | COL_ASCENDING },
	[MC_DRIVER] = { "driver", "DRIVER", "drm-driver", COL_STR, UNIT_NONE, 8, COL_ASCENDING },
	[MC_PID] = { "pid", "PID", "the lowest PID holding it (the others share it: fork, dup, SCM_RIGHTS)",
		     COL_U64, UNIT_NONE, 7, COL_ASCENDING },
	[MC_COMM] = { "comm", "COMM", "that process's command name", COL_STR, UNIT_NONE, 15,
		      COL_ASCENDING },
	[MC_CGROUP] = { "cgroup", "CGROUP", "its cgroup, or runtime:id of its container", COL_STR,
			UNIT_NONE, 22, COL_ASCENDING | COL_WIDE },
	[MC_HOLDERS] = { "holders", "PROCS", "processes holding the client", COL_U64, UNIT_COUNT, 5,
			 COL_WIDE },
	[MC_TOTAL] = { "total_bytes", "TOTAL", "drm-total- of every region (buffers it has a handle to)",
		       COL_U64, UNIT_BYTES, 9, COL_HISTORY },
	[MC_RESIDENT] = { "resident_bytes", "RESIDENT",
			  "drm-resident- (or the older drm-memory-) of every region", COL_U64,
			  UNIT_BYTES, 9, 0 },
	[MC_REGIONS] = { "regions", "REGIONS", "the memory regions it reported", COL_STR, UNIT_NONE,
			 16, COL_ASCENDING | COL_WIDE },
	[MC_BUSY] = { "busy_pct", "BUSY%", "its busiest engine class's use over the interval",
		      COL_F64, UNIT_PCT, 6, COL_HISTORY | COL_SPARK },
};

const struct table_desc memory_clients = {
	.name = "memory.clients",
	.title = "DRM clients",
	.empty = "No DRM client reports its usage in fdinfo (drivers: amdgpu, i915, xe, msm, panfrost, v3d ...; 6.5+ for the rest).",
	.cols = client_cols,
	.ncols = MC_COLS,
	.sort_col = MC_TOTAL,
};
TABLE_REGISTER(memory_clients);

static const struct col_desc region_cols[MR_COLS] = {
	[MR_DEV] = { "dev", "DEVICE", "its GPU", COL_STR, UNIT_NONE, 13, COL_KEY | COL_ASCENDING },
	[MR_CLIENT] = { "client", "CLIENT", "drm-client-id", COL_U64, UNIT_NONE, 6,
			COL_KEY | COL_ASCENDING },
	[MR_REGION] = { "region", "REGION", "memory region (vram, gtt, system0, memory ...)", COL_STR,
			UNIT_NONE, 14, COL_KEY | COL_ASCENDING },
	[MR_PID] = { "pid", "PID", "the lowest PID holding the client", COL_U64, UNIT_NONE, 7,
		     COL_ASCENDING },
	[MR_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[MR_TOTAL] = { "total_bytes", "TOTAL", "buffers it has a handle to (drm-total-)", COL_U64,
		       UNIT_BYTES, 9, COL_HISTORY },
	[MR_RESIDENT] = { "resident_bytes", "RESIDENT", "of which resident (drm-resident-, drm-memory-)",
			  COL_U64, UNIT_BYTES, 9, 0 },
	[MR_SHARED] = { "shared_bytes", "SHARED", "shared with other clients (drm-shared-)", COL_U64,
			UNIT_BYTES, 9, 0 },
	[MR_PURGEABLE] = { "purgeable_bytes", "PURGE", "purgeable (drm-purgeable-)", COL_U64,
			   UNIT_BYTES, 9, COL_WIDE },
	[MR_ACTIVE] = { "active_bytes", "ACTIVE", "in use by the GPU (drm-active-)", COL_U64,
			UNIT_BYTES, 9, COL_WIDE },
	[MR_TOTAL_PER_S] = { "total_bytes_per_s", "dTOTAL/S", "change of total per second", COL_F64,
			     UNIT_BYTES_PER_S, 10, COL_DETAIL },
};

const struct table_desc memory_regions = {
	.name = "memory.regions",
	.title = "Client memory by region",
	.empty = "No client reports memory by region.",
	.cols = region_cols,
	.ncols = MR_COLS,
	.sort_col = MR_TOTAL,
};
TABLE_REGISTER(memory_regions);

static const struct col_desc device_cols[MD_COLS] = {
	[MD_DEV] = { "dev", "DEVICE", "GPU", COL_STR, UNIT_NONE, 13, COL_KEY | COL_ASCENDING },
	[MD_REGION] = { "region", "REGION", "memory region", COL_STR, UNIT_NONE, 12,
			COL_KEY | COL_ASCENDING },
	[MD_DRIVER] = { "driver", "DRIVER", "its driver", COL_STR, UNIT_NONE, 8, COL_ASCENDING | COL_WIDE },
	[MD_CLIENTS] = { "clients", "CLIENTS", "clients reporting this region", COL_U64, UNIT_COUNT, 7,
			 0 },
	[MD_TOTAL] = { "total_bytes", "TOTAL", "the clients' total, each client once", COL_U64,
		       UNIT_BYTES, 9, COL_HISTORY },
	[MD_RESIDENT] = { "resident_bytes", "RESIDENT", "the clients' resident", COL_U64, UNIT_BYTES,
			  9, 0 },
	[MD_USED] = { "used_bytes", "USED", "used, as the driver reports in sysfs (amdgpu mem_info_*_used)",
		      COL_U64, UNIT_BYTES, 9, 0 },
	[MD_SIZE] = { "size_bytes", "SIZE", "size of the region, from sysfs (amdgpu mem_info_*_total, xe tileN/physical_vram_size_bytes)", COL_U64, UNIT_BYTES, 9,
		      0 },
	[MD_USED_PCT] = { "used_pct", "USED%", "used over size", COL_F64, UNIT_PCT, 6, COL_HISTORY },
};

const struct table_desc memory_devices = {
	.name = "memory.devices",
	.title = "GPU memory",
	.empty = "No GPU memory reported (no client with memory stats, no amdgpu mem_info in sysfs).",
	.cols = device_cols,
	.ncols = MD_COLS,
	.sort_col = MD_DEV,
};
TABLE_REGISTER(memory_devices);

static const struct col_desc engine_cols[ME_COLS] = {
	[ME_DEV] = { "dev", "DEVICE", "its GPU", COL_STR, UNIT_NONE, 13, COL_KEY | COL_ASCENDING },
	[ME_CLIENT] = { "client", "CLIENT", "drm-client-id", COL_U64, UNIT_NONE, 6,
			COL_KEY | COL_ASCENDING },
	[ME_ENGINE] = { "engine", "ENGINE", "engine class (gfx, render, rcs, fragment ...)", COL_STR,
			UNIT_NONE, 14, COL_KEY | COL_ASCENDING },
	[ME_PID] = { "pid", "PID", "the lowest PID holding the client", COL_U64, UNIT_NONE, 7,
		     COL_ASCENDING },
	[ME_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[ME_BUSY] = { "busy_pct", "BUSY%",
		      "busy time (drm-engine-, ns) or cycles (drm-cycles- over drm-total-cycles-) over the interval, divided by the class's capacity",
		      COL_F64, UNIT_PCT, 6, COL_HISTORY },
	[ME_CAPACITY] = { "capacity", "CAP", "engines of the class (drm-engine-capacity-)", COL_U64,
			  UNIT_COUNT, 4, COL_DETAIL },
};

const struct table_desc memory_engines = {
	.name = "memory.engines",
	.title = "Client engine use",
	.empty = "No client reports engine time.",
	.cols = engine_cols,
	.ncols = ME_COLS,
	.sort_col = ME_BUSY,
};
TABLE_REGISTER(memory_engines);

/* One busy column per engine class, the same in both tables below. */
#define BUSY_COLS(base)                                                                            \
	[base + EC_RENDER] = { "render_pct", "3D%",                                                \
			       "busy on 3D / render engines (gfx, render, rcs, fragment ...)",       \
			       COL_F64, UNIT_PCT, 5, COL_HISTORY },                                   \
	[base + EC_COMPUTE] = { "compute_pct", "COMP%", "busy on compute engines (compute, ccs)",  \
				COL_F64, UNIT_PCT, 5, COL_HISTORY },                                \
	[base + EC_COPY] = { "copy_pct", "COPY%", "busy on copy engines (dma, copy, bcs)",         \
			     COL_F64, UNIT_PCT, 5, COL_HISTORY },                                   \
	[base + EC_VIDEO] = { "video_pct", "VIDEO%",                                               \
			      "busy on video engines (dec, enc, jpeg, video, vcs, vecs)", COL_F64,  \
			      UNIT_PCT, 6, COL_HISTORY },                                           \
	[base + EC_OTHER] = { "other_pct", "OTHER%", "busy on engines of other names", COL_F64,    \
			      UNIT_PCT, 6, COL_WIDE }

static const struct col_desc process_cols[MP_COLS] = {
	[MP_PID] = { "pid", "PID", "process; a client shared by several counts for the lowest PID",
		     COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[MP_COMM] = { "comm", "COMM", "command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[MP_CGROUP] = { "cgroup", "CGROUP", "its cgroup, or runtime:id of its container", COL_STR,
			UNIT_NONE, 22, COL_ASCENDING | COL_WIDE },
	[MP_CLIENTS] = { "clients", "CLI", "DRM clients it holds (counted for it)", COL_U64,
			 UNIT_COUNT, 3, 0 },
	[MP_TOTAL] = { "total_bytes", "TOTAL", "drm-total- of its clients, every region", COL_U64,
		       UNIT_BYTES, 9, COL_HISTORY },
	[MP_RESIDENT] = { "resident_bytes", "RESIDENT", "resident (drm-resident-, drm-memory-)",
			  COL_U64, UNIT_BYTES, 9, 0 },
	[MP_SHARED] = { "shared_bytes", "SHARED", "shared with other clients (drm-shared-)", COL_U64,
			UNIT_BYTES, 9, COL_WIDE },
	[MP_TOTAL_PER_S] = { "total_bytes_per_s", "dTOTAL/S",
			     "change of its total per second since the last interval", COL_F64,
			     UNIT_BYTES_PER_S, 10, 0 },
	BUSY_COLS(MP_BUSY),
};

const struct table_desc memory_processes = {
	.name = "memory.processes",
	.title = "GPU memory and engines by process",
	.empty = "No process holds a DRM client that reports its usage in fdinfo.",
	.cols = process_cols,
	.ncols = MP_COLS,
	.sort_col = MP_TOTAL,
};
TABLE_REGISTER(memory_processes);

static const struct col_desc container_cols[MK_COLS] = {
	[MK_CGROUP] = { "cgroup", "CGROUP / CONTAINER",
			"cgroup path, or runtime:id (docker, containerd, podman, cri-o)", COL_STR,
			UNIT_NONE, 28, COL_KEY | COL_ASCENDING },
	[MK_PROCS] = { "processes", "PROCS", "its processes in memory.processes", COL_U64,
		       UNIT_COUNT, 5, 0 },
	[MK_CLIENTS] = { "clients", "CLI", "DRM clients counted for them", COL_U64, UNIT_COUNT, 3,
			 0 },
	[MK_TOTAL] = { "total_bytes", "TOTAL", "their drm-total-", COL_U64, UNIT_BYTES, 9,
		       COL_HISTORY },
	[MK_RESIDENT] = { "resident_bytes", "RESIDENT", "their resident memory", COL_U64, UNIT_BYTES,
			  9, 0 },
	[MK_SHARED] = { "shared_bytes", "SHARED", "their shared memory", COL_U64, UNIT_BYTES, 9,
			COL_WIDE },
	BUSY_COLS(MK_BUSY),
};

const struct table_desc memory_containers = {
	.name = "memory.containers",
	.title = "GPU memory and engines by cgroup / container",
	.empty = "No process holds a DRM client that reports its usage in fdinfo.",
	.cols = container_cols,
	.ncols = MK_COLS,
	.sort_col = MK_TOTAL,
};
TABLE_REGISTER(memory_containers);

static const char *const class_names[EC_COUNT] = { "3d", "compute", "copy", "video", "other" };

const char *engine_class_name(enum engine_class c)
{
	return c < EC_COUNT ? class_names[c] : "other";
}

static const struct col_desc device_engine_cols[MDE_COLS] = {
	[MDE_DEV] = { "dev", "DEVICE", "GPU", COL_STR, UNIT_NONE, 13, COL_KEY | COL_ASCENDING },
	[MDE_CLASS] = { "class", "CLASS", "engine class: 3d, compute, copy, video, other", COL_STR,
			UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[MDE_CLIENTS] = { "clients", "CLI", "clients that reported time on it", COL_U64, UNIT_COUNT,
			  3, 0 },
	[MDE_BUSY] = { "busy_pct", "BUSY%", "the clients' busy time over the interval, summed (at most 100)",
		       COL_F64, UNIT_PCT, 6, COL_HISTORY },
};

const struct table_desc memory_device_engines = {
	.name = "memory.device_engines",
	.title = "Engine use per device",
	.empty = "No client reports engine time.",
	.cols = device_engine_cols,
	.ncols = MDE_COLS,
	.sort_col = MDE_DEV,
};
TABLE_REGISTER(memory_device_engines);

double memory_engine_busy(const struct fdinfo_engine *now, const struct engine_reading *before,
			  double interval_s)
{
	double busy = -1;

	if (!before->known)
		return -1;
	if (now->has_ns && now->ns >= before->ns)
		busy = (double)(now->ns - before->ns) / (interval_s * 1e9) * 100.0;
	else if (now->has_cycles && now->has_total_cycles && now->total_cycles > before->total_cycles &&
		 now->cycles >= before->cycles)
		busy = (double)(now->cycles - before->cycles) /
		       (double)(now->total_cycles - before->total_cycles) * 100.0;
	if (busy >= 0)
		busy /= now->capacity ? now->capacity : 1;
	return busy;
}
