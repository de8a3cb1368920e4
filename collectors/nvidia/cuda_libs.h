/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Finding the CUDA driver library (libcuda) files to put uprobes on: a path the
 * user names (--libcuda), the loader cache (ldconfig -p), and the mappings of
 * running processes (a container's own copy, a library off the loader's path).
 * A file is one inode: the same library reached by two paths is attached once.
 * Each is opened once, never waiting on a FIFO; a process's own through the
 * mapping itself (/proc/PID/map_files/, device and inode checked: no link its
 * user made is followed, escaped names in maps need no unescaping), and read
 * and probed through that descriptor from then on.
 */
#ifndef GPUTOP_CUDA_LIBS_H
#define GPUTOP_CUDA_LIBS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CUDA_LIB_PATH 512

struct cuda_lib {
	char path[CUDA_LIB_PATH]; /* as attached and read: /proc/self/fd/<fd> */
	char found[CUDA_LIB_PATH]; /* the path it was found by (a process's as its maps prints it) */
	char how[32]; /* "--libcuda", "loader cache", "process N" */
	int fd; /* the file, opened once and checked */
	dev_t dev;
	ino_t ino;
	bool attached; /* the caller has attached to it */
};

struct cuda_libs {
	struct cuda_lib *v;
	size_t n, cap;
};

/*
 * Adds path when it is a readable 64-bit ELF shared object of this machine and
 * a file not added yet: 1 added, 0 already there, -1 not usable (why filled).
 */
int cuda_libs_add(struct cuda_libs *l, const char *path, const char *how, char *why, size_t size);
/* The loader cache's libcuda.so.1 entries; returns how many were added. */
int cuda_libs_from_ldcache(struct cuda_libs *l);
/* libcuda files mapped by running processes; returns how many were added. */
int cuda_libs_from_maps(struct cuda_libs *l);
void cuda_libs_free(struct cuda_libs *l);
/*
 * The file offsets (what a uprobe takes) of the functions names[0..n) that the
 * library defines, 0 for those it does not; -1 when it cannot be read as ELF,
 * or the symbolizing child that reads it could not answer (symbols/sym_child.h).
 */
#define CUDA_LIB_FUNCS_MAX 64
int cuda_lib_offsets(const char *path, const char *const *names, size_t n, size_t *offsets);

#endif
