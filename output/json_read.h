/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Snapshots back from the JSON lines of -J / --record, for --replay. */
#ifndef GPUTOP_OUTPUT_JSON_READ_H
#define GPUTOP_OUTPUT_JSON_READ_H

#include <stddef.h>
#include "../model/snapshot.h"

/*
 * Parses one line. Returns a new snapshot (histories empty), or NULL with a short
 * reason in err: not JSON, not a snapshot object, a field of the wrong type.
 */
struct snapshot *snapshot_from_json(const char *line, char *err, size_t errlen);

#endif
