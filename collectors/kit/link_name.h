/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* sysfs names things by symlinks: a device's bus address, its driver's name. */
#ifndef GPUTOP_LINK_NAME_H
#define GPUTOP_LINK_NAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The name of what the symlink path points to ("0000:03:00.0", "amdgpu"): the
 * last part of its resolved path, else of its text, never "." or "..", into out; false, out untouched, when there is no link or the name does not
 * fit in size (never a name cut short).
 */
bool link_name(const char *path, char *out, size_t size);
/*
 * A device's driver (devdir: its sysfs folder): its driver link's name, unless
 * that is generic (7.x's faux devices: vgem, vkms share "faux_driver") or
 * absent (a platform device with no driver bound, as mockdrm): then, on the
 * platform and faux buses, the device's own name. False when neither.
 */
bool device_driver_name(const char *devdir, char *out, size_t size);

#endif
