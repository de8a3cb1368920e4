// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU memory totals from sysfs (gpu_sysfs.h). */
#include <stdio.h>
#include <string.h>
#include "collectors/kit/drm_cards.h"
#include "collectors/kit/sysfs_read.h"
#include "collectors/memory/gpu_sysfs.h"

static struct gpu_mem_total *add(struct gpu_mem_total *out, size_t *n, size_t max, const char *dev,
				 const char *region, const char *driver)
{
	struct gpu_mem_total *t;

	if (*n >= max)
		return NULL;
	t = &out[(*n)++];
	memset(t, 0, sizeof(*t));
	snprintf(t->dev, sizeof(t->dev), "%s", dev);
	snprintf(t->region, sizeof(t->region), "%s", region);
	snprintf(t->driver, sizeof(t->driver), "%s", driver);
	return t;
}

/* amdgpu: device/mem_info_<r>_used and _total. */
static void amdgpu(const char *devdir, const char *dev, struct gpu_mem_total *out, size_t *n,
		   size_t max)
{
	static const char *const regions[] = { "vram", "vis_vram", "gtt" };

	for (size_t r = 0; r < sizeof(regions) / sizeof(regions[0]); r++) {
		uint64_t used, size;
		struct gpu_mem_total *t;

		if (!sysfs_read_u64_at(&used, devdir, "mem_info_%s_used", regions[r]) ||
		    !sysfs_read_u64_at(&size, devdir, "mem_info_%s_total", regions[r]) ||
		    !(t = add(out, n, max, dev, regions[r], "amdgpu")))
			continue;
		t->used = used, t->has_used = true, t->size = size;
	}
}

/* xe: device/tile<N>/physical_vram_size_bytes; its fdinfo calls that tile's VRAM vram<N>. */
static void xe(const char *devdir, const char *dev, struct gpu_mem_total *out, size_t *n, size_t max)
{
	for (unsigned int tile = 0; tile < 8; tile++) {
		char region[16];
		uint64_t size;
		struct gpu_mem_total *t;

		if (!sysfs_read_u64_at(&size, devdir, "tile%u/physical_vram_size_bytes", tile))
			continue;
		snprintf(region, sizeof(region), "vram%u", tile);
		if ((t = add(out, n, max, dev, region, "xe")))
			t->size = size;
	}
}

size_t gpu_sysfs_memory(struct gpu_mem_total *out, size_t max)
{
	struct drm_card cards[GPU_SYSFS_MAX_CARDS];
	size_t ncards = drm_cards(cards, GPU_SYSFS_MAX_CARDS), n = 0;

	for (size_t i = 0; i < ncards; i++) {
		const struct drm_card *c = &cards[i];

		if (!c->bus_id[0])
			continue;
		if (!strcmp(c->driver, "amdgpu"))
			amdgpu(c->devdir, c->bus_id, out, &n, max);
		else if (!strcmp(c->driver, "xe"))
			xe(c->devdir, c->bus_id, out, &n, max);
	}
	return n;
}
