// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "collectors/calls/calls_tables.h"
#include "collectors/kit/cells.h"

static const struct col_desc ioctl_cols[IOC_COLS] = {
	[IOC_PID] = { "pid", "PID", "process that made the calls", COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[IOC_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[IOC_DEVICE] = { "device", "DEVICE", "the device file (card0, renderD128, nvidia0, nvidia-uvm ...)", COL_STR,
			 UNIT_NONE, 10, COL_KEY | COL_ASCENDING },
	[IOC_DRIVER] = { "driver", "DRIVER", "its driver", COL_STR, UNIT_NONE, 8, COL_ASCENDING | COL_WIDE },
	[IOC_CMD] = { "cmd", "CMD", "the ioctl command number (hex on screen, a number in JSON)", COL_U64, UNIT_NONE,
		      10, COL_KEY | COL_DETAIL | COL_HEX },
	[IOC_NAME] = { "command", "COMMAND",
		       "the command's name: DRM's, a known driver's, NVIDIA's (nvidia RM_CONTROL, uvm REGISTER_GPU); "
		       "others by number (mockdrm+0x04, nvidia 0xd7)",
		       COL_STR, UNIT_NONE, 22, COL_ASCENDING },
	[IOC_PER_S] = { "calls_per_s", "CALLS/S", "calls completed per second", COL_F64, UNIT_PER_S, 8, COL_HISTORY },
	[IOC_TOTAL] = { "calls_total", "CALLS", "calls completed since the start", COL_U64, UNIT_COUNT, 9, 0 },
	[IOC_ERRORS] = { "errors_total", "ERRORS", "calls that returned an error", COL_U64, UNIT_COUNT, 6, COL_WIDE },
	[IOC_TIME_PCT] = { "time_pct", "TIME%", "share of the interval its threads spent inside these calls (summed)",
			   COL_F64, UNIT_PCT, 6, 0 },
	[IOC_P50] = { "p50_ns", "p50", "time per call, median over the interval", COL_F64, UNIT_NS, 8, 0 },
	[IOC_P99] = { "p99_ns", "p99", "time per call, 99th percentile over the interval", COL_F64, UNIT_NS, 8,
		      COL_WIDE },
	[IOC_MAX] = { "max_ns", "MAX", "longest call since the start", COL_U64, UNIT_NS, 8, COL_DETAIL },
	[IOC_NS] = { "ns_total", "TIME", "time inside these calls since the start", COL_U64, UNIT_NS, 8, COL_DETAIL },
};

const struct table_desc calls_ioctls = {
	.name = "calls.ioctls",
	.title = "GPU ioctls",
	.empty = "No ioctl on a DRM (/dev/dri) or NVIDIA device since the start.",
	.cols = ioctl_cols,
	.ncols = IOC_COLS,
	.sort_col = IOC_PER_S,
};
TABLE_REGISTER(calls_ioctls);

static const struct col_desc wait_cols[FW_COLS] = {
	[FW_PID] = { "pid", "PID", "process (or kernel thread) that waited",
		     COL_U64, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[FW_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 15, COL_ASCENDING },
	[FW_DRIVER] = { "driver", "DRIVER", "the fence's driver, as the fence names it",
			COL_STR, UNIT_NONE, 16, COL_KEY | COL_ASCENDING },
	[FW_PER_S] = { "waits_per_s", "WAITS/S", "fence waits completed per second", COL_F64,
		       UNIT_PER_S, 8, COL_HISTORY },
	[FW_TOTAL] = { "waits_total", "WAITS", "fence waits completed since the start", COL_U64,
		       UNIT_COUNT, 8, 0 },
	[FW_PCT] = { "blocked_pct", "BLOCKED%",
		     "share of the interval its threads spent blocked on fences (summed over threads)",
		     COL_F64, UNIT_PCT, 8, COL_HISTORY | COL_SPARK },
	[FW_P50] = { "p50_ns", "p50", "time blocked per wait, median over the interval", COL_F64,
		     UNIT_NS, 8, 0 },
	[FW_P99] = { "p99_ns", "p99", "time blocked per wait, 99th percentile over the interval",
		     COL_F64, UNIT_NS, 8, 0 },
	[FW_MAX] = { "max_ns", "MAX", "longest wait since the start", COL_U64, UNIT_NS, 8,
		     COL_WIDE },
	[FW_NS] = { "ns_total", "TIME", "time blocked since the start", COL_U64, UNIT_NS, 8,
		    COL_DETAIL },
};

const struct table_desc calls_fence_waits = {
	.name = "calls.fence_waits",
	.title = "Fence waits",
	.empty = "No process has waited on a GPU fence (dma_fence_wait) since the start.",
	.cols = wait_cols,
	.ncols = FW_COLS,
	.sort_col = FW_PCT,
};
TABLE_REGISTER(calls_fence_waits);

/* The cells every per-process call row has: rate, totals, time share, quantiles. */
static void stats_cells(struct cell *row, const struct call_stats *now,
			const struct call_stats *before, double iv, const unsigned int cols[7])
{
	cell_set_rate(row, cols[0], now->count, before->count, iv);
	cell_set_u64(row, cols[1], now->count);
	cell_set_pct(row, cols[2], now->ns, before->ns, iv);
	cells_set_quantiles(row, cols[3], cols[4], now->hist, before->hist, now->ns, before->ns,
			    (double)now->max_ns, NULL);
	cell_set_u64(row, cols[5], now->max_ns);
	cell_set_u64(row, cols[6], now->ns);
}

void calls_ioctl_row(struct cell *row, const struct ioctl_key *k, const char *comm,
		     const struct calls_ioctl_names *names, const struct call_stats *now,
		     const struct call_stats *before, double interval_s)
{
	static const unsigned int cols[7] = { IOC_PER_S, IOC_TOTAL, IOC_TIME_PCT, IOC_P50,
					      IOC_P99,	 IOC_MAX,   IOC_NS };

	cell_set_u64(row, IOC_PID, k->tgid);
	cell_set_str(row, IOC_COMM, comm);
	cell_set_str(row, IOC_DEVICE, names->device);
	cell_set_str(row, IOC_DRIVER, names->driver);
	cell_set_u64(row, IOC_CMD, k->cmd);
	cell_set_str(row, IOC_NAME, names->command);
	cell_set_u64(row, IOC_ERRORS, now->errors);
	stats_cells(row, now, before, interval_s, cols);
}

void calls_wait_row(struct cell *row, const struct wait_key *k, const char *comm,
		    const struct call_stats *now, const struct call_stats *before, double interval_s)
{
	static const unsigned int cols[7] = { FW_PER_S, FW_TOTAL, FW_PCT, FW_P50,
					      FW_P99,	FW_MAX,	  FW_NS };
	char driver[CALLS_NAME + 1];

	memcpy(driver, k->driver, CALLS_NAME);
	driver[CALLS_NAME] = '\0';
	cell_set_u64(row, FW_PID, k->tgid);
	cell_set_str(row, FW_COMM, comm);
	cell_set_str(row, FW_DRIVER, driver[0] ? driver : "?");
	stats_cells(row, now, before, interval_s, cols);
}
