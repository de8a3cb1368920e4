/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where sysfs and procfs are: /sys and /proc, or the trees that --sysfs and
 * --procfs name (fixture trees in the tests, a host's trees from a container),
 * as node_exporter's --path.sysfs and --path.procfs. Every reader of sysfs or
 * procfs files builds its paths here.
 */
#ifndef GPUTOP_SYSROOT_H
#define GPUTOP_SYSROOT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

enum sysroot { SYSROOT_SYS, SYSROOT_PROC };

/* Sets the root of one tree (a copy is kept); NULL or "" restores the default. -1 if too long. */
int sysroot_set(enum sysroot which, const char *dir);
/* The root of one tree: "/sys", "/proc", or what sysroot_set was given. */
const char *sysroot(enum sysroot which);
/*
 * The path root + "/" + the formatted rest (fmt starts with no "/": "class/drm")
 * into buf; false (and "" in buf) when it does not fit.
 */
bool sys_path(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* dir + "/" + the formatted rest into buf ("/" alone as dir adds none); false ("" in buf) when it does not fit. */
bool path_vformat(char *buf, size_t size, const char *dir, const char *fmt, va_list ap);
bool proc_path(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
