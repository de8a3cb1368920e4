// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/share_dir.h"

bool share_dir_for(const char *exe, const char *sub, char *buf, size_t size)
{
	const char *slash = strrchr(exe, '/');
	size_t dir_len = slash ? (size_t)(slash - exe) : 0;
	struct stat st;
	int n;

	if (dir_len < 4 || strncmp(exe + dir_len - 4, "/bin", 4)) /* not PREFIX/bin/: the source tree */
		return false;
	n = snprintf(buf, size, "%.*s/share/gputop-bpf/%s", (int)(dir_len - 4), exe, sub);
	return n > 0 && (size_t)n < size && !stat(buf, &st) && S_ISDIR(st.st_mode);
}

/* The running binary's path into exe[PATH_MAX]; false where it cannot be read. */
static bool self_exe(char *exe)
{
	ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	return true;
}

bool share_dir(const char *sub, char *buf, size_t size)
{
	char exe[PATH_MAX];

	return self_exe(exe) && share_dir_for(exe, sub, buf, size);
}

bool installed_lib(const char *name, char *buf, size_t size)
{
	char exe[PATH_MAX];
	const char *slash;
	size_t dir_len;
	struct stat st;
	int n;

	if (!self_exe(exe) || !(slash = strrchr(exe, '/')))
		return false;
	dir_len = (size_t)(slash - exe);
	if (dir_len < 4 || strncmp(exe + dir_len - 4, "/bin", 4)) /* not PREFIX/bin/: the source tree */
		return false;
	n = snprintf(buf, size, "%.*s/lib/gputop-bpf/%s", (int)(dir_len - 4), exe, name);
	return n > 0 && (size_t)n < size && !stat(buf, &st) && S_ISREG(st.st_mode);
}
