// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "collectors/kit/proc_info.h"

/* The dynamic loader's own options that take a value (ld.so --help, glibc 2.36). */
static bool loader_option_with_value(const char *opt)
{
	static const char *const with[] = {
		"--argv0",	   "--library-path",	     "--preload",	   "--audit",
		"--inhibit-rpath", "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask"
	};

	for (size_t i = 0; i < sizeof(with) / sizeof(with[0]); i++)
		if (!strcmp(opt, with[i]))
			return true;
	return false;
}

bool loader_comm(const char *comm)
{
	return !strncmp(comm, "ld-linux", 8) || !strncmp(comm, "ld-musl", 7) || !strcmp(comm, "ld.so");
}

bool loader_program(const char *cmdline, size_t len, char *comm, size_t size)
{
	const char *end = cmdline + len, *arg = cmdline, *argv0 = NULL;

	if (!len || cmdline[len - 1] != '\0') /* not a whole argument list (or rewritten) */
		return false;
	arg += strlen(arg) + 1; /* the loader itself */
	while (arg < end && !strncmp(arg, "--", 2)) {
		bool value = loader_option_with_value(arg);

		if (!strcmp(arg, "--argv0") && arg + strlen(arg) + 1 < end)
			argv0 = arg + strlen(arg) + 1;
		arg += strlen(arg) + 1;
		if (value && arg < end)
			arg += strlen(arg) + 1;
	}
	if (argv0)
		arg = argv0;
	if (arg >= end || !*arg)
		return false;
	if (strrchr(arg, '/'))
		arg = strrchr(arg, '/') + 1;
	snprintf(comm, size, "%.15s", arg); /* as the kernel keeps a name: 15 bytes */
	return *arg != '\0';
}

/* A program started through the dynamic loader (ld-linux-x86-64.so.2 PROGRAM ...): PROGRAM's name. */
static void loader_started(uint32_t pid, char *comm, size_t size)
{
	char path[64], cmdline[4096];
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	len = fread(cmdline, 1, sizeof(cmdline), f);
	fclose(f);
	if (len < sizeof(cmdline))
		loader_program(cmdline, len, comm, size);
}

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
	if (loader_comm(comm))
		loader_started(pid, comm, size);
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
