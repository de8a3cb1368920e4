// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: a /proc/PID/maps text (the symbolizer's first read of a process).
 * The table must come out sorted and without overlaps, and every mapping must
 * be found by its first and last address.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/proc_maps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1); /* exactly as long: a read past it is reported */
	struct proc_maps t = { 0 };
	size_t i;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!proc_maps_parse(&t, copy, size)) {
		for (i = 0; i < t.n; i++) {
			const struct map *m = &t.maps[i];

			if (m->end <= m->start || (i && m->start < t.maps[i - 1].end) ||
			    proc_maps_find(&t, m->start) != m ||
			    proc_maps_find(&t, m->end - 1) != m ||
			    strlen(map_path(&t, m)) >= PROC_MAPS_PATH_MAX)
				abort();
		}
	}
	proc_maps_free(&t);
	free(copy);
	return 0;
}
