// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/sysroot.h"
#include "collectors/kit/drm_cards.h"
#include "collectors/kit/link_name.h"

/* Whether name is "card" and a number (its index into *index). */
static bool drm_card_name(const char *name, unsigned int *index)
{
	unsigned long n = 0;
	const char *p = name + 4;

	if (strncmp(name, "card", 4) || !*p || strlen(p) > 6)
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		n = n * 10 + (unsigned long)(*p - '0');
	}
	*index = (unsigned int)n;
	return true;
}

static int by_index(const void *a, const void *b)
{
	const struct drm_card *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

size_t drm_cards(struct drm_card *out, size_t max)
{
	char dir[PATH_MAX / 4];
	struct dirent *de;
	unsigned int index;
	size_t n = 0;
	DIR *d;

	if (!sys_path(dir, sizeof(dir), "class/drm") || !(d = opendir(dir)))
		return 0;
	while (n < max && (de = readdir(d))) {
		struct drm_card *c = &out[n];

		if (!drm_card_name(de->d_name, &index))
			continue;
		memset(c, 0, sizeof(*c));
		c->index = index;
		snprintf(c->name, sizeof(c->name), "%.15s", de->d_name);
		if (!sys_path(c->devdir, sizeof(c->devdir), "class/drm/%s/device", de->d_name))
			continue;
		link_name(c->devdir, c->bus_id, sizeof(c->bus_id));
		device_driver_name(c->devdir, c->driver, sizeof(c->driver));
		n++;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), by_index);
	return n;
}
