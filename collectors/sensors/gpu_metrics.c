// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "collectors/sensors/gpu_metrics.h"

/* Where a field is in one layout, its width and its scale to our unit; offset 0: not in it. */
struct gm_place {
	uint16_t offset;
	uint8_t bytes; /* 2 or 4 */
	double scale;
};

struct gm_layout {
	uint8_t format, content_min, content_max;
	uint16_t size; /* sizeof the struct: the header must say at least this */
	struct gm_place at[GM_COUNT];
};

/*
 * Offsets from kgd_pp_interface.h (natural alignment, as the kernel builds it).
 * v1: whole °C, %, W; v2: centi-°C, centi-%, mW; v3_0: centi-°C, mW (its
 * activity's unit depends on the firmware, its clocks are averages: not read).
 * v1_4 and later reorder the fields: unknown here.
 */
static const struct gm_layout layouts[] = {
	{ 1, 0, 0, 80,
	  { [GM_TEMP] = { 16, 2, 1 }, [GM_HOTSPOT] = { 18, 2, 1 }, [GM_MEM_TEMP] = { 20, 2, 1 },
	    [GM_BUSY] = { 28, 2, 1 }, [GM_POWER] = { 34, 2, 1 }, [GM_GFX_MHZ] = { 54, 2, 1 },
	    [GM_MEM_MHZ] = { 58, 2, 1 }, [GM_FAN] = { 72, 2, 1 } } },
	{ 1, 1, 3, 96,
	  { [GM_TEMP] = { 4, 2, 1 }, [GM_HOTSPOT] = { 6, 2, 1 }, [GM_MEM_TEMP] = { 8, 2, 1 },
	    [GM_BUSY] = { 16, 2, 1 }, [GM_POWER] = { 22, 2, 1 }, [GM_GFX_MHZ] = { 54, 2, 1 },
	    [GM_MEM_MHZ] = { 58, 2, 1 }, [GM_FAN] = { 72, 2, 1 } } },
	{ 2, 0, 0, 120,
	  { [GM_TEMP] = { 16, 2, 0.01 }, [GM_BUSY] = { 40, 2, 0.01 }, [GM_POWER] = { 44, 2, 0.001 },
	    [GM_GFX_MHZ] = { 80, 2, 1 }, [GM_MEM_MHZ] = { 84, 2, 1 } } },
	{ 2, 1, 4, 120,
	  { [GM_TEMP] = { 4, 2, 0.01 }, [GM_BUSY] = { 28, 2, 0.01 }, [GM_POWER] = { 40, 2, 0.001 },
	    [GM_GFX_MHZ] = { 76, 2, 1 }, [GM_MEM_MHZ] = { 80, 2, 1 } } },
	{ 3, 0, 0, 264, { [GM_TEMP] = { 4, 2, 0.01 }, [GM_POWER] = { 112, 4, 0.001 } } },
};

static uint32_t le(const uint8_t *p, unsigned int bytes)
{
	return bytes == 2 ? (uint32_t)p[0] | (uint32_t)p[1] << 8 :
			    (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool gpu_metrics_decode(const uint8_t *buf, size_t n, struct gpu_metrics *out)
{
	const struct gm_layout *l = NULL;
	size_t size;

	memset(out, 0, sizeof(*out));
	if (n < 4)
		return false;
	size = le(buf, 2);
	if (size < 4 || size > n)
		return false; /* shorter than its header says */
	out->format = buf[2];
	out->content = buf[3];
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]) && !l; i++)
		if (layouts[i].format == out->format && out->content >= layouts[i].content_min &&
		    out->content <= layouts[i].content_max && size >= layouts[i].size)
			l = &layouts[i];
	if (!l)
		return true; /* a table, of a layout we do not know */
	out->known = true;
	for (int f = 0; f < GM_COUNT; f++) {
		const struct gm_place *at = &l->at[f];
		uint32_t raw, unset;

		if (!at->offset)
			continue;
		raw = le(buf + at->offset, at->bytes);
		unset = at->bytes == 2 ? 0xffff : 0xffffffff;
		if (raw == unset)
			continue; /* the firmware left it unset */
		out->has[f] = true;
		out->v[f] = raw * at->scale;
	}
	return true;
}
