/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Opening the files another user's process names, without following that
 * user's links into files they could not read themselves:
 * - a mapped file through /proc/PID/map_files/ (the kernel hands over the very
 *   file mapped), else its path resolved inside /proc/PID/root with no symlink
 *   followed (openat2), else (the process has exited) the same path in our own
 *   root, and in every case kept only if its device and inode are those of the
 *   mapping: the file the process mapped, hence could read;
 * - a perf map in a world-writable directory: the last component not followed,
 *   a regular file, owned by the process's user, of bounded size.
 */
#ifndef GPUTOP_SYMBOLS_FILE_OPEN_H
#define GPUTOP_SYMBOLS_FILE_OPEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "symbols/proc_maps.h"

/* The file of mapping m of process pid, checked to be it. An fd, or -errno (-ESTALE: not it). */
int map_file_open(pid_t pid, const struct map *m, const char *path);
/*
 * The separate debug file of a build id under debug_dir (".build-id/xx/rest.debug").
 * debug_dir is the system's (root's) or one a test names: its links are followed;
 * the caller checks the build id of what it reads. An fd, or -errno.
 */
int debug_file_open(const char *debug_dir, const uint8_t *build_id, size_t len);
/*
 * dir/perf-PID.map: not a link, a regular file owned by owner, at most max_bytes.
 * An fd, or -errno (-EPERM: another owner; -EFBIG: too large; -EINVAL: not a regular file).
 */
int perf_map_file_open(const char *dir, pid_t pid, uid_t owner, size_t max_bytes);
/*
 * In the symbolizing child (sym_server.c), which opens nothing itself: each
 * open above asks the monitor, which opens it as above and passes the
 * descriptor. NULL: open here (the monitor's own calls).
 */
struct file_broker {
	int (*map_file)(void *ctx, pid_t pid, const struct map *m);
	int (*debug_file)(void *ctx, const uint8_t *build_id, size_t len);
	int (*perf_map)(void *ctx, pid_t pid);
	void *ctx;
};
void file_open_broker(const struct file_broker *b);
/* The effective user of a process (the owner of /proc/PID). 0, or -errno. */
int proc_owner(pid_t pid, uid_t *uid);

#endif
