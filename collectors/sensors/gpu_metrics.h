/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * amdgpu's gpu_metrics (device/gpu_metrics): a binary table the firmware fills,
 * versioned by its header's format_revision and content_revision
 * (kgd_pp_interface.h: struct metrics_table_header, gpu_metrics_vX_Y). The
 * layouts the kernel defines are decoded by the offsets and units of their
 * definition; any other revision is reported as unknown, never read by a guess.
 * Fields the firmware leaves unset (all ones) are unknown.
 */
#ifndef GPUTOP_SENSORS_GPU_METRICS_H
#define GPUTOP_SENSORS_GPU_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gm_field { GM_TEMP, GM_HOTSPOT, GM_MEM_TEMP, GM_BUSY, GM_POWER, GM_GFX_MHZ, GM_MEM_MHZ, GM_FAN, GM_COUNT };

struct gpu_metrics {
	unsigned int format, content; /* the header's revisions */
	bool known; /* a layout this version decodes */
	bool has[GM_COUNT];
	double v[GM_COUNT]; /* °C, °C, °C, %, W, MHz, MHz, RPM */
};

/* Decodes the n bytes of a gpu_metrics file; false when they are not one (shorter than its header says). */
bool gpu_metrics_decode(const uint8_t *buf, size_t n, struct gpu_metrics *out);

#endif
