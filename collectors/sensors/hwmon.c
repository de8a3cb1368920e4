// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "collectors/kit/sysfs_read.h"
#include "collectors/sensors/hwmon.h"

#define MAX_INDEX 8 /* temp1..temp8, freq1..freq8: more than any GPU driver registers */

/* devdir/hwmon/hwmonN into dir; false when the device has none. */
static bool hwmon_dir(const char *devdir, char *dir, size_t size)
{
	char parent[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(parent, sizeof(parent), "%s/hwmon", devdir);
	if (!(d = opendir(parent)))
		return false;
	while (!found && (de = readdir(d)))
		if (!strncmp(de->d_name, "hwmon", 5) && de->d_name[5])
			found = snprintf(dir, size, "%s/%s", parent, de->d_name) < (int)size;
	closedir(d);
	return found;
}

static int temp_kind(const char *label)
{
	static const struct {
		const char *label;
		enum hwmon_temp kind;
	} labels[] = { { "edge", HT_GPU },	 { "gpu", HT_GPU },	 { "pkg", HT_GPU },
		       { "junction", HT_HOTSPOT }, { "hotspot", HT_HOTSPOT }, { "mem", HT_MEM },
		       { "vram", HT_MEM } };

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (!strcasecmp(label, labels[i].label))
			return (int)labels[i].kind;
	return -1;
}

/* temp<i>_input in millidegrees; by label, an unlabelled first one is the GPU's. */
static void read_temps(const char *dir, struct hwmon_reading *r)
{
	for (int i = 1; i <= MAX_INDEX; i++) {
		char label[32];
		int64_t milli;
		int kind;

		if (!sysfs_read_s64_at(&milli, dir, "temp%d_input", i))
			continue;
		kind = sysfs_read_line_at(label, sizeof(label), dir, "temp%d_label", i) ? temp_kind(label) :
											HT_GPU;
		if (kind < 0 || r->has_temp[kind])
			continue;
		r->has_temp[kind] = true;
		r->temp_c[kind] = (double)milli / 1000.0;
	}
}

/* freq<i>_input in Hz, labelled sclk (graphics) or mclk (memory). */
static void read_freqs(const char *dir, struct hwmon_reading *r)
{
	for (int i = 1; i <= MAX_INDEX; i++) {
		char label[32];
		uint64_t hz;
		int kind;

		if (!sysfs_read_u64_at(&hz, dir, "freq%d_input", i) ||
		    !sysfs_read_line_at(label, sizeof(label), dir, "freq%d_label", i))
			continue;
		kind = !strcmp(label, "sclk") ? HF_GFX : !strcmp(label, "mclk") ? HF_MEM : -1;
		if (kind < 0 || r->has_freq[kind])
			continue;
		r->has_freq[kind] = true;
		r->freq_mhz[kind] = (double)hz / 1e6;
	}
}

bool hwmon_read(const char *devdir, struct hwmon_reading *r)
{
	char dir[PATH_MAX];
	uint64_t v;

	memset(r, 0, sizeof(*r));
	if (!hwmon_dir(devdir, dir, sizeof(dir)))
		return false;
	read_temps(dir, r);
	read_freqs(dir, r);
	if (sysfs_read_u64_at(&v, dir, "power1_average") || sysfs_read_u64_at(&v, dir, "power1_input"))
		r->has_power = true, r->power_w = (double)v / 1e6;
	if ((sysfs_read_u64_at(&v, dir, "power1_cap") || sysfs_read_u64_at(&v, dir, "power1_max")) &&
	    v) /* 0: no limit */
		r->has_cap = true, r->cap_w = (double)v / 1e6;
	if (sysfs_read_u64_at(&v, dir, "energy1_input"))
		r->has_energy = true, r->energy_uj = v;
	if (sysfs_read_u64_at(&v, dir, "fan1_input"))
		r->has_fan = true, r->fan_rpm = (double)v;
	return true;
}
