/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The VM's DRM test clients: a card by its driver's name. */
#ifndef DRM_CARD_H
#define DRM_CARD_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm.h>

/* The first /dev/dri/cardN whose driver (DRM_IOCTL_VERSION) is named driver. */
static inline int open_driver_card(const char *driver)
{
	for (int i = 0; i < 64; i++) {
		char path[32], name[64] = "";
		struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, driver))
			return fd;
		close(fd);
	}
	return -1;
}

#endif
