/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Snapshots back from the JSON lines of -J / --record, for --replay. */
#ifndef GPUTOP_OUTPUT_JSON_READ_H
#define GPUTOP_OUTPUT_JSON_READ_H

#include <stddef.h>
#include "model/snapshot.h"

/*
 * Parses one line. Returns a new snapshot (histories empty), or NULL with a short
 * reason in err: not JSON, not a snapshot object, a field of the wrong type.
 */
struct snapshot *snapshot_from_json(const char *line, char *err, size_t errlen);

/*
 * What a reader learned from one recording's lines: each table's rows, so
 * that the next line's tables take their room at once rather than double
 * their way up (copying tens of MB on a large line). Zeroed to start; one
 * per reader thread.
 */
struct json_read_hints {
	struct {
		const struct table_desc *desc;
		size_t rows;
	} tables[64];
	size_t n;
};

/* snapshot_from_json, sizing tables from hints and updating them (hints may be NULL). */
struct snapshot *snapshot_from_json_hinted(const char *line, struct json_read_hints *hints, char *err,
					   size_t errlen);

#endif
