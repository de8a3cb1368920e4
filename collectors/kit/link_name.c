// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/link_name.h"

/* The last part of a path, where it is a name (not "", "." or ".."). */
static const char *last_name(const char *path)
{
	const char *last = strrchr(path, '/');

	last = last ? last + 1 : path;
	return *last && strcmp(last, ".") && strcmp(last, "..") ? last : NULL;
}

bool link_name(const char *path, char *out, size_t size)
{
	char link[PATH_MAX], *resolved;
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	const char *last;

	if (n <= 0)
		return false;
	link[n] = '\0';
	resolved = realpath(path, NULL); /* the target's own name, whatever the link's text ends with */
	last = last_name(resolved ? resolved : link);
	if (!last || strlen(last) >= size) {
		free(resolved);
		return false;
	}
	memmove(out, last, strlen(last) + 1);
	free(resolved);
	return true;
}

bool device_driver_name(const char *devdir, char *out, size_t size)
{
	char path[PATH_MAX], bus[32];

	snprintf(path, sizeof(path), "%s/driver", devdir);
	if (link_name(path, out, size) && strcmp(out, "faux_driver"))
		return true;
	snprintf(path, sizeof(path), "%s/subsystem", devdir); /* a PCI device's own name is its address */
	if (!link_name(path, bus, sizeof(bus)) || (strcmp(bus, "platform") && strcmp(bus, "faux")))
		return false;
	return link_name(devdir, out, size);
}
