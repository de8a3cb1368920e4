/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A process's mappings (/proc/PID/maps) as a sorted table, captured while the
 * process lives: every field of every line checked, lines that fail left out
 * and counted, the count of mappings and the bytes of paths bounded.
 */
#ifndef GPUTOP_SYMBOLS_PROC_MAPS_H
#define GPUTOP_SYMBOLS_PROC_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The kernel's own default bound (vm.max_map_count) is 65530. */
#define PROC_MAPS_MAX 65536
/* A maps file of more is not read (65536 lines of a 4096-byte path). */
#define PROC_MAPS_FILE_MAX (64u << 20)
#define PROC_MAPS_PATH_MAX 4096

enum map_kind {
	MAP_KIND_FILE, /* a file's pages: path, dev, inode */
	MAP_KIND_ANON, /* no name: heap of a JIT, anonymous memory */
	MAP_KIND_VDSO, /* [vdso] */
	MAP_KIND_SPECIAL, /* another bracketed name: [heap], [stack], [vvar], [anon:NAME] */
};

struct map {
	uint64_t start, end; /* [start, end) */
	uint64_t offset; /* in the file, of start */
	uint64_t inode;
	uint32_t dev_major, dev_minor;
	bool exec; /* 'x' in its permissions */
	bool deleted; /* the file was unlinked since: " (deleted)" */
	enum map_kind kind;
	uint32_t path; /* offset in the table's pool; "" when none */
	/* what the symbolizer learned of the file, kept with the mapping */
	uint8_t build_id[20];
	uint8_t build_id_len;
	bool elf_known; /* build_id read (or found absent) */
	bool open_failed; /* not opened, or not an ELF file: not tried again */
	bool syms_too_large; /* its symbols passed the cache's byte bound: not read again */
};

struct proc_maps {
	pid_t pid;
	struct map *maps;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
	size_t bad_lines; /* lines that were not a mapping */
	bool full; /* PROC_MAPS_MAX reached */
};

/*
 * One maps line (without its '\n') into *m, its path (the kernel's "\012" for a
 * newline kept as it is) into path[size]. 0, or -EINVAL for anything else.
 */
int proc_maps_parse_line(const char *line, size_t len, struct map *m, char *path, size_t size);
/* A whole maps text into t (emptied first), sorted, overlaps dropped. 0 or -ENOMEM. */
int proc_maps_parse(struct proc_maps *t, const char *text, size_t len);
/* /proc/PID/maps (under the procfs root) read now. 0 or -errno. */
int proc_maps_capture(struct proc_maps *t, pid_t pid);
/* The mapping that holds addr, or NULL. */
struct map *proc_maps_find(const struct proc_maps *t, uint64_t addr);
static inline const char *map_path(const struct proc_maps *t, const struct map *m)
{
	return t->pool + m->path;
}
/* The file offset of addr in m (addr within m). */
static inline uint64_t map_file_offset(const struct map *m, uint64_t addr)
{
	return addr - m->start + m->offset;
}
void proc_maps_free(struct proc_maps *t);

#endif
