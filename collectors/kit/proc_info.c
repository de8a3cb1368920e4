// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "collectors/kit/proc_info.h"

void proc_comm(uint32_t pid, char *comm, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(comm, size, "%s", pid ? "?" : "[kernel]");
	if (!pid)
		return;
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, (int)size, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}

bool proc_gone(uint32_t pid)
{
	return pid && kill((pid_t)pid, 0) && errno == ESRCH;
}

/* Runtimes name their cgroups "<prefix><64 hex>[.scope]" or put the id as a path component. */
static const char *const runtimes[][2] = {
	{ "docker-", "docker" }, { "docker/", "docker" },   { "cri-containerd-", "containerd" },
	{ "crio-", "cri-o" },    { "libpod-", "podman" },   { "containerd/", "containerd" },
};

static bool hex64(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

void cgroup_container(const char *path, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t r = 0; r < sizeof(runtimes) / sizeof(runtimes[0]); r++) {
		const char *at = path;
		size_t plen = strlen(runtimes[r][0]);

		while ((at = strstr(at, runtimes[r][0]))) {
			at += plen;
			if (strnlen(at, 64) == 64 && hex64(at)) {
				snprintf(buf, size, "%s:%.12s", runtimes[r][1], at);
				return;
			}
		}
	}
}

void proc_cgroup(uint32_t pid, char *buf, size_t size)
{
	char path[64], line[1024], id[40];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	/* "0::/path" (v2) or "N:controllers:/path" (v1): the last field, first line that has one */
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		p = p ? strchr(p + 1, ':') : NULL;
		if (!p)
			continue;
		p++;
		p[strcspn(p, "\n")] = '\0';
		cgroup_container(p, id, sizeof(id));
		snprintf(buf, size, "%s", id[0] ? id : p);
		break;
	}
	fclose(f);
}
