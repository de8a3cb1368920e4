// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/sysroot.h"

static const char *const defaults[] = { [SYSROOT_SYS] = "/sys", [SYSROOT_PROC] = "/proc" };
static char roots[2][PATH_MAX / 2];

int sysroot_set(enum sysroot which, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	while (n > 1 && dir[n - 1] == '/')
		n--; /* "fixtures/" and "fixtures" alike */
	if (n >= sizeof(roots[which]))
		return -1;
	memcpy(roots[which], dir ? dir : "", n);
	roots[which][n] = 0;
	return 0;
}

const char *sysroot(enum sysroot which)
{
	return roots[which][0] ? roots[which] : defaults[which];
}

bool path_vformat(char *buf, size_t size, const char *dir, const char *fmt, va_list ap)
{
	int n = snprintf(buf, size, "%s/", strcmp(dir, "/") ? dir : "");
	int m;

	if (n < 0 || (size_t)n >= size)
		goto too_long;
	m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	if (m < 0 || (size_t)m >= size - (size_t)n)
		goto too_long;
	return true;
too_long:
	if (size)
		buf[0] = 0;
	return false;
}

bool sys_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = path_vformat(buf, size, sysroot(SYSROOT_SYS), fmt, ap);
	va_end(ap);
	return ok;
}

bool proc_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = path_vformat(buf, size, sysroot(SYSROOT_PROC), fmt, ap);
	va_end(ap);
	return ok;
}
