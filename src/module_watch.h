/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel modules loaded and removed while the monitor runs, from the kernel's
 * uevents (NETLINK_KOBJECT_UEVENT, "add@/module/NAME"): no polling. The kernel
 * sends "add" once the module's init has run, when its tracepoints and BTF exist.
 */
#ifndef GPUTOP_MODULE_WATCH_H
#define GPUTOP_MODULE_WATCH_H

#include <stdbool.h>
#include <stddef.h>

struct module_watch;

/* NULL when the kernel's uevents cannot be received (then no module is picked up later). */
struct module_watch *module_watch_open(void);
/*
 * Takes the uevents that arrived, without waiting: whether a module was added
 * or removed since the last call, the last one's name in name (may be NULL).
 */
void module_watch_poll(struct module_watch *w, bool *added, bool *removed, char *name,
		       size_t size);
void module_watch_close(struct module_watch *w);
/* One uevent message (header "ACTION@DEVPATH", then KEY=VALUE strings): 1 add, -1 remove, 0 other. */
int module_uevent_parse(const char *msg, size_t len, char *name, size_t size);

#endif
