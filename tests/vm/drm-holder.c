// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Holds one DRM file of the driver named DRIVER for SECONDS: opened once,
 * dup()ed, and shared with a forked child, so it is one DRM client held by two
 * processes through three descriptors. Prints "parent PID child PID".
 * Usage: drm-holder DRIVER SECONDS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <drm.h>

/* The first /dev/dri/cardN whose driver (DRM_IOCTL_VERSION) is named driver. */
static int open_driver_card(const char *driver)
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

int main(int argc, char **argv)
{
	int fd, copy;
	pid_t child;

	if (argc != 3) {
		fprintf(stderr, "usage: drm-holder DRIVER SECONDS\n");
		return 2;
	}
	fd = open_driver_card(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "drm-holder: no DRM card of driver %s\n", argv[1]);
		return 1;
	}
	copy = dup(fd);
	child = fork();
	if (child == 0) {
		sleep((unsigned int)atoi(argv[2]));
		_exit(0);
	}
	printf("parent %d child %d\n", getpid(), child);
	fflush(stdout);
	sleep((unsigned int)atoi(argv[2]));
	waitpid(child, NULL, 0);
	close(copy);
	close(fd);
	return 0;
}
