/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The file offsets of named functions (and data objects: a USDT semaphore) a
 * shared library defines (what a uprobe takes): its .dynsym and .symtab read
 * with libelf. Another user's file: run in
 * the symbolizing child (sym_child_elf_funcs), never in the monitor.
 */
#ifndef GPUTOP_SYMBOLS_ELF_FUNCS_H
#define GPUTOP_SYMBOLS_ELF_FUNCS_H

#include <stddef.h>
#include <stdint.h>

/* offsets[k] of names[k] in the file fd, 0 where it defines none; 0, or -1 when fd is no ELF. */
int elf_func_offsets(int fd, const char *const *names, size_t n, uint64_t *offsets);

#endif
