/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The vDSO's symbols (__vdso_clock_gettime, ...), read from our own copy: the
 * kernel maps one image into every process of an ABI, so a process's [vdso]
 * of the same size is that image. Our own memory, not another user's file.
 */
#ifndef GPUTOP_SYMBOLS_VDSO_H
#define GPUTOP_SYMBOLS_VDSO_H

#include <stddef.h>
#include "symbols/elf_file.h"
#include "symbols/symtab.h"

struct vdso {
	struct elf_info info;
	struct symtab syms;
	size_t map_bytes; /* the image's size rounded to pages, as its mapping's */
};

/* Our vDSO's symbols into v. 0, or -ENOENT (none, or not ELF). */
int vdso_load(struct vdso *v);
void vdso_free(struct vdso *v);

#endif
