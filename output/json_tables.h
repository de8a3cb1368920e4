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

struct jsonw;

/* The "tables" object, as the writer's next value. */
void tables_write_json(struct jsonw *w, const struct snapshot *s);

#endif
