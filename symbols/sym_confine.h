/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The symbolizing child's confinement, applied to itself once it holds only
 * its channel: root's user becomes nobody's, every capability and the bounding
 * set dropped, no new privileges, its data and files bounded, and a seccomp
 * filter that lets it read and write descriptors it was given, manage its
 * memory and end; opening anything by a path fails (EACCES), every other
 * system call fails (EPERM), a call of another ABI kills it.
 */
#ifndef GPUTOP_SYMBOLS_SYM_CONFINE_H
#define GPUTOP_SYMBOLS_SYM_CONFINE_H

#include <stddef.h>

/* 0, or -errno with what failed in why: the child must not go on unconfined. Its data may grow data_bytes more. */
int sym_confine(size_t data_bytes, char *why, size_t size);

#endif
