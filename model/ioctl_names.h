/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What an ioctl command number on a GPU device is called. */
#ifndef GPUTOP_IOCTL_NAMES_H
#define GPUTOP_IOCTL_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ioctl_device { IOCTL_DEVICE_DRM, IOCTL_DEVICE_NVIDIA };

/*
 * "MODE_CREATE_DUMB" (DRM core), "AMDGPU_CS" (a known driver's private command),
 * "mockdrm+0x00" (another driver's: its number from DRM_COMMAND_BASE), "nvidia RM_CONTROL", "nvidia 0xd7",
 * "uvm REGISTER_GPU".
 */
void ioctl_command_name(enum ioctl_device kind, const char *driver, uint32_t cmd, char *buf, size_t size);
/*
 * Whether an NVIDIA device's command is one of the UVM device's (/dev/nvidia-uvm: numbers without an ioctl
 * type; the driver's own devices' are all of type 'F'): "uvm REGISTER_GPU".
 */
bool ioctl_is_uvm(uint32_t cmd);

#endif
