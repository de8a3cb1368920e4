/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A snapshot as one line of JSON (schema: README.md, "JSON output"). */
#ifndef GPUTOP_OUTPUT_JSON_H
#define GPUTOP_OUTPUT_JSON_H

#include "model/snapshot.h"
#include "model/table_seen.h"

/* A malloc'd, NUL-terminated line without the newline; NULL on allocation failure. */
char *snapshot_to_json(const struct snapshot *s);
/* The same with "empty": what each table without a row says in its place (-J; a recording has none). */
char *snapshot_to_json_noted(const struct snapshot *s, const struct empty_context *empty);
/*
 * --list -J: one object, {"version", "collectors": [...]}, each collector as a snapshot's
 * "collectors" has it (name, state, description, reason, fix, detail, tracepoints). NULL out of memory.
 */
char *collectors_list_json(const struct collector_status *cs, size_t n);
/* {"error": "..."} for failures under -J. */
char *json_error(const char *message);

#endif
