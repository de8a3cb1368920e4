// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * GPU memory totals from sysfs, on trees laid out as amdgpu and xe lay theirs
 * out under /sys/class/drm (cardN -> device -> PCI device, its driver link).
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "collectors/memory/gpu_sysfs.h"

static char root[64];

static void put_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mk(const char *rel)
{
	char cmd[320];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static void link_to(const char *target, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/gputop-sysfs-XXXXXX");
	assert_non_null(mkdtemp(root));
	mk("devices/pci0000:00/0000:03:00.0/tile0");
	mk("devices/pci0000:00/0000:03:00.0/tile1");
	mk("devices/pci0000:00/0000:0a:00.0");
	mk("devices/pci0000:00/0000:00:02.0");
	mk("bus/pci/drivers/amdgpu");
	mk("bus/pci/drivers/xe");
	mk("bus/pci/drivers/i915");
	mk("class/drm/card0");
	mk("class/drm/card1");
	mk("class/drm/card2");
	mk("class/drm/card0-DP-1");
	/* amdgpu at 0a:00.0 */
	link_to("../../../devices/pci0000:00/0000:0a:00.0", "class/drm/card0/device");
	link_to("../../../../bus/pci/drivers/amdgpu", "devices/pci0000:00/0000:0a:00.0/driver");
	put_file("devices/pci0000:00/0000:0a:00.0/mem_info_vram_used", "1073741824\n");
	put_file("devices/pci0000:00/0000:0a:00.0/mem_info_vram_total", "8573157376\n");
	put_file("devices/pci0000:00/0000:0a:00.0/mem_info_vis_vram_used", "268435456\n");
	put_file("devices/pci0000:00/0000:0a:00.0/mem_info_vis_vram_total", "268435456\n");
	put_file("devices/pci0000:00/0000:0a:00.0/mem_info_gtt_used", "25165824\n");
	put_file("devices/pci0000:00/0000:0a:00.0/mem_info_gtt_total", "garbage\n");
	/* xe at 03:00.0, two tiles */
	link_to("../../../devices/pci0000:00/0000:03:00.0", "class/drm/card1/device");
	link_to("../../../../bus/pci/drivers/xe", "devices/pci0000:00/0000:03:00.0/driver");
	put_file("devices/pci0000:00/0000:03:00.0/tile0/physical_vram_size_bytes", "17179869184\n");
	put_file("devices/pci0000:00/0000:03:00.0/tile1/physical_vram_size_bytes", "4294967296\n");
	/* i915 exports none */
	link_to("../../../devices/pci0000:00/0000:00:02.0", "class/drm/card2/device");
	link_to("../../../../bus/pci/drivers/i915", "devices/pci0000:00/0000:00:02.0/driver");
	/* a connector of card0: not a device */
	link_to("../../../devices/pci0000:00/0000:0a:00.0", "class/drm/card0-DP-1/device");
	return 0;
}

static int teardown(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static const struct gpu_mem_total *find(const struct gpu_mem_total *t, size_t n, const char *dev,
					const char *region)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].dev, dev) && !strcmp(t[i].region, region))
			return &t[i];
	return NULL;
}

static void amdgpu_and_xe(void **state)
{
	struct gpu_mem_total t[16];
	const struct gpu_mem_total *e;
	size_t n;

	(void)state;
	assert_int_equal(sysroot_set(SYSROOT_SYS, root), 0);
	n = gpu_sysfs_memory(t, 16);
	assert_int_equal(n, 4); /* vram, vis_vram (gtt's total unreadable), xe's two tiles */
	e = find(t, n, "0000:0a:00.0", "vram");
	assert_non_null(e);
	assert_string_equal(e->driver, "amdgpu");
	assert_true(e->has_used);
	assert_int_equal(e->used, 1073741824ull);
	assert_int_equal(e->size, 8573157376ull);
	e = find(t, n, "0000:0a:00.0", "vis_vram");
	assert_non_null(e);
	assert_int_equal(e->used, 268435456ull);
	assert_null(find(t, n, "0000:0a:00.0", "gtt"));
	e = find(t, n, "0000:03:00.0", "vram1");
	assert_non_null(e);
	assert_string_equal(e->driver, "xe");
	assert_false(e->has_used);
	assert_int_equal(e->size, 4294967296ull);
	assert_non_null(find(t, n, "0000:03:00.0", "vram0"));
	assert_null(find(t, n, "0000:00:02.0", "vram"));
	/* room for fewer: never more than asked */
	assert_int_equal(gpu_sysfs_memory(t, 1), 1);
	/* no such directory */
	assert_int_equal(sysroot_set(SYSROOT_SYS, "/nonexistent"), 0);
	assert_int_equal(gpu_sysfs_memory(t, 16), 0);
	assert_int_equal(sysroot_set(SYSROOT_SYS, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(amdgpu_and_xe) };

	return cmocka_run_group_tests(tests, setup, teardown);
}
