/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * GPU memory totals that drivers export in sysfs, per device and region:
 * amdgpu's mem_info_{vram,vis_vram,gtt}_{used,total} and xe's per-tile
 * physical_vram_size_bytes (size only). i915 exports none (its query ioctl
 * and debugfs do).
 */
#ifndef GPUTOP_GPU_SYSFS_H
#define GPUTOP_GPU_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_mem_total {
	char dev[64]; /* PCI address: the device link's name */
	char region[16]; /* vram, vis_vram, gtt; xe: vram0, vram1 ... as its fdinfo names them */
	char driver[16];
	uint64_t used, size;
	bool has_used;
};

#define GPU_SYSFS_MAX_CARDS 64

/* The totals of the DRM cards (drm_cards.h) into out; returns how many (at most max). */
size_t gpu_sysfs_memory(struct gpu_mem_total *out, size_t max);

#endif
