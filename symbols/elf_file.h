/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the symbolizer reads of an ELF file, with libelf, bounded: its loaded
 * segments (a file offset to the address the symbols use), its GNU build id,
 * and its function symbols (.symtab, else .dynsym). The file is another
 * user's: every count, offset and string index is checked by libelf's
 * accessors or here.
 */
#ifndef GPUTOP_SYMBOLS_ELF_FILE_H
#define GPUTOP_SYMBOLS_ELF_FILE_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/symtab.h"

#define ELF_LOADS_MAX 32
#define BUILD_ID_MAX 20
/* Symbols looked at in one table, whatever its header says. */
#define ELF_SYMS_SCAN_MAX (16u << 20)
/* A symbol or string table larger than this is not read (libtorch_cuda.so's are some 10s of MB). */
#define ELF_TABLE_MAX (256u << 20)
/* Nor a note section or segment larger than this. */
#define ELF_NOTES_MAX (1u << 20)

struct elf_load {
	uint64_t offset, filesz, vaddr;
};

struct elf_info {
	uint16_t type; /* ET_EXEC, ET_DYN, ... */
	struct elf_load loads[ELF_LOADS_MAX];
	size_t n_loads;
	uint8_t build_id[BUILD_ID_MAX];
	uint8_t build_id_len; /* 0: none */
	bool has_symtab; /* .symtab with symbols (not stripped) */
};

/* An ELF handle on fd (read with pread: no mapping to fault on); NULL if it is not ELF. */
Elf *elf_file_open(int fd);
/* One on a copy of size bytes (the caller keeps image alive); NULL if it is not ELF. */
Elf *elf_file_memory(char *image, size_t size);
/* The segments, build id and whether it has .symtab. 0, or -EINVAL when it is not usable. */
int elf_file_info(Elf *e, struct elf_info *info);
/*
 * Its function symbols into t (sorted): .symtab, else .dynsym. 0, -ENOENT (none), -ENOMEM, or -EIO: the
 * table could not be read (its data past the file's end or the bounds, the section headers cut).
 */
int elf_file_syms(Elf *e, struct symtab *t);
/* The address in the ELF's own terms of a file offset: through the PT_LOAD that holds it. */
bool elf_offset_to_vaddr(const struct elf_info *info, uint64_t offset, uint64_t *vaddr);
/* The build id in hex into buf (2 * len + 1 bytes). */
void build_id_hex(const uint8_t *id, size_t len, char *buf);

#endif
