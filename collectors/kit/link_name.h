/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* sysfs names things by symlinks: a device's bus address, its driver's name. */
#ifndef GPUTOP_LINK_NAME_H
#define GPUTOP_LINK_NAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The last part of the target of the symlink path ("0000:03:00.0", "amdgpu")
 * into out; false, out untouched, when there is no link or the name does not
 * fit in size (never a name cut short).
 */
bool link_name(const char *path, char *out, size_t size);

#endif
