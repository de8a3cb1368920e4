// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/link_name.h"

bool link_name(const char *path, char *out, size_t size)
{
	char link[PATH_MAX];
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	const char *last;

	if (n <= 0)
		return false;
	link[n] = '\0';
	last = strrchr(link, '/');
	last = last ? last + 1 : link;
	if (!*last || strlen(last) >= size)
		return false;
	memcpy(out, last, strlen(last) + 1);
	return true;
}
