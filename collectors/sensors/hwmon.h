/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A GPU's hwmon sensors (Documentation/hwmon/sysfs-interface.rst; amdgpu,
 * i915, xe and nouveau register one under the device): temperatures by label,
 * power, its cap, the energy counter, the fan, clocks by label. Each reading is
 * there or not; none is guessed.
 */
#ifndef GPUTOP_SENSORS_HWMON_H
#define GPUTOP_SENSORS_HWMON_H

#include <stdbool.h>
#include <stdint.h>

enum hwmon_temp { HT_GPU, HT_HOTSPOT, HT_MEM, HT_COUNT };
enum hwmon_freq { HF_GFX, HF_MEM, HF_COUNT };

struct hwmon_reading {
	bool has_temp[HT_COUNT];
	double temp_c[HT_COUNT];
	bool has_power, has_cap, has_energy, has_fan;
	double power_w, cap_w, fan_rpm;
	uint64_t energy_uj; /* cumulative */
	bool has_freq[HF_COUNT];
	double freq_mhz[HF_COUNT];
};

/* The first hwmon directory under devdir (devdir/hwmon/hwmonN) read into r; false when none. */
bool hwmon_read(const char *devdir, struct hwmon_reading *r);

#endif
