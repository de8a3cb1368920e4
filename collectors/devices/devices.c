// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU devices from sysfs and procfs: DRM cards and NVIDIA GPUs (no BPF). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/link_name.h"
#include "collectors/collector.h"

#define DRM_CLASS "/sys/class/drm"
#define NVIDIA_GPUS "/proc/driver/nvidia/gpus"

/* card0, card1 ...: not the connectors (card0-DP-1) */
static bool is_card(const char *name)
{
	const char *p = name + 4;

	if (strncmp(name, "card", 4) || !*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static int scan_drm(struct model *m)
{
	DIR *d = opendir(DRM_CLASS);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct device_snap dev = { 0 };
		char path[PATH_MAX];

		if (!is_card(de->d_name))
			continue;
		snprintf(dev.name, sizeof(dev.name), "%.*s", (int)sizeof(dev.name) - 1, de->d_name);
		snprintf(path, sizeof(path), DRM_CLASS "/%s/device/driver", de->d_name);
		link_name(path, dev.driver, sizeof(dev.driver));
		snprintf(path, sizeof(path), DRM_CLASS "/%s/device", de->d_name);
		link_name(path, dev.bus_id, sizeof(dev.bus_id));
		if (m)
			model_device_add(m, &dev);
		n++;
	}
	closedir(d);
	return n;
}

static int scan_nvidia(struct model *m)
{
	DIR *d = opendir(NVIDIA_GPUS);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct device_snap dev = { 0 };

		if (de->d_name[0] == '.')
			continue;
		snprintf(dev.name, sizeof(dev.name), "nvidia%d", n);
		snprintf(dev.driver, sizeof(dev.driver), "nvidia");
		snprintf(dev.bus_id, sizeof(dev.bus_id), "%.*s", (int)sizeof(dev.bus_id) - 1, de->d_name);
		if (m)
			model_device_add(m, &dev);
		n++;
	}
	closedir(d);
	return n;
}

static void devices_probe(struct collector *c)
{
	if (access(DRM_CLASS, F_OK) && access(NVIDIA_GPUS, F_OK))
		collector_set_state(c, COLLECTOR_UNAVAILABLE,
				    "no GPU driver: neither " DRM_CLASS " nor " NVIDIA_GPUS " exists",
				    "load the GPU's kernel driver (amdgpu, i915, xe, nouveau, nvidia ...)");
}

static int devices_read(struct collector *c, struct model *m)
{
	int n = scan_drm(m) + scan_nvidia(m);

	snprintf(c->status.detail, sizeof(c->status.detail), "%d device%s%s", n, n == 1 ? "" : "s",
		 n ? "" : " (no card in " DRM_CLASS ")");
	return 0;
}

static const struct collector_ops devices_collector = {
	.name = "devices", /* id */
	.order = 10,
	.description = "GPU devices from sysfs (DRM cards) and procfs (NVIDIA)",
	.probe = devices_probe, /* any card or NVIDIA GPU present? */
	.open = NULL, /* no BPF */
	.attach = NULL,
	.read = devices_read, /* rescanned each tick: hotplug, module load */
	.close = NULL,
};
COLLECTOR_REGISTER(devices_collector);
