// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "collectors/kit/cupti_libs.h"
#include "core/cupti_abi.h"
#include "symbols/sym_child.h"

static const char *const cupti_libs_installed[2] = { "/usr/lib/gputop-bpf/" CUPTI_LIB_NAME,
						     "/usr/local/lib/gputop-bpf/" CUPTI_LIB_NAME };

/* The probes' and the semaphores' file offsets: another user's ELF, read by the symbolizing child. */
static int lib_offsets(const char *path, uint64_t *off)
{
	static const char *const names[CUPTI_OFFS] = {
		[CUPTI_OFF_NAME] = GPUTOP_CUPTI_NAME_FN,
		[CUPTI_OFF_STATUS] = GPUTOP_CUPTI_STATUS_FN,
		[CUPTI_OFF_RECORDS] = GPUTOP_CUPTI_RECORDS_FN,
		[CUPTI_OFF_SEMAPHORE] = GPUTOP_CUPTI_SEMAPHORE,
		[CUPTI_OFF_LAUNCH] = GPUTOP_CUPTI_LAUNCH_FN,
		[CUPTI_OFF_LAUNCH_SEMAPHORE] = GPUTOP_CUPTI_LAUNCH_SEMAPHORE,
	};
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), err;

	if (fd < 0)
		return -1;
	err = sym_child_elf_funcs(fd, names, CUPTI_OFFS, off);
	close(fd);
	for (int i = 0; !err && i <= CUPTI_OFF_SEMAPHORE; i++)
		if (!off[i])
			err = -1;
	return err;
}

struct bpf_link *cupti_lib_uprobe(const struct cupti_lib *lib, const struct bpf_program *prog, uint64_t offset,
				  uint64_t ref_ctr)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .ref_ctr_offset = ref_ctr);

	return bpf_program__attach_uprobe_opts(prog, -1, lib->path, offset, &o);
}

void cupti_libs_init(struct cupti_libs *l, cupti_lib_attach_fn attach, void *arg)
{
	l->n = l->failed = 0;
	l->attach = attach;
	l->arg = arg;
}

int cupti_lib_add(struct cupti_libs *l, const char *path)
{
	struct cupti_lib *lib;
	uint64_t off[CUPTI_OFFS];
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dev == st.st_dev && l->v[i].ino == st.st_ino)
			return 0;
	if (l->n == CUPTI_LIBS_MAX || strlen(path) >= sizeof(lib->path) || lib_offsets(path, off)) {
		l->failed++;
		return -1;
	}
	lib = &l->v[l->n];
	*lib = (struct cupti_lib){ .dev = st.st_dev, .ino = st.st_ino };
	strcpy(lib->path, path);
	if (l->attach(lib, off, l->arg)) {
		l->failed++;
		return -1;
	}
	l->n++;
	return 1;
}

/* The library's mappings in one process: each through /proc/PID/map_files/START-END. */
static int scan_process(struct cupti_libs *l, const char *pid)
{
	char path[64], line[PATH_MAX + 128], file[96];
	unsigned long start, end;
	int added = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");
		const char *name = len >= sizeof(CUPTI_LIB_NAME) ? line + len - (sizeof(CUPTI_LIB_NAME) - 1) : NULL;

		line[len] = '\0';
		if (!name || strcmp(name, CUPTI_LIB_NAME) || name[-1] != '/' ||
		    sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		snprintf(file, sizeof(file), "/proc/%s/map_files/%lx-%lx", pid, start, end);
		added += cupti_lib_add(l, file) == 1;
	}
	fclose(f);
	return added;
}

int cupti_libs_scan(struct cupti_libs *l)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int added = 0;

	for (size_t i = 0; i < sizeof(cupti_libs_installed) / sizeof(cupti_libs_installed[0]); i++)
		added += cupti_lib_add(l, cupti_libs_installed[i]) == 1;
	if (!d)
		return added;
	while ((e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			added += scan_process(l, e->d_name);
	closedir(d);
	return added;
}

void cupti_libs_detach(struct cupti_libs *l)
{
	for (size_t i = 0; i < l->n; i++)
		for (int j = CUPTI_LIB_LINKS - 1; j >= 0; j--) {
			bpf_link__destroy(l->v[i].links[j]);
			l->v[i].links[j] = NULL;
		}
	l->n = 0;
}
