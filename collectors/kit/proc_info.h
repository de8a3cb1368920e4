/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What procfs says about a process a collector attributes work to: its name, its cgroup, whether it is gone. */
#ifndef GPUTOP_PROC_INFO_H
#define GPUTOP_PROC_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Its command name ("?" when unreadable, "[kernel]" for pid 0); for a program
 * started through the dynamic loader (whose comm is "ld-linux-x86-64"), the
 * program's, from its command line.
 */
void proc_comm(uint32_t pid, char *comm, size_t size);
/*
 * Its cgroup (v2 path, or the v1 path of its first hierarchy), shortened to
 * "<runtime>:<12 hex digits>" when the path holds a container id (docker,
 * containerd, cri-o, podman, libpod); "" when unreadable.
 */
void proc_cgroup(uint32_t pid, char *buf, size_t size);
/* The process no longer exists. */
bool proc_gone(uint32_t pid);
/* comm is the dynamic loader's (ld-linux-*, ld-musl-*, ld.so). */
bool loader_comm(const char *comm);
/*
 * The program a loader's command line (len bytes, NUL-separated, as
 * /proc/PID/cmdline) runs, past the loader's options (--argv0's value where
 * given), as a 15-byte name into comm; false when it names none.
 */
bool loader_program(const char *cmdline, size_t len, char *comm, size_t size);
/* The container id in a cgroup path, as above, or "" (exposed for the unit tests). */
void cgroup_container(const char *path, char *buf, size_t size);

#endif
