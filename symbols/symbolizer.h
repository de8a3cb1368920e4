/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Addresses to frames: a user address of a process through its mappings
 * (captured at first sight of the process), the ELF symbols of the mapped file
 * (or its separate debug file by build id), demangled, or a perf map for JIT
 * code; a kernel address through kallsyms. Everything read is another user's
 * and is treated as hostile (see file_open.h, elf_file.h, proc_maps.h).
 */
#ifndef GPUTOP_SYMBOLS_SYMBOLIZER_H
#define GPUTOP_SYMBOLS_SYMBOLIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "symbols/elf_cache.h"
#include "symbols/frame.h"
#include "symbols/kallsyms.h"
#include "symbols/proc_maps.h"
#include "symbols/symtab.h"
#include "symbols/vdso.h"

struct symbolizer_config {
	const char *debug_dir; /* separate debug files: NULL is /usr/lib/debug */
	const char *perf_map_dir; /* perf-PID.map files: NULL is /tmp */
	size_t cache_entries; /* files whose symbols are kept: 0 is 256 */
	size_t cache_bytes; /* their bytes: 0 is 256 MiB */
};

struct symbolizer {
	char debug_dir[512];
	char perf_map_dir[512];
	struct elf_cache cache;
	struct kallsyms ksyms;
	int ksyms_err; /* 1: not loaded yet */
	struct vdso vdso;
	int vdso_err; /* 1: not loaded yet */
	uint64_t files_opened; /* mapped files opened (a cache hit opens none) */
};

/* One process as first seen: its mappings and its user, and its perf map when first needed. */
struct sym_process {
	uint64_t id; /* this capture's, unique in the monitor (the symbolizing child knows it by it) */
	pid_t pid;
	uid_t uid;
	struct proc_maps maps;
	struct symtab perf;
	int perf_err; /* 1: not read yet */
};

int symbolizer_init(struct symbolizer *s, const struct symbolizer_config *cfg);
void symbolizer_free(struct symbolizer *s);
/* Captures pid's mappings and user now (call it at the first sight of a PID). 0, or -errno: p holds nothing. */
int sym_process_capture(struct sym_process *p, pid_t pid);
void sym_process_free(struct sym_process *p);
/* The frame of a user address of p. */
void symbolize_user(struct symbolizer *s, struct sym_process *p, uint64_t addr, struct frame *out);
/*
 * kallsyms read now, if not yet (it shows addresses only to a privileged
 * reader: call it before privileges go). 0, or -errno.
 */
int symbolizer_load_kernel(struct symbolizer *s);
/* The frame of a kernel address: "[kernel]" where kallsyms hides or lacks it. */
void symbolize_kernel(struct symbolizer *s, uint64_t addr, struct frame *out);

#endif
