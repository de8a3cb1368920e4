// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU memory totals from sysfs (gpu_sysfs.h). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/link_name.h"
#include "collectors/memory/gpu_sysfs.h"

static bool read_u64(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "re");
	unsigned long long n;
	char extra;
	int got;

	if (!f)
		return false;
	got = fscanf(f, "%llu%c", &n, &extra);
	fclose(f);
	if (got < 1 || (got == 2 && extra != '\n'))
		return false;
	*v = n;
	return true;
}

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
		char path[640];
		uint64_t used, size;
		struct gpu_mem_total *t;

		snprintf(path, sizeof(path), "%s/mem_info_%s_used", devdir, regions[r]);
		if (!read_u64(path, &used))
			continue;
		snprintf(path, sizeof(path), "%s/mem_info_%s_total", devdir, regions[r]);
		if (!read_u64(path, &size) || !(t = add(out, n, max, dev, regions[r], "amdgpu")))
			continue;
		t->used = used, t->has_used = true, t->size = size;
	}
}

/* xe: device/tile<N>/physical_vram_size_bytes; its fdinfo calls that tile's VRAM vram<N>. */
static void xe(const char *devdir, const char *dev, struct gpu_mem_total *out, size_t *n, size_t max)
{
	for (unsigned int tile = 0; tile < 8; tile++) {
		char path[640], region[16];
		uint64_t size;
		struct gpu_mem_total *t;

		snprintf(path, sizeof(path), "%s/tile%u/physical_vram_size_bytes", devdir, tile);
		if (!read_u64(path, &size))
			continue;
		snprintf(region, sizeof(region), "vram%u", tile);
		if ((t = add(out, n, max, dev, region, "xe")))
			t->size = size;
	}
}

size_t gpu_sysfs_memory(const char *drm_class, struct gpu_mem_total *out, size_t max)
{
	DIR *d = opendir(drm_class);
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d))) {
		char devdir[512], path[640], dev[64], driver[32];

		if (strncmp(de->d_name, "card", 4) || strchr(de->d_name, '-'))
			continue; /* cardN only: not its connectors, not renderD */
		snprintf(devdir, sizeof(devdir), "%s/%.64s/device", drm_class, de->d_name);
		snprintf(path, sizeof(path), "%s/driver", devdir);
		if (!link_name(devdir, dev, sizeof(dev)) || !link_name(path, driver, sizeof(driver)))
			continue;
		if (!strcmp(driver, "amdgpu"))
			amdgpu(devdir, dev, out, &n, max);
		else if (!strcmp(driver, "xe"))
			xe(devdir, dev, out, &n, max);
	}
	if (d)
		closedir(d);
	return n;
}
