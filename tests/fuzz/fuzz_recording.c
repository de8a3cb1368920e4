// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: one line of a recording, as --replay reads it, then printed both
 * ways (text, JSON) as the batch front end would.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/snapshot.h"
#include "output/json.h"
#include "recording/json_read.h"
#include "output/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), err[256], *json;
	struct snapshot *s;
	FILE *sink;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	s = snapshot_from_json(line, err, sizeof(err));
	free(line);
	if (!s)
		return 0;
	snapshot_filter_pid(s, 7);
	sink = fopen("/dev/null", "w");
	if (sink) {
		snapshot_print_text(sink, s, &(struct text_settings){ .programs = true });
		fclose(sink);
	}
	json = snapshot_to_json(s);
	free(json);
	snapshot_free(s);
	return 0;
}
