// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/irq/irq_lines.h"

/* request_irq() names used by GPU drivers (the driver name, in each case). */
static const char *const gpu_handlers[] = {
	"amdgpu", "radeon", "i915", "xe", "nvidia", "nouveau", "v3d", "vc4", "panfrost",
	"panthor", "lima", "etnaviv", "msm", "msm_gpu", "kgsl-3d0", "pvr", "powervr", "mali",
};

bool irq_actions_are_gpu(const char *actions)
{
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", actions);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < sizeof(gpu_handlers) / sizeof(gpu_handlers[0]); i++)
			if (!strcmp(tok, gpu_handlers[i]))
				return true;
	return false;
}

static int read_actions(const char *dir, const char *irq, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s/actions", dir, irq);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1; /* a line without handlers has an empty actions file */
}

int irq_lines_scan(const char *sysfs_irq_dir, struct irq_line **out)
{
	DIR *d = opendir(sysfs_irq_dir);
	struct irq_line *lines = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	*out = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char actions[sizeof(lines->actions)], *end;
		unsigned long irq = strtoul(de->d_name, &end, 10);

		if (*end || end == de->d_name)
			continue;
		if (read_actions(sysfs_irq_dir, de->d_name, actions, sizeof(actions)))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct irq_line *p = realloc(lines, ncap * sizeof(*p));

			if (!p) {
				free(lines);
				closedir(d);
				return -ENOMEM;
			}
			lines = p;
			cap = ncap;
		}
		lines[n].irq = (uint32_t)irq;
		memcpy(lines[n].actions, actions, sizeof(actions));
		lines[n].gpu = irq_actions_are_gpu(actions);
		n++;
	}
	closedir(d);
	*out = lines;
	return (int)n;
}
