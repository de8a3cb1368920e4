/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The GPUs that DRM knows: the cardN entries of <sysfs>/class/drm (not their
 * connectors card0-DP-1, not renderD128), in card order, each with the
 * directory of its device and what sysfs's links name.
 */
#ifndef GPUTOP_DRM_CARDS_H
#define GPUTOP_DRM_CARDS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct drm_card {
	unsigned int index; /* N of cardN */
	char name[16]; /* "card0" */
	char devdir[PATH_MAX / 4]; /* <sysfs>/class/drm/card0/device */
	char bus_id[64]; /* the device link's name: "0000:03:00.0", "vkms"; "" when none */
	char driver[32]; /* device_driver_name(): "amdgpu", "vgem" (not faux_driver), "mockdrm" */
};

/* The cards into out (at most max, by index); how many. */
size_t drm_cards(struct drm_card *out, size_t max);

#endif
