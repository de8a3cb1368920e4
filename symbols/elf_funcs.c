// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include "symbols/elf_funcs.h"

/* Defined functions and data objects of one symbol table whose names are wanted. */
static void offsets_from(Elf *e, Elf_Scn *symtab, const char *const *names, size_t n, uint64_t *offsets)
{
	Elf_Data *d = elf_getdata(symtab, NULL);
	GElf_Shdr sh;
	size_t count;

	if (!d || !gelf_getshdr(symtab, &sh) || !sh.sh_entsize)
		return;
	count = sh.sh_size / sh.sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		GElf_Shdr text;
		Elf_Scn *in;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym) ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC && GELF_ST_TYPE(sym.st_info) != STT_OBJECT) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (!name)
			continue;
		for (size_t k = 0; k < n; k++) {
			if (offsets[k] || strcmp(name, names[k]))
				continue;
			in = elf_getscn(e, sym.st_shndx);
			if (in && gelf_getshdr(in, &text) && sym.st_value >= text.sh_addr)
				offsets[k] = sym.st_value - text.sh_addr + text.sh_offset;
		}
	}
}

int elf_func_offsets(int fd, const char *const *names, size_t n, uint64_t *offsets)
{
	Elf_Scn *scn = NULL;
	Elf *e;

	memset(offsets, 0, n * sizeof(*offsets));
	if (elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL)))
		return -1;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB))
			offsets_from(e, scn, names, n, offsets);
	}
	elf_end(e);
	return 0;
}
