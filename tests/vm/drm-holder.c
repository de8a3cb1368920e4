// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Holds one DRM file of the driver named DRIVER for SECONDS: opened once,
 * dup()ed, and shared with a forked child, so it is one DRM client held by two
 * processes through three descriptors. With sizes (KiB, multiples of 4), it
 * first creates a dumb buffer of each, then destroys the last, so that the
 * client holds all but the last. Prints "parent PID child PID bytes HELD".
 * With -- COMMAND, the parent then becomes COMMAND, the file still open in it
 * (a process that holds GPU memory and does other GPU work: mockgpu-submit).
 * Usage: drm-holder DRIVER SECONDS [KIB...] [-- COMMAND [ARG...]]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <drm.h>
#include "drm_card.h"

/* A dumb buffer of kib KiB (1024 pixels of 4 bytes a row): its handle, its size in *bytes. */
static unsigned int dumb(int fd, long kib, unsigned long long *bytes)
{
	struct drm_mode_create_dumb d = { .height = (unsigned int)(kib / 4), .width = 1024, .bpp = 32 };

	if (kib < 4 || kib % 4 || ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &d)) {
		fprintf(stderr, "drm-holder: cannot create a dumb buffer of %ld KiB\n", kib);
		exit(1);
	}
	*bytes = d.size;
	return d.handle;
}

int main(int argc, char **argv)
{
	unsigned long long held = 0, size = 0;
	unsigned int handle = 0;
	int fd, copy, nsizes = argc;
	pid_t child;

	if (argc < 3) {
		fprintf(stderr, "usage: drm-holder DRIVER SECONDS [KIB...] [-- COMMAND [ARG...]]\n");
		return 2;
	}
	for (int i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			nsizes = i;
			break;
		}
	fd = open_driver_card(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "drm-holder: no DRM card of driver %s\n", argv[1]);
		return 1;
	}
	for (int i = 3; i < nsizes; i++) {
		handle = dumb(fd, atol(argv[i]), &size);
		held += size;
	}
	if (nsizes > 3) { /* the last one goes again */
		struct drm_mode_destroy_dumb d = { .handle = handle };

		if (ioctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d))
			return 1;
		held -= size;
	}
	copy = dup(fd);
	child = fork();
	if (child == 0) {
		sleep((unsigned int)atoi(argv[2]));
		_exit(0);
	}
	printf("parent %d child %d bytes %llu\n", getpid(), child, held);
	fflush(stdout);
	if (nsizes + 1 < argc) { /* copy (a dup: no close-on-exec) keeps the file open in the command */
		execvp(argv[nsizes + 1], argv + nsizes + 1);
		perror(argv[nsizes + 1]);
		return 1;
	}
	sleep((unsigned int)atoi(argv[2]));
	waitpid(child, NULL, 0);
	close(copy);
	close(fd);
	return 0;
}
