// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU devices from sysfs and procfs: DRM cards and NVIDIA GPUs (no BPF). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "collectors/kit/drm_cards.h"
#include "collectors/collector.h"

#define MAX_CARDS 64

/* An nvidia-drm card whose GPU the NVIDIA driver lists in procfs: one GPU, listed once, as nvidia<N>. */
static bool nvidia_listed(const struct drm_card *card)
{
	char path[PATH_MAX / 2];

	if (strcmp(card->driver, "nvidia-drm") || !card->bus_id[0])
		return false;
	return proc_path(path, sizeof(path), "driver/nvidia/gpus/%.64s", card->bus_id) && !access(path, F_OK);
}

static int scan_drm(struct model *m)
{
	struct drm_card cards[MAX_CARDS];
	size_t n = drm_cards(cards, MAX_CARDS);
	int listed = 0;

	for (size_t i = 0; i < n; i++) {
		struct device_snap dev = { 0 };

		if (nvidia_listed(&cards[i]))
			continue;
		listed++;
		if (!m)
			continue;

		snprintf(dev.name, sizeof(dev.name), "%s", cards[i].name);
		snprintf(dev.driver, sizeof(dev.driver), "%s", cards[i].driver);
		snprintf(dev.bus_id, sizeof(dev.bus_id), "%s", cards[i].bus_id);
		model_device_add(m, &dev);
	}
	return listed;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The NVIDIA driver's GPUs, nvidia0 ... in PCI address order (as NVML numbers them by default). */
static int scan_nvidia(struct model *m)
{
	char bus[MAX_CARDS][NAME_LEN];
	char dir[PATH_MAX / 2];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (!proc_path(dir, sizeof(dir), "driver/nvidia/gpus") || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) && n < MAX_CARDS)
		if (de->d_name[0] != '.')
			snprintf(bus[n++], NAME_LEN, "%.*s", NAME_LEN - 1, de->d_name);
	closedir(d);
	qsort(bus, n, sizeof(bus[0]), by_name);
	for (size_t i = 0; m && i < n; i++) {
		struct device_snap dev = { 0 };

		snprintf(dev.name, sizeof(dev.name), "nvidia%zu", i);
		snprintf(dev.driver, sizeof(dev.driver), "nvidia");
		snprintf(dev.bus_id, sizeof(dev.bus_id), "%s", bus[i]);
		model_device_add(m, &dev);
	}
	return (int)n;
}

static void devices_probe(struct collector *c)
{
	char drm[PATH_MAX / 2], nv[PATH_MAX / 2], why[PATH_MAX + 64];

	sys_path(drm, sizeof(drm), "class/drm");
	proc_path(nv, sizeof(nv), "driver/nvidia/gpus");
	if (access(drm, F_OK) && access(nv, F_OK)) {
		snprintf(why, sizeof(why), "no GPU driver loaded (no %s, no %s)", drm, nv);
		collector_set_state(c, COLLECTOR_UNAVAILABLE, why,
				    "load the GPU's kernel driver (amdgpu, i915, xe, nouveau, nvidia ...)");
	}
}

static int devices_read(struct collector *c, struct model *m)
{
	int n = scan_drm(m) + scan_nvidia(m);
	char drm[PATH_MAX / 2];

	sys_path(drm, sizeof(drm), "class/drm");
	snprintf(c->status.detail, sizeof(c->status.detail), "%d device%s%s%.60s%s", n,
		 n == 1 ? "" : "s", n ? "" : " (no card in ", n ? "" : drm, n ? "" : ")");
	return 0;
}

static const struct collector_ops devices_collector = {
	.name = "devices", /* id */
	.order = 10,
	.unprivileged = true,
	.description = "GPU devices from sysfs (DRM cards) and procfs (NVIDIA)",
	.probe = devices_probe, /* any card or NVIDIA GPU present? */
	.open = NULL, /* no BPF */
	.attach = NULL,
	.read = devices_read, /* rescanned each tick: hotplug, module load */
	.close = NULL,
};
COLLECTOR_REGISTER(devices_collector);
