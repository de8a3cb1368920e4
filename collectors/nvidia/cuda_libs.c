// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collectors/kit/test_hooks.h"
#include "core/array.h"
#include "collectors/nvidia/cuda_libs.h"
#include "symbols/file_open.h"
#include "symbols/proc_maps.h"
#include "symbols/sym_child.h"

#if defined(__x86_64__)
#define OUR_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OUR_MACHINE EM_AARCH64
#else
#define OUR_MACHINE EM_NONE /* uprobes on libcuda: x86-64 and arm64 only */
#endif

static bool elf_of_ours(int fd)
{
	Elf64_Ehdr h;

	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return false;
	return !memcmp(h.e_ident, ELFMAG, SELFMAG) && h.e_ident[EI_CLASS] == ELFCLASS64 &&
	       h.e_type == ET_DYN && h.e_machine == OUR_MACHINE;
}

/* Adds the library open as fd (kept by the list when added, else closed), reached by path. */
static int add_open(struct cuda_libs *l, int fd, const char *path, const char *how, char *why, size_t size)
{
	struct cuda_lib *lib;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, size, "%s: cannot open it as a file", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!elf_of_ours(fd)) {
		snprintf(why, size, "%s: not a 64-bit shared library for this machine", path);
		close(fd);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dev == st.st_dev && l->v[i].ino == st.st_ino) {
			close(fd);
			return 0;
		}
	lib = array_push(&l->v, &l->n, &l->cap, sizeof(*lib));
	if (!lib) {
		snprintf(why, size, "out of memory");
		close(fd);
		return -1;
	}
	/* attached and read through its descriptor: the very file checked, whatever its path is now */
	snprintf(lib->path, sizeof(lib->path), "/proc/self/fd/%d", fd);
	snprintf(lib->found, sizeof(lib->found), "%s", path);
	snprintf(lib->how, sizeof(lib->how), "%s", how);
	lib->fd = fd;
	lib->dev = st.st_dev;
	lib->ino = st.st_ino;
	return 1;
}

int cuda_libs_add(struct cuda_libs *l, const char *path, const char *how, char *why, size_t size)
{
	/* a path of root's choosing (--libcuda, the loader cache): links followed, never a FIFO waited on */
	return add_open(l, open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), path, how, why, size);
}

static FILE *ldconfig_list(void)
{
	static const char *const tries[] = { "/sbin/ldconfig", "/usr/sbin/ldconfig" };

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		char cmd[64];

		if (access(tries[i], X_OK))
			continue;
		snprintf(cmd, sizeof(cmd), "%s -p 2>/dev/null", tries[i]);
		return popen(cmd, "re");
	}
	return NULL;
}

int cuda_libs_from_ldcache(struct cuda_libs *l)
{
	FILE *f = ldconfig_list();
	char line[1024], why[128];
	int added = 0;

	if (!f)
		return 0;
	/* "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1" */
	while (fgets(line, sizeof(line), f)) {
		const char *name = line + strspn(line, " \t"), *arrow = strstr(line, " => ");

		if (strncmp(name, "libcuda.so.1 ", 13) || !arrow)
			continue;
		line[strcspn(line, "\n")] = '\0';
		added += cuda_libs_add(l, arrow + 4, "loader cache", why, sizeof(why)) > 0;
	}
	pclose(f);
	return added;
}

/* A mapping of a file named libcuda.so* (its last component: the kernel's escapes left as they are). */
static bool maps_libcuda(const struct proc_maps *t, const struct map *m)
{
	const char *path = map_path(t, m), *base = strrchr(path, '/');

	return m->kind == MAP_KIND_FILE && !m->deleted && base && !strncmp(base + 1, "libcuda.so", 10);
}

/*
 * The libcuda a process maps, opened as the mapping itself (map_file_open: its
 * device and inode, no link of its user's followed, no FIFO waited on): 1 added.
 */
static int add_mapped(struct cuda_libs *l, pid_t pid)
{
	struct proc_maps t = { 0 };
	char why[128], how[32];
	int added = 0;

	if (proc_maps_capture(&t, pid))
		return 0;
	for (size_t i = 0; i < t.n; i++) {
		const struct map *m = &t.maps[i];

		if (!maps_libcuda(&t, m))
			continue;
		snprintf(how, sizeof(how), "process %d", (int)pid);
		added = add_open(l, map_file_open(pid, m, map_path(&t, m)), map_path(&t, m), how, why, sizeof(why)) > 0;
		break;
	}
	proc_maps_free(&t);
	return added;
}

int cuda_libs_from_maps(struct cuda_libs *l)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int added = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			added += add_mapped(l, (pid_t)atoi(de->d_name));
	closedir(d);
	return added;
}

void cuda_libs_free(struct cuda_libs *l)
{
	for (size_t i = 0; i < l->n; i++)
		close(l->v[i].fd);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/*
 * A function that starts with endbr64 (CET): probe the instruction after it. The
 * kernel cannot emulate endbr64, so a uprobe on it single-steps a copy (a second
 * trap per call); the next is usually a push or mov it emulates. Every call still
 * passes there, with the arguments and the return address untouched.
 */
static void skip_endbr(int fd, size_t *offsets, size_t n)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const char *off = test_hook("PROBE_ENDBR"); /* test builds, 1: probe it anyway (to measure) */
	unsigned char b[4];

	if (off && !strcmp(off, "1"))
		return;
	for (size_t k = 0; k < n; k++)
		if (offsets[k] && pread(fd, b, sizeof(b), (off_t)offsets[k]) == (ssize_t)sizeof(b) &&
		    !memcmp(b, endbr64, sizeof(b)))
			offsets[k] += sizeof(endbr64);
}

int cuda_lib_offsets(const char *path, const char *const *names, size_t n, size_t *offsets)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	uint64_t got[CUDA_LIB_FUNCS_MAX];
	int err;

	memset(offsets, 0, n * sizeof(*offsets));
	if (fd < 0 || n > CUDA_LIB_FUNCS_MAX) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	err = sym_child_elf_funcs(fd, names, n, got); /* another user's ELF: parsed in the confined child */
	for (size_t k = 0; !err && k < n; k++)
		offsets[k] = (size_t)got[k];
	if (!err)
		skip_endbr(fd, offsets, n);
	close(fd);
	return err ? -1 : 0;
}
