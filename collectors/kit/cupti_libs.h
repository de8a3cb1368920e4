/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CUPTI companion library's files (libgputop-cupti.so) a collector attaches uprobes to: the
 * installed ones, then those that running processes map (found in their /proc/PID/maps, reached
 * through /proc/PID/map_files), each file (device, inode) once. The probe functions' and the
 * semaphores' file offsets are read by the symbolizing child (the file is another user's); what is
 * attached is the collector's (its attach function): the GPU time collector's records, names and
 * status; the NVIDIA collector's launch stacks join.
 */
#ifndef GPUTOP_KIT_CUPTI_LIBS_H
#define GPUTOP_KIT_CUPTI_LIBS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CUPTI_LIB_NAME "libgputop-cupti.so"
#define CUPTI_LIBS_MAX 64
#define CUPTI_LIB_LINKS 3

/* The offsets read from each file; those of the launch join may be 0 (a library before it). */
enum cupti_lib_off {
	CUPTI_OFF_NAME,
	CUPTI_OFF_STATUS,
	CUPTI_OFF_RECORDS,
	CUPTI_OFF_SEMAPHORE,
	CUPTI_OFF_LAUNCH,
	CUPTI_OFF_LAUNCH_SEMAPHORE,
	CUPTI_OFFS,
};

struct bpf_link;
struct bpf_program;

struct cupti_lib {
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX]; /* as first reached */
	struct bpf_link *links[CUPTI_LIB_LINKS]; /* detached last first: the semaphores' last attached */
};

/* Attaches a collector's probes to lib at the offsets off (its links); 0, or -1 with none left attached. */
typedef int (*cupti_lib_attach_fn)(struct cupti_lib *lib, const uint64_t *off, void *arg);

struct cupti_libs {
	struct cupti_lib v[CUPTI_LIBS_MAX];
	size_t n;
	size_t failed; /* files found whose probes did not attach */
	cupti_lib_attach_fn attach;
	void *arg;
};

void cupti_libs_init(struct cupti_libs *l, cupti_lib_attach_fn attach, void *arg);
/* Attaches the probes to the library at path unless its file has them; 1 attached, 0 had, -1 failed. */
int cupti_lib_add(struct cupti_libs *l, const char *path);
/* The installed libraries (make install's and the package's) and those the running processes map, added; how many were new. */
int cupti_libs_scan(struct cupti_libs *l);
/* Detaches every probe (last attached first: the semaphores fall before the others go). */
void cupti_libs_detach(struct cupti_libs *l);
/* A uprobe of prog on lib at offset, with ref_ctr (0: none); NULL on failure. */
struct bpf_link *cupti_lib_uprobe(const struct cupti_lib *lib, const struct bpf_program *prog, uint64_t offset,
				  uint64_t ref_ctr);

#endif
