// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "collectors/kit/sysfs_read.h"

long sysfs_read_bytes(const char *path, void *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (got < size) {
		n = read(fd, (char *)buf + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return n < 0 ? -1 : (long)got;
}

/* The whole file as a string when it is short (attributes are); false otherwise. */
static bool read_short(const char *path, char *buf, size_t size)
{
	long n = sysfs_read_bytes(path, buf, size - 1);

	if (n < 0 || (size_t)n >= size - 1)
		return false;
	buf[n] = 0;
	return memchr(buf, 0, (size_t)n) == NULL;
}

/* The text after a number: only spaces and at most one final newline. */
static bool only_space_after(const char *end)
{
	while (*end == ' ')
		end++;
	return !*end || !strcmp(end, "\n");
}

bool sysfs_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	unsigned long long n;

	if (!read_short(path, buf, sizeof(buf)) || buf[0] < '0' || buf[0] > '9')
		return false;
	errno = 0;
	n = strtoull(buf, &end, 10);
	if (errno || !only_space_after(end))
		return false;
	*v = n;
	return true;
}

bool sysfs_read_s64(const char *path, int64_t *v)
{
	char buf[64], *end;
	const char *digits;
	long long n;

	if (!read_short(path, buf, sizeof(buf)))
		return false;
	digits = buf[0] == '-' ? buf + 1 : buf;
	if (*digits < '0' || *digits > '9')
		return false;
	errno = 0;
	n = strtoll(buf, &end, 10);
	if (errno || !only_space_after(end))
		return false;
	*v = n;
	return true;
}

bool sysfs_read_line(const char *path, char *out, size_t size)
{
	char buf[256];
	size_t n;

	if (!read_short(path, buf, sizeof(buf)))
		return false;
	n = strcspn(buf, "\n");
	if (buf[n] && buf[n + 1])
		return false; /* more than one line */
	if (n >= size)
		return false;
	memcpy(out, buf, n);
	out[n] = 0;
	return true;
}

bool sysfs_read_u64_at(uint64_t *v, const char *dir, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = path_vformat(path, sizeof(path), dir, fmt, ap);
	va_end(ap);
	return ok && sysfs_read_u64(path, v);
}

bool sysfs_read_s64_at(int64_t *v, const char *dir, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = path_vformat(path, sizeof(path), dir, fmt, ap);
	va_end(ap);
	return ok && sysfs_read_s64(path, v);
}

bool sysfs_read_line_at(char *out, size_t size, const char *dir, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = path_vformat(path, sizeof(path), dir, fmt, ap);
	va_end(ap);
	return ok && sysfs_read_line(path, out, size);
}
