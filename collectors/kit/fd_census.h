/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The open files of character devices of a few majors in every process: by a BPF
 * task-file iterator (one pass in the kernel) where it loads, else by a walk of
 * /proc/<pid>/fd. Both give the same (pid, fd) list; the iterator is much
 * cheaper on hosts with many processes and files (bench/fd_census.sh).
 */
#ifndef GPUTOP_FD_CENSUS_H
#define GPUTOP_FD_CENSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fd_ref {
	uint32_t pid, fd;
};

struct fd_census;

/* Loads the iterator unless walk_only; never NULL but on allocation failure. The first
 * FD_ITER_MAJORS (8) majors count. */
struct fd_census *fd_census_open(const unsigned int *majors, size_t n, bool walk_only);
/* Looks for these majors from the next take on. */
void fd_census_set_majors(struct fd_census *c, const unsigned int *majors, size_t n);
/* "BPF task-file iterator" or "/proc walk" (and why: the iterator's load error). */
const char *fd_census_how(const struct fd_census *c);
/* This moment's files, sorted by pid then fd; *out is reused across calls. -1 on failure. */
int fd_census_take(struct fd_census *c, struct fd_ref **out, size_t *n, size_t *cap);
void fd_census_close(struct fd_census *c);

#endif
