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

bool share_dir(const char *sub, char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	return share_dir_for(exe, sub, buf, size);
}
