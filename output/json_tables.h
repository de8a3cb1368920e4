/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The collectors' tables in JSON, both ways, driven only by their column
 * descriptors: {"display.crtcs": [{"crtc": 0, "refresh_hz": 60.0, ...}], ...}.
 * An unknown cell is null. A recording's tables replay with no reader code of
 * their own: the reader finds each table's descriptor by name.
 */
#ifndef GPUTOP_OUTPUT_JSON_TABLES_H
#define GPUTOP_OUTPUT_JSON_TABLES_H

#include <json-c/json.h>
#include "../model/snapshot.h"

/*
 * The recording format: 1 was written by 0.1.0 (no "format" key, no tables);
 * 2 adds "format" and "tables" (display, interrupts); 3 moves the scheduler's
 * "rings" and "processes" into tables. A reader reads every format up to its own.
 */
#define RECORDING_FORMAT 3

json_object *tables_to_json(const struct snapshot *s);
/*
 * Reads the "tables" object into s->tables. Tables this build does not know
 * are skipped; a cell of the wrong type, or a number out of its range (a
 * negative or too large count, Infinity), is unknown. Rows, strings and
 * histograms take from s->read_budget. -1: out of memory; -2: the budget ran out.
 */
int tables_from_json(json_object *tables, struct snapshot *s);
/* Reads rows (an array of objects) as the table called name, if this build knows it; as above. */
int table_from_json_rows(const char *name, json_object *rows, struct snapshot *s);

#endif
