/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Perf map files (/tmp/perf-PID.map): "START SIZE name" lines in hex that JIT
 * runtimes write for their generated code (Python 3.12's -X perf, the JVM's
 * agents, V8). Written by another user: read bounded, every line checked.
 */
#ifndef GPUTOP_SYMBOLS_PERF_MAP_H
#define GPUTOP_SYMBOLS_PERF_MAP_H

#include <stddef.h>
#include <sys/types.h>
#include "symbols/symtab.h"

#define PERF_MAP_FILE_MAX (64u << 20)
#define PERF_MAP_SYMS_MAX (1u << 20)

/*
 * Lines of text into t (initialised here, sorted; the later of two at one
 * address wins), the lines that are not an entry counted in *bad_lines.
 */
int perf_map_parse(struct symtab *t, const char *text, size_t len, size_t *bad_lines);
/* dir/perf-PID.map opened safely (file_open.h) and parsed. 0, or -errno. */
int perf_map_load(struct symtab *t, const char *dir, pid_t pid, uid_t owner);

#endif
