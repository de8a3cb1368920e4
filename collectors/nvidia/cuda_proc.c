// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* What a process's procfs says of its GPUs: its /dev/nvidiaN files, CUDA's variables (cuda_devices.h). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collectors/nvidia/cuda_devices.h"

#define ENV_MAX (256 << 10) /* an environment larger than this is not read: its variables unknown */
#define FDS_MAX 65536 /* descriptors looked at, at most */

static void visible_parse(const char *value, struct cuda_proc_view *v)
{
	const char *at = value;

	v->visible_set = true;
	v->visible_ints = true;
	v->nvisible = 0;
	while (*at && v->visible_ints) {
		char *end;
		unsigned long k = strtoul(at, &end, 10);

		if (end == at || (*end && *end != ',') || k >= NV_GPUS_MAX || v->nvisible == NV_GPUS_MAX)
			v->visible_ints = false; /* a UUID, a MIG device, a negative: not followed */
		else
			v->visible[v->nvisible++] = (unsigned int)k;
		at = *end ? end + 1 : end;
	}
}

void cuda_environ_scan(const char *env, size_t len, struct cuda_proc_view *v)
{
	static const char vis[] = "CUDA_VISIBLE_DEVICES=", order[] = "CUDA_DEVICE_ORDER=";
	const char *at = env, *end = env + len;
	unsigned int seen_order = 0;

	v->visible_set = v->visible_ints = v->pci_order = false;
	v->nvisible = 0;
	v->env_known = len && env[len - 1] == '\0';
	while (v->env_known && at < end) {
		size_t n = strlen(at);

		if (!strncmp(at, vis, sizeof(vis) - 1) && !v->visible_set) /* the first, as getenv finds */
			visible_parse(at + sizeof(vis) - 1, v);
		else if (!strncmp(at, order, sizeof(order) - 1) && !seen_order++)
			v->pci_order = !strcmp(at + sizeof(order) - 1, "PCI_BUS_ID");
		at += n + 1;
	}
}

static void read_environ(uint32_t pid, struct cuda_proc_view *v)
{
	char path[64], *env = malloc(ENV_MAX);
	size_t len = 0;
	ssize_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/environ", pid);
	fd = env ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	while (fd >= 0 && len < ENV_MAX && (got = read(fd, env + len, ENV_MAX - len)) > 0)
		len += (size_t)got;
	if (fd >= 0 && got == 0 && len < ENV_MAX)
		cuda_environ_scan(env, len, v);
	if (fd >= 0)
		close(fd);
	free(env);
}

/* /dev/nvidiaN (N a number: not nvidiactl, nvidia-uvm, nvidia-caps) */
static bool gpu_file(const char *target, unsigned int *minor)
{
	char *end;
	unsigned long n;

	if (strncmp(target, "/dev/nvidia", 11) || target[11] < '0' || target[11] > '9')
		return false;
	n = strtoul(target + 11, &end, 10);
	*minor = (unsigned int)n;
	return !*end && n < 64;
}

static void read_fds(uint32_t pid, struct cuda_proc_view *v)
{
	char path[64], target[64];
	struct dirent *de;
	unsigned int seen = 0, minor;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%u/fd", pid);
	d = opendir(path);
	while (d && seen++ < FDS_MAX && (de = readdir(d))) {
		ssize_t n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);

		if (n <= 0)
			continue;
		target[n] = '\0';
		if (gpu_file(target, &minor) && !(v->held & (1ULL << minor))) {
			v->held |= 1ULL << minor;
			v->nheld++;
		}
	}
	if (d)
		closedir(d);
}

void cuda_proc_read(uint32_t pid, struct cuda_proc_view *v)
{
	memset(v, 0, sizeof(*v));
	read_fds(pid, v);
	read_environ(pid, v);
}
