/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hostile ELF files for the tests, written from <elf.h> (no toolchain): a
 * 64-bit shared object of the sections given, each at the address of its file
 * offset under one PT_LOAD that covers the whole file, and a process that maps
 * such files as the monitor would have captured it (the unwinder fixture's PID, above
 * any pid_max: the file opened by its path, checked by device and inode).
 */
#ifndef GPUTOP_TESTS_HOSTILE_ELF_H
#define GPUTOP_TESTS_HOSTILE_ELF_H

#include <dwarf.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "symbols/symbolizer.h"
#include "tests/unit/unwind_fixture.h"

struct hostile_section {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, entsize;
	const void *data;
	size_t size;
	uint64_t addr; /* set by hostile_elf_write: its file offset */
};

#define HOSTILE_SECTIONS_MAX 8
#define HOSTILE_DATA_START 0x1000

/* Writes the file; each section's addr set. 0, or -1. */
static inline int hostile_elf_write(const char *path, struct hostile_section *sec, size_t n)
{
	Elf64_Shdr sh[HOSTILE_SECTIONS_MAX + 2] = { { 0 } };
	char names[512] = "";
	size_t nlen = 1, off = HOSTILE_DATA_START, shoff;
	Elf64_Ehdr eh = { .e_type = ET_DYN,
			  .e_machine = EM_X86_64,
			  .e_version = EV_CURRENT,
			  .e_phoff = sizeof(Elf64_Ehdr),
			  .e_ehsize = sizeof(Elf64_Ehdr),
			  .e_phentsize = sizeof(Elf64_Phdr),
			  .e_phnum = 1,
			  .e_shentsize = sizeof(Elf64_Shdr),
			  .e_shnum = (Elf64_Half)(n + 2),
			  .e_shstrndx = (Elf64_Half)(n + 1) };
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_align = 0x1000 };
	FILE *f = fopen(path, "wb");

	if (!f || n > HOSTILE_SECTIONS_MAX)
		return f ? fclose(f), -1 : -1;
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64, eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	for (size_t i = 0; i < n; i++) {
		off = (off + 15) & ~(size_t)15;
		sec[i].addr = off;
		sh[i + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)nlen,
					  .sh_type = sec[i].type,
					  .sh_flags = sec[i].flags,
					  .sh_addr = off,
					  .sh_offset = off,
					  .sh_size = sec[i].size,
					  .sh_link = sec[i].link,
					  .sh_info = sec[i].info,
					  .sh_addralign = 16,
					  .sh_entsize = sec[i].entsize };
		fseek(f, (long)off, SEEK_SET);
		fwrite(sec[i].data, 1, sec[i].size, f);
		off += sec[i].size;
		nlen += (size_t)snprintf(names + nlen, sizeof(names) - nlen, "%s", sec[i].name) + 1;
	}
	nlen += (size_t)snprintf(names + nlen, sizeof(names) - nlen, ".shstrtab") + 1;
	sh[n + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)(nlen - sizeof(".shstrtab")),
				  .sh_type = SHT_STRTAB,
				  .sh_offset = off,
				  .sh_size = nlen,
				  .sh_addralign = 1 };
	fseek(f, (long)off, SEEK_SET);
	fwrite(names, 1, nlen, f);
	shoff = (off + nlen + 7) & ~(size_t)7;
	eh.e_shoff = shoff;
	ph.p_filesz = ph.p_memsz = shoff + (n + 2) * sizeof(Elf64_Shdr);
	fseek(f, (long)shoff, SEEK_SET);
	fwrite(sh, sizeof(sh[0]), n + 2, f);
	fseek(f, 0, SEEK_SET);
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(&ph, sizeof(ph), 1, f);
	return fclose(f) ? -1 : 0;
}

/* P<P<...P<int,int>...>> 40 deep, 287 bytes mangled (g++ of typedef P<T39,T39> T40; void f(T40 *)): demangled, 2^40 */
#define HOSTILE_MANGLED_EXPONENTIAL                                                                                        \
	"_Z1fP1PIS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_IS_" \
	"IS_IS_IS_IS_IiiES0_ES1_ES2_ES3_ES4_ES5_ES6_ES7_ES8_ES9_ESA_ESB_ESC_ESD_ESE_ESF_ESG_ESH_ESI_ESJ_ESK_ESL_ESM_ESN_E" \
	"SO_ESP_ESQ_ESR_ESS_EST_ESU_ESV_ESW_ESX_ESY_ESZ_ES10_ES11_ES12_E"

static inline size_t hostile_put_u32(uint8_t *b, size_t o, uint32_t v)
{
	memcpy(b + o, &v, 4);
	return o + 4;
}

/*
 * .eh_frame: a CIE (zR, udata4 locations; CFA rsp+8, the return address at
 * CFA-8) and one FDE over text whose program is prog[0..len). Its size into
 * *size; NULL without memory.
 */
static inline uint8_t *hostile_eh_frame(uint32_t text_addr, uint32_t text_size, const uint8_t *prog, size_t len,
					size_t *size)
{
	static const uint8_t cie[] = {
		0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, DW_EH_PE_udata4, DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16,
		1, 0, 0
	};
	size_t fde_len = (4 + 4 + 4 + 1 + len + 3) & ~(size_t)3, o;
	uint8_t *b = calloc(1, 4 + sizeof(cie) + 4 + fde_len + 4);

	if (!b)
		return NULL;
	o = hostile_put_u32(b, 0, sizeof(cie));
	memcpy(b + o, cie, sizeof(cie));
	o += sizeof(cie);
	o = hostile_put_u32(b, o, (uint32_t)fde_len);
	o = hostile_put_u32(b, o, (uint32_t)o); /* from this field back to the CIE, at 0 */
	o = hostile_put_u32(b, o, text_addr);
	o = hostile_put_u32(b, o, text_size);
	b[o++] = 0; /* no augmentation data */
	memcpy(b + o, prog, len); /* then DW_CFA_nop to the FDE's end, and a 0 length: the end */
	*size = 4 + sizeof(cie) + 4 + fde_len + 4;
	return b;
}

#define HOSTILE_MAP_STEP 0x10000000ull

/*
 * A process that maps each of paths[0..n) whole, executable, the first at start,
 * each next HOSTILE_MAP_STEP further: p as the monitor would have captured it. 0, or -1.
 */
static inline int hostile_process(struct sym_process *p, const char *const *paths, size_t n, uint64_t start)
{
	char text[4 * 4200] = "";
	size_t len = 0;
	struct stat st;

	for (size_t i = 0; i < n; i++, start += HOSTILE_MAP_STEP) {
		if (stat(paths[i], &st) || len >= sizeof(text))
			return -1;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%llx-%llx r-xp 00000000 %02x:%02x %llu %s\n",
					(unsigned long long)start,
					(unsigned long long)(start + ((st.st_size + 0xfff) & ~0xfffll)),
					major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino, paths[i]);
	}
	memset(p, 0, sizeof(*p));
	p->pid = UNWIND_FIXTURE_PID;
	p->uid = getuid();
	p->perf_err = 1;
	return len < sizeof(text) && !proc_maps_parse(&p->maps, text, len) ? 0 : -1;
}

#endif
