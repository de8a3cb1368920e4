// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The hostile corpus of tests/bpf/hostile-corpus.sh (issue 41): crafted ELF
 * and DWARF files, written from <elf.h> by tests/unit/hostile_elf.h's writer,
 * each with a function's worth of text at HOSTILE_DATA_START where the client
 * (tests/cuda/cuda-client.c, map) writes its trampoline, so that every launch's
 * stack holds a return address inside the file.
 *
 *   hostile-corpus DIR [BUILD_ID_HEX]
 *
 * Writes DIR/NAME.so for each entry and DIR/manifest, a line "NAME OFFSET" each
 * (the trampoline's file offset). BUILD_ID_HEX: the build id build-id-elsewhere
 * claims (another file's, whose debug file is installed), else one of zeros.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include "tests/unit/hostile_elf.h"

#define TEXT_SIZE 64
#define LONG_NAME (256 * 1024) /* a symbol's name of 256 KiB */
#define BOMB_OPS (4u << 20) /* the issue's: 4 Mi DW_CFA_remember_state */

static const char *dir;
static FILE *manifest;
static const uint8_t text[TEXT_SIZE];

static void path_of(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s.so", dir, name);
}

static void listed(const char *name, unsigned offset)
{
	fprintf(manifest, "%s 0x%x\n", name, offset);
}

static const struct hostile_section text_section = { .name = ".text",
						     .type = SHT_PROGBITS,
						     .flags = SHF_ALLOC | SHF_EXECINSTR,
						     .data = text,
						     .size = TEXT_SIZE };

/* .text, then a .symtab of syms[0..n) (syms[0] the null one) and its .strtab strs[0..slen). */
static int write_syms(const char *name, const Elf64_Sym *syms, size_t n, const char *strs, size_t slen)
{
	struct hostile_section sec[] = {
		text_section,
		{ .name = ".symtab",
		  .type = SHT_SYMTAB,
		  .link = 3,
		  .info = 1,
		  .entsize = sizeof(Elf64_Sym),
		  .data = syms,
		  .size = n * sizeof(*syms) },
		{ .name = ".strtab", .type = SHT_STRTAB, .data = strs, .size = slen },
	};
	char path[4096];

	path_of(path, sizeof(path), name);
	return hostile_elf_write(path, sec, 3);
}

/* One function over the text, named name[0..len) (no NUL added: the caller's bytes as they are). */
static int one_function(const char *file, const char *name, size_t len)
{
	Elf64_Sym syms[2] = { { 0 },
			      { .st_name = 1,
				.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				.st_shndx = 1,
				.st_value = HOSTILE_DATA_START,
				.st_size = TEXT_SIZE } };
	char *strs = calloc(1, len + 1);
	int err;

	if (!strs)
		return -1;
	memcpy(strs + 1, name, len);
	err = write_syms(file, syms, 2, strs, len + 1);
	free(strs);
	return err;
}

/* pwrite of len bytes at off into the entry's file. */
static int patch(const char *name, uint64_t off, const void *b, size_t len)
{
	char path[4096];
	int fd, err;

	path_of(path, sizeof(path), name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	err = pwrite(fd, b, len, (off_t)off) == (ssize_t)len ? 0 : -1;
	return close(fd) || err ? -1 : 0;
}

/* The entry's ELF header and its section header i (written by write_syms: read back). */
static int read_back(const char *name, Elf64_Ehdr *eh, unsigned i, Elf64_Shdr *sh)
{
	char path[4096];
	FILE *f;
	int ok;

	path_of(path, sizeof(path), name);
	if (!(f = fopen(path, "rb")))
		return -1;
	ok = fread(eh, sizeof(*eh), 1, f) == 1 && !fseek(f, (long)(eh->e_shoff + i * sizeof(*sh)), SEEK_SET) &&
	     fread(sh, sizeof(*sh), 1, f) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* ok: a well-formed function "hostile_ok" (the control); trunc-*: it cut in its ELF header, its section headers. */
static int well_formed_and_cut(void)
{
	char path[4096];
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	const char *cuts[] = { "trunc-ehdr", "trunc-shdrs" };

	for (size_t k = 0; k < 3; k++)
		if (one_function(k ? cuts[k - 1] : "ok", "hostile_ok", sizeof("hostile_ok")))
			return -1;
	listed("ok", HOSTILE_DATA_START);
	if (read_back("trunc-shdrs", &eh, 0, &sh))
		return -1;
	path_of(path, sizeof(path), "trunc-ehdr");
	if (truncate(path, 40)) /* 40 of the header's 64 bytes: the trampoline lies past the end, in its page */
		return -1;
	listed("trunc-ehdr", 0x100);
	path_of(path, sizeof(path), "trunc-shdrs");
	if (truncate(path, (off_t)(eh.e_shoff + sizeof(Elf64_Shdr) + 20))) /* one header and a piece */
		return -1;
	listed("trunc-shdrs", HOSTILE_DATA_START);
	return 0;
}

/* offsets-past-end: every section's offset and the segment's 1 TiB on; huge-counts: 2^60 symbols, 65,534 segments. */
static int offsets_and_counts(void)
{
	const uint64_t far = 1ull << 40, many = (1ull << 60) * sizeof(Elf64_Sym);
	const Elf64_Half phnum = 0xfffe;
	Elf64_Ehdr eh;
	Elf64_Shdr sh;

	if (one_function("offsets-past-end", "hostile_far", sizeof("hostile_far")) ||
	    one_function("huge-counts", "hostile_many", sizeof("hostile_many")) ||
	    read_back("offsets-past-end", &eh, 0, &sh))
		return -1;
	for (unsigned i = 1; i < eh.e_shnum; i++)
		if (patch("offsets-past-end", eh.e_shoff + i * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_offset),
			  &far, sizeof(far)))
			return -1;
	if (patch("offsets-past-end", eh.e_phoff + offsetof(Elf64_Phdr, p_offset), &far, sizeof(far)) ||
	    patch("huge-counts", eh.e_shoff + 2 * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_size), &many,
		  sizeof(many)) ||
	    patch("huge-counts", offsetof(Elf64_Ehdr, e_phnum), &phnum, sizeof(phnum)))
		return -1;
	listed("offsets-past-end", HOSTILE_DATA_START);
	listed("huge-counts", HOSTILE_DATA_START);
	return 0;
}

/* symtab-outside: names past the string table, values past the file and wrapping, a section past the table. */
static int symbols_outside(void)
{
	static const char strs[] = "\0inside";
	const Elf64_Sym syms[] = {
		{ 0 },
		{ .st_name = 0x7ffffff0,
		  .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
		  .st_shndx = 1,
		  .st_value = HOSTILE_DATA_START,
		  .st_size = TEXT_SIZE },
		{ .st_name = 1,
		  .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
		  .st_shndx = 1,
		  .st_value = 0xfffffffffffff000ull,
		  .st_size = 0x10000 },
		{ .st_name = 1,
		  .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
		  .st_shndx = 999,
		  .st_value = 1ull << 40,
		  .st_size = ~0ull },
	};

	listed("symtab-outside", HOSTILE_DATA_START);
	return write_syms("symtab-outside", syms, sizeof(syms) / sizeof(syms[0]), strs, sizeof(strs));
}

/* long-name: 256 KiB; not-utf8: bytes no UTF-8 decoder takes; mangled-bomb: 2^40 demangled. */
static int names(void)
{
	static const char bad[] = "bad\xff\xfe name\xc3(\xed\xa0\x80\xf8\x88\x80\x80\x80 end";
	char *longname = calloc(1, LONG_NAME + 1);
	int err;

	if (!longname)
		return -1;
	memset(longname, 'n', LONG_NAME);
	err = one_function("long-name", longname, LONG_NAME + 1) || one_function("not-utf8", bad, sizeof(bad)) ||
	      one_function("mangled-bomb", HOSTILE_MANGLED_EXPONENTIAL, sizeof(HOSTILE_MANGLED_EXPONENTIAL));
	free(longname);
	listed("long-name", HOSTILE_DATA_START);
	listed("not-utf8", HOSTILE_DATA_START);
	listed("mangled-bomb", HOSTILE_DATA_START);
	return err ? -1 : 0;
}

/* .text and an .eh_frame whose one FDE over it runs prog[0..len). */
static int write_cfi(const char *name, const uint8_t *prog, size_t len)
{
	struct hostile_section sec[] = { text_section,
					 { .name = ".eh_frame", .type = SHT_PROGBITS, .flags = SHF_ALLOC } };
	uint8_t *eh = hostile_eh_frame(HOSTILE_DATA_START, TEXT_SIZE, prog, len, &sec[1].size);
	char path[4096];
	int err;

	if (!eh)
		return -1;
	sec[1].data = eh;
	path_of(path, sizeof(path), name);
	err = hostile_elf_write(path, sec, 2);
	free(eh);
	listed(name, HOSTILE_DATA_START);
	return err;
}

/*
 * cfi-bomb: 4 Mi DW_CFA_remember_state (the issue's: 266 ms a copy); cfi-cycle: a frame that unwinds to
 * itself (the CFA its own sp, the return address its own pc).
 */
static int cfi(void)
{
	static const uint8_t cycle[] = { DW_CFA_def_cfa, 7, 0, DW_CFA_same_value, 16 };
	uint8_t *bomb = malloc(BOMB_OPS);
	int err;

	if (!bomb)
		return -1;
	memset(bomb, DW_CFA_remember_state, BOMB_OPS);
	err = write_cfi("cfi-bomb", bomb, BOMB_OPS) || write_cfi("cfi-cycle", cycle, sizeof(cycle));
	free(bomb);
	return err ? -1 : 0;
}

/* .text and a .note.gnu.build-id of descsz bytes, id[0..len) in it (no symbols: the debug file is asked for). */
static int write_build_id(const char *name, uint32_t descsz, const uint8_t *id, size_t len)
{
	uint8_t note[12 + 4 + 20] = { 0 };
	struct hostile_section sec[] = {
		text_section,
		{ .name = ".note.gnu.build-id",
		  .type = SHT_NOTE,
		  .flags = SHF_ALLOC,
		  .data = note,
		  .size = sizeof(note) },
	};
	char path[4096];

	hostile_put_u32(note, 0, 4);
	hostile_put_u32(note, 4, descsz);
	hostile_put_u32(note, 8, NT_GNU_BUILD_ID);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, id, len < 20 ? len : 20);
	path_of(path, sizeof(path), name);
	listed(name, HOSTILE_DATA_START);
	return hostile_elf_write(path, sec, 2);
}

/* build-id-elsewhere: another file's id (its debug file's symbols name our text); build-id-huge: 4 GiB of id. */
static int build_ids(const char *hex)
{
	uint8_t id[20] = { 0 };
	size_t n = 0;

	for (; hex && n < sizeof(id) && sscanf(hex + 2 * n, "%2hhx", &id[n]) == 1; n++)
		;
	return write_build_id("build-id-elsewhere", 20, id, sizeof(id)) ||
			       write_build_id("build-id-huge", 0xfffffff0u, id, sizeof(id)) ?
		       -1 :
		       0;
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: hostile-corpus DIR [BUILD_ID_HEX]\n");
		return 2;
	}
	dir = argv[1];
	snprintf(path, sizeof(path), "%s/manifest", dir);
	if (!(manifest = fopen(path, "w"))) {
		perror(path);
		return 1;
	}
	if (well_formed_and_cut() || offsets_and_counts() || symbols_outside() || names() || cfi() ||
	    build_ids(argc == 3 ? argv[2] : NULL) || fclose(manifest)) {
		fprintf(stderr, "hostile-corpus: writing into %s failed: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}
