/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Where tracefs is, and which tracepoints exist on this kernel. */
#ifndef GPUTOP_TRACEFS_H
#define GPUTOP_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

/* The tracefs root in use ("/sys/kernel/tracing" or the debugfs path), or NULL. */
const char *tracefs_root(void);
/* Mounts tracefs at /sys/kernel/tracing when no root is found; 0 or -errno. */
int tracefs_ensure_mounted(void);
bool tracepoint_exists(const char *group, const char *event);
bool tracepoint_group_exists(const char *group);

#endif
