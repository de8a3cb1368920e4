/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* mockdrm's one driver ioctl: run a job of a known duration on its render engine. */
#ifndef MOCKDRM_UAPI_H
#define MOCKDRM_UAPI_H

#include <linux/types.h>

/* Blocks until the job is done: the render engine is busy for ns nanoseconds of it. */
struct drm_mockdrm_run {
	__u64 ns;
};

#define DRM_MOCKDRM_RUN 0x00
#define DRM_IOCTL_MOCKDRM_RUN DRM_IOW(DRM_COMMAND_BASE + DRM_MOCKDRM_RUN, struct drm_mockdrm_run)

#endif
