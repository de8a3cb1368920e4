/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The collectors' tables in JSON, driven only by their column descriptors:
 * {"display.crtcs": [{"crtc": 0, "refresh_hz": 60.0, ...}], ...}; an unknown
 * cell is null, a key "a.b" is {"a": {"b": ...}}. A recording's tables replay
 * with no reader code of their own: json_read.c finds each table's descriptor
 * by name; a cell of the wrong type, or a number out of its range (a negative
 * or too large count, Infinity), is unknown there.
 */
#ifndef GPUTOP_OUTPUT_JSON_TABLES_H
#define GPUTOP_OUTPUT_JSON_TABLES_H

#include "model/snapshot.h"

/*
 * The recording format: 1 was written by 0.1.0 (no "format" key, no tables);
 * 2 adds "format" and "tables" (display, interrupts); 3 moves the scheduler's
 * "rings" and "processes" into tables. A reader reads every format up to its own.
 */
#define RECORDING_FORMAT 3

/* The "tables" object as JSON text (malloc'd), in json-c's plain style; NULL when out of memory. */
char *tables_to_json(const struct snapshot *s);
/* A finite double as json-c writes it with "%.15g" ("2.0", "0.125", "1e+20"); buf holds 48 bytes. */
size_t json_format_double(char *buf, double v);

#endif
