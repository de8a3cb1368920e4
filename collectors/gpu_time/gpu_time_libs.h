/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CUPTI companion library's files (libgputop-cupti.so) the GPU time probes are attached to:
 * the installed ones at the start, then those that running processes map (found in their
 * /proc/PID/maps, reached through /proc/PID/map_files), each file (device, inode) once.
 */
#ifndef GPUTOP_GPU_TIME_LIBS_H
#define GPUTOP_GPU_TIME_LIBS_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#define GPU_TIME_LIB_NAME "libgputop-cupti.so"
#define GPU_TIME_LIBS_MAX 64

struct bpf_link;
struct cupti_bpf;

struct gpu_time_lib {
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX]; /* as first reached */
	struct bpf_link *links[3]; /* name, status, records (the last with the semaphore) */
};

struct gpu_time_libs {
	struct gpu_time_lib v[GPU_TIME_LIBS_MAX];
	size_t n;
	size_t failed; /* files found whose probes did not attach */
};

/* Attaches the probes to the library at path unless its file has them; 1 attached, 0 had, -1 failed. */
int gpu_time_lib_add(struct gpu_time_libs *l, struct cupti_bpf *skel, const char *path);
/* The libraries the running processes map, added; how many were new. */
int gpu_time_libs_scan(struct gpu_time_libs *l, struct cupti_bpf *skel);
/* Detaches every probe (the records' first: the semaphores fall before the others go). */
void gpu_time_libs_detach(struct gpu_time_libs *l);

#endif
