// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <gelf.h>
#include <pthread.h>
#include <string.h>
#include "symbols/elf_file.h"

static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static bool version_ok;

static void version_init(void)
{
	version_ok = elf_version(EV_CURRENT) != EV_NONE;
}

static Elf *checked(Elf *e)
{
	if (e && elf_kind(e) != ELF_K_ELF) {
		elf_end(e);
		return NULL;
	}
	return e;
}

Elf *elf_file_open(int fd)
{
	pthread_once(&version_once, version_init);
	/*
	 * Read with pread, never mapped: the file's owner may truncate it while we
	 * read, and a mapping's pages past the new end would raise SIGBUS here.
	 */
	return version_ok ? checked(elf_begin(fd, ELF_C_READ, NULL)) : NULL;
}

Elf *elf_file_memory(char *image, size_t size)
{
	pthread_once(&version_once, version_init);
	return version_ok ? checked(elf_memory(image, size)) : NULL;
}

/* A GNU build id note in data, if any. */
static bool note_build_id(Elf_Data *data, struct elf_info *info)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (off < data->d_size && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz > 0 &&
		    nh.n_descsz <= BUILD_ID_MAX) {
			memcpy(info->build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
			info->build_id_len = (uint8_t)nh.n_descsz;
			return true;
		}
		if (next <= off)
			break;
		off = next;
	}
	return false;
}

static void read_sections(Elf *e, struct elf_info *info)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *data;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize && sh.sh_size / sh.sh_entsize > 1)
			info->has_symtab = true;
		if (sh.sh_type == SHT_NOTE && !info->build_id_len && sh.sh_size <= ELF_NOTES_MAX &&
		    (data = elf_getdata(scn, NULL)) && data->d_type == ELF_T_NHDR)
			note_build_id(data, info);
	}
}

static void read_segments(Elf *e, struct elf_info *info)
{
	size_t i, n;
	GElf_Phdr ph;
	Elf_Data *data;

	if (elf_getphdrnum(e, &n))
		return;
	for (i = 0; i < n && i < 4096; i++) {
		if (!gelf_getphdr(e, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD && info->n_loads < ELF_LOADS_MAX &&
		    ph.p_offset <= UINT64_MAX - ph.p_filesz) {
			info->loads[info->n_loads++] =
				(struct elf_load){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
		} else if (ph.p_type == PT_NOTE && !info->build_id_len &&
			   ph.p_filesz <= ELF_NOTES_MAX &&
			   (data = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
							ELF_T_NHDR))) {
			note_build_id(data, info);
		}
	}
}

int elf_file_info(Elf *e, struct elf_info *info)
{
	GElf_Ehdr eh;

	memset(info, 0, sizeof(*info));
	if (!gelf_getehdr(e, &eh))
		return -EINVAL;
	info->type = eh.e_type;
	read_sections(e, info); /* section notes first: PT_NOTE only where sections are gone */
	read_segments(e, info);
	return 0;
}

/* The table and its strings within ELF_TABLE_MAX (they are read whole into memory). */
static bool sizes_ok(Elf *e, const GElf_Shdr *sh)
{
	GElf_Shdr strs;
	Elf_Scn *scn = elf_getscn(e, sh->sh_link);

	return sh->sh_size <= ELF_TABLE_MAX && scn && gelf_getshdr(scn, &strs) &&
	       strs.sh_type == SHT_STRTAB && strs.sh_size <= ELF_TABLE_MAX;
}

static int add_syms(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct symtab *t)
{
	size_t i, n, entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *data = sizes_ok(e, sh) ? elf_getdata(scn, NULL) : NULL;
	GElf_Sym s;

	if (!data || !entsize || data->d_type != ELF_T_SYM)
		return -EIO;
	n = data->d_size / entsize;
	for (i = 1; i < n && i < ELF_SYMS_SCAN_MAX; i++) {
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
		    !s.st_value)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (symtab_add(t, s.st_value, s.st_size, name, strlen(name)) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

static Elf_Scn *find_table(Elf *e, uint32_t type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/*
 * Every section header the ELF header counts can be read (no table at all is no fault: sections may be
 * stripped); libelf counts none where the table passes the file's end.
 */
static bool sections_readable(Elf *e)
{
	Elf_Scn *scn;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t n;

	if (!gelf_getehdr(e, &eh) || elf_getshdrnum(e, &n))
		return false;
	return n ? (scn = elf_getscn(e, n - 1)) && gelf_getshdr(scn, &sh) : !eh.e_shoff;
}

int elf_file_syms(Elf *e, struct symtab *t)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_table(e, SHT_SYMTAB, &sh);
	int err;

	if (!scn)
		scn = find_table(e, SHT_DYNSYM, &sh);
	if (!scn)
		return sections_readable(e) ? -ENOENT : -EIO;
	err = add_syms(e, scn, &sh, t);
	if (err)
		return err;
	symtab_sort(t, false);
	return t->n ? 0 : -ENOENT;
}

bool elf_offset_to_vaddr(const struct elf_info *info, uint64_t offset, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < info->n_loads; i++) {
		const struct elf_load *l = &info->loads[i];

		if (offset >= l->offset && offset - l->offset < l->filesz) {
			*vaddr = offset - l->offset + l->vaddr;
			return true;
		}
	}
	return false;
}

void build_id_hex(const uint8_t *id, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * len] = '\0';
}
