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
#include "collectors/gpu_time/gpu_time_libs.h"
#include "core/cupti_abi.h"
#include "symbols/sym_child.h"
#include "cupti.skel.h"

enum { OFF_NAME, OFF_STATUS, OFF_RECORDS, OFF_SEMAPHORE, OFFS };

/* The probes' and the semaphore's file offsets: another user's ELF, read by the symbolizing child. */
static int lib_offsets(const char *path, uint64_t *off)
{
	static const char *const names[OFFS] = { [OFF_NAME] = GPUTOP_CUPTI_NAME_FN,
						 [OFF_STATUS] = GPUTOP_CUPTI_STATUS_FN,
						 [OFF_RECORDS] = GPUTOP_CUPTI_RECORDS_FN,
						 [OFF_SEMAPHORE] = GPUTOP_CUPTI_SEMAPHORE };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), err;

	if (fd < 0)
		return -1;
	err = sym_child_elf_funcs(fd, names, OFFS, off);
	close(fd);
	for (int i = 0; !err && i < OFFS; i++)
		if (!off[i])
			err = -1;
	return err;
}

/* The name and status probes first, the records' last with the semaphore: the library wakes then. */
static int attach(struct gpu_time_lib *lib, struct cupti_bpf *skel, const uint64_t *off)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o);

	lib->links[0] = bpf_program__attach_uprobe_opts(skel->progs.cupti_name, -1, lib->path, off[OFF_NAME], &o);
	lib->links[1] = bpf_program__attach_uprobe_opts(skel->progs.cupti_status, -1, lib->path, off[OFF_STATUS], &o);
	o.ref_ctr_offset = off[OFF_SEMAPHORE];
	if (lib->links[0] && lib->links[1])
		lib->links[2] =
			bpf_program__attach_uprobe_opts(skel->progs.cupti_records, -1, lib->path, off[OFF_RECORDS], &o);
	if (lib->links[2])
		return 0;
	for (int i = 0; i < 2; i++) {
		bpf_link__destroy(lib->links[i]);
		lib->links[i] = NULL;
	}
	return -1;
}

int gpu_time_lib_add(struct gpu_time_libs *l, struct cupti_bpf *skel, const char *path)
{
	struct gpu_time_lib *lib;
	uint64_t off[OFFS];
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dev == st.st_dev && l->v[i].ino == st.st_ino)
			return 0;
	if (l->n == GPU_TIME_LIBS_MAX || strlen(path) >= sizeof(lib->path) || lib_offsets(path, off)) {
		l->failed++;
		return -1;
	}
	lib = &l->v[l->n];
	*lib = (struct gpu_time_lib){ .dev = st.st_dev, .ino = st.st_ino };
	strcpy(lib->path, path);
	if (attach(lib, skel, off)) {
		l->failed++;
		return -1;
	}
	l->n++;
	return 1;
}

/* The library's mappings in one process: each through /proc/PID/map_files/START-END. */
static int scan_process(struct gpu_time_libs *l, struct cupti_bpf *skel, const char *pid)
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
		const char *name = len >= sizeof(GPU_TIME_LIB_NAME) ? line + len - (sizeof(GPU_TIME_LIB_NAME) - 1) :
								      NULL;

		line[len] = '\0';
		if (!name || strcmp(name, GPU_TIME_LIB_NAME) || name[-1] != '/' ||
		    sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		snprintf(file, sizeof(file), "/proc/%s/map_files/%lx-%lx", pid, start, end);
		added += gpu_time_lib_add(l, skel, file) == 1;
	}
	fclose(f);
	return added;
}

int gpu_time_libs_scan(struct gpu_time_libs *l, struct cupti_bpf *skel)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int added = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			added += scan_process(l, skel, e->d_name);
	closedir(d);
	return added;
}

void gpu_time_libs_detach(struct gpu_time_libs *l)
{
	for (size_t i = 0; i < l->n; i++)
		for (int j = 2; j >= 0; j--) {
			bpf_link__destroy(l->v[i].links[j]);
			l->v[i].links[j] = NULL;
		}
	l->n = 0;
}
