// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer: an amdgpu gpu_metrics file's bytes (what the driver, or a hostile tree, wrote). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/sensors/gpu_metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1); /* exactly as long: a read past it is reported */
	struct gpu_metrics gm;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (gpu_metrics_decode(copy, size, &gm))
		for (int f = 0; f < GM_COUNT; f++)
			if (gm.has[f] && (!gm.known || !isfinite(gm.v[f]) || gm.v[f] < 0))
				abort(); /* a value from a layout not known, or not a reading */
	free(copy);
	return 0;
}
