/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The calls collector's tables: ioctls on GPU devices and fence waits, per process. */
#ifndef GPUTOP_CALLS_TABLES_H
#define GPUTOP_CALLS_TABLES_H

#include "bpf/calls.h"
#include "model/table.h"

enum ioctl_col {
	IOC_PID,
	IOC_COMM,
	IOC_CMD,
	IOC_NAME, /* before DEVICE: where one gives way, the call's name stays */
	IOC_DEVICE,
	IOC_DRIVER,
	IOC_PER_S,
	IOC_TOTAL,
	IOC_ERRORS,
	IOC_TIME_PCT,
	IOC_P50,
	IOC_P99,
	IOC_MAX,
	IOC_NS,
	IOC_COLS
};

enum wait_col {
	FW_PID,
	FW_COMM,
	FW_DRIVER,
	FW_PER_S,
	FW_TOTAL,
	FW_PCT,
	FW_P50,
	FW_P99,
	FW_MAX,
	FW_NS,
	FW_COLS
};

extern const struct table_desc calls_ioctls, calls_fence_waits;

/* A GPU device file an ioctl was made on: its node name, driver and command's name. */
struct calls_ioctl_names {
	const char *device, *driver, *command;
};

/* A calls.ioctls row: one process's ioctls of one command on one device file. */
void calls_ioctl_row(struct cell *row, const struct ioctl_key *k, const char *comm,
		     const struct calls_ioctl_names *names, const struct call_stats *now,
		     const struct call_stats *before, double interval_s);
/* A calls.fence_waits row: one process's waits on one fence driver's fences. */
void calls_wait_row(struct cell *row, const struct wait_key *k, const char *comm,
		    const struct call_stats *now, const struct call_stats *before, double interval_s);

#endif
