// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "symbols/vdso.h"

/* The image's size: the end of its section headers or of its last segment, the further. */
static size_t image_size(const Elf64_Ehdr *eh)
{
	const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);
	size_t size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	int i;

	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	return size;
}

int vdso_load(struct vdso *v)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	size_t size, page = (size_t)sysconf(_SC_PAGESIZE);
	char *copy;
	Elf *e;
	int err = -ENOENT;

	memset(v, 0, sizeof(*v));
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	size = image_size(eh);
	if (!size || size > (1u << 20) || !(copy = malloc(size)))
		return -ENOENT;
	memcpy(copy, eh, size);
	e = elf_file_memory(copy, size);
	symtab_init(&v->syms, 4096, 1u << 20);
	if (e && !elf_file_info(e, &v->info))
		err = elf_file_syms(e, &v->syms);
	if (e)
		elf_end(e);
	free(copy);
	v->map_bytes = (size + page - 1) / page * page;
	return err;
}

void vdso_free(struct vdso *v)
{
	symtab_free(&v->syms);
	memset(v, 0, sizeof(*v));
}
