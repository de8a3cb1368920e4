/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What an ioctl command number on a GPU device is called. */
#ifndef GPUTOP_IOCTL_NAMES_H
#define GPUTOP_IOCTL_NAMES_H

#include <stddef.h>
#include <stdint.h>

enum ioctl_device { IOCTL_DEVICE_DRM, IOCTL_DEVICE_NVIDIA };

/*
 * "MODE_CREATE_DUMB" (DRM core), "AMDGPU_CS" (a known driver's private command),
 * "mockdrm+0x00" (another driver's: its number from DRM_COMMAND_BASE), "nvidia 0x2a".
 */
void ioctl_command_name(enum ioctl_device kind, const char *driver, uint32_t cmd, char *buf, size_t size);

#endif
