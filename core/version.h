/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef GPUTOP_VERSION_H
#define GPUTOP_VERSION_H
#define GPUTOP_VERSION "0.2.0"

/*
 * The recording format: 1 was written by 0.1.0 (no "format" key, no tables);
 * 2 adds "format" and "tables" (display, interrupts); 3 moves the scheduler's
 * "rings" and "processes" into tables. A reader reads every format up to its own.
 */
#define RECORDING_FORMAT 3
#endif
