// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "symbols/demangle.h"
#include "symbols/file_open.h"
#include "symbols/perf_map.h"
#include "symbols/symbolizer.h"

/* A file's symbols at most (libtorch_cuda.so's .dynsym has some hundreds of thousands). */
#define FILE_SYMS_MAX (4u << 20)
#define FILE_NAMES_MAX (256u << 20)
/* A file's module name where its symbols passed the cache's byte bound (elf_cache.h). */
#define SYMS_TOO_LARGE " [symbols too large]"
/* Where the file could not be opened, or libelf could not read it or its symbol table (cut, offsets past its end). */
#define NOT_READ " [not read]"

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

int symbolizer_init(struct symbolizer *s, const struct symbolizer_config *cfg)
{
	memset(s, 0, sizeof(*s));
	copy_str(s->debug_dir, sizeof(s->debug_dir),
		 cfg && cfg->debug_dir ? cfg->debug_dir : "/usr/lib/debug");
	copy_str(s->perf_map_dir, sizeof(s->perf_map_dir),
		 cfg && cfg->perf_map_dir ? cfg->perf_map_dir : "/tmp");
	s->ksyms_err = 1;
	s->vdso_err = 1;
	return elf_cache_init(&s->cache, cfg && cfg->cache_entries ? cfg->cache_entries : 256,
			      cfg && cfg->cache_bytes ? cfg->cache_bytes : 256u << 20);
}

void symbolizer_free(struct symbolizer *s)
{
	elf_cache_free(&s->cache);
	kallsyms_free(&s->ksyms);
	vdso_free(&s->vdso);
}

int sym_process_capture(struct sym_process *p, pid_t pid)
{
	int err;

	static _Atomic uint64_t captures;

	memset(p, 0, sizeof(*p));
	p->id = ++captures;
	p->pid = pid;
	p->perf_err = 1;
	err = proc_maps_capture(&p->maps, pid);
	if (!err)
		err = proc_owner(pid, &p->uid);
	if (err) /* gone after its maps were read: what was read is freed here, never by the caller */
		sym_process_free(p);
	return err;
}

void sym_process_free(struct sym_process *p)
{
	proc_maps_free(&p->maps);
	symtab_free(&p->perf);
}

static struct elf_key map_key(const struct map *m)
{
	struct elf_key k = { .dev_major = m->dev_major,
			     .dev_minor = m->dev_minor,
			     .inode = m->inode };

	memcpy(k.build_id, m->build_id, m->build_id_len);
	k.build_id_len = m->build_id_len;
	return k;
}

/* Symbols of the separate debug file of info's build id, if installed and of that build id. */
static int debug_syms(struct symbolizer *s, const struct elf_info *info, struct symtab *t)
{
	int fd = debug_file_open(s->debug_dir, info->build_id, info->build_id_len), err = -ENOENT;
	struct elf_info dinfo;
	Elf *e;

	if (fd < 0)
		return fd;
	e = elf_file_open(fd);
	if (e && !elf_file_info(e, &dinfo) && dinfo.build_id_len == info->build_id_len &&
	    !memcmp(dinfo.build_id, info->build_id, info->build_id_len))
		err = elf_file_syms(e, t);
	if (e)
		elf_end(e);
	close(fd);
	return err;
}

/* The symbols of an opened ELF: .symtab; where stripped, the debug file's; else .dynsym. elf_file_syms' result. */
static int file_syms(struct symbolizer *s, Elf *e, const struct elf_info *info, struct symtab *t)
{
	symtab_init(t, FILE_SYMS_MAX, FILE_NAMES_MAX);
	if (!info->has_symtab && info->build_id_len && !debug_syms(s, info, t))
		return 0;
	symtab_free(t);
	symtab_init(t, FILE_SYMS_MAX, FILE_NAMES_MAX);
	return elf_file_syms(e, t);
}

/* The cache's entry of m's file: opened, read and put there at the first miss. */
static struct elf_entry *file_entry(struct symbolizer *s, struct sym_process *p, struct map *m)
{
	struct elf_entry *entry = NULL;
	struct elf_info info;
	struct elf_key key;
	struct symtab t;
	Elf *e = NULL;
	int fd = -1;

	if (m->open_failed)
		return NULL;
	key = map_key(m);
	if (m->elf_known && (entry = elf_cache_get(&s->cache, &key)))
		goto out; /* a hit: the entry may be another process's mapping's */
	if (m->syms_too_large) /* read once, its entry evicted since: not read again */
		return NULL;
	fd = map_file_open(p->pid, m, map_path(&p->maps, m));
	s->files_opened++;
	if (fd >= 0)
		e = elf_file_open(fd);
	if (!e || elf_file_info(e, &info)) {
		m->open_failed = true;
		goto out;
	}
	memcpy(m->build_id, info.build_id, info.build_id_len);
	m->build_id_len = info.build_id_len;
	m->elf_known = true;
	key = map_key(m);
	entry = elf_cache_get(&s->cache, &key);
	if (!entry) {
		int err = file_syms(s, e, &info, &t);

		if ((entry = elf_cache_put(&s->cache, &key, &info, &t)))
			entry->unread = err == -EIO;
	}
out:
	m->syms_too_large |= entry && entry->too_large;
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return entry;
}

static void set_symbol(struct frame *out, const char *name, uint64_t offset)
{
	demangle(name, out->name, sizeof(out->name));
	out->offset = offset;
}

/* An address in a mapped file: its symbol, else module+offset (the ELF's address where known). */
static void file_frame(struct symbolizer *s, struct sym_process *p, struct map *m, uint64_t addr,
		       struct frame *out)
{
	const char *path = map_path(&p->maps, m), *base = strrchr(path, '/');
	uint64_t off = map_file_offset(m, addr), vaddr;
	struct elf_entry *e = file_entry(s, p, m);
	const struct sym *sym;
	const char *name = base ? base + 1 : path;
	const char *said = m->syms_too_large ? SYMS_TOO_LARGE : m->open_failed || (e && e->unread) ? NOT_READ : "";

	/* said in the frame: "libx.so [symbols too large]+0x...", "libx.so [not read]+0x..." */
	snprintf(out->module, sizeof(out->module), "%.*s%s", (int)(sizeof(out->module) - 1 - strlen(said)), name, said);
	out->module_offset = true;
	out->offset = off;
	if (!e || !elf_offset_to_vaddr(&e->info, off, &vaddr))
		return;
	out->offset = vaddr;
	sym = symtab_find(&e->syms, vaddr);
	if (sym)
		set_symbol(out, symtab_name(&e->syms, sym), vaddr - sym->addr);
}

/* JIT code: the process's perf map, read at the first address that needs it. */
static bool perf_frame(struct symbolizer *s, struct sym_process *p, uint64_t addr,
		       struct frame *out)
{
	const struct sym *sym;

	if (p->perf_err == 1)
		p->perf_err = perf_map_load(&p->perf, s->perf_map_dir, p->pid, p->uid);
	if (p->perf_err || !(sym = symtab_find(&p->perf, addr)))
		return false;
	set_symbol(out, symtab_name(&p->perf, sym), addr - sym->addr);
	copy_str(out->module, sizeof(out->module), "[perf-map]");
	return true;
}

/* [vdso]: our own image's symbols, where the mapping is as large as it (the same ABI's image). */
static void vdso_frame(struct symbolizer *s, const struct map *m, uint64_t addr, struct frame *out)
{
	const struct sym *sym;
	uint64_t vaddr;

	copy_str(out->module, sizeof(out->module), "[vdso]");
	out->offset = addr - m->start;
	out->module_offset = true;
	if (s->vdso_err == 1)
		s->vdso_err = vdso_load(&s->vdso);
	if (s->vdso_err || m->end - m->start != s->vdso.map_bytes ||
	    !elf_offset_to_vaddr(&s->vdso.info, addr - m->start, &vaddr) ||
	    !(sym = symtab_find(&s->vdso.syms, vaddr)))
		return;
	set_symbol(out, symtab_name(&s->vdso.syms, sym), vaddr - sym->addr);
}

void symbolize_user(struct symbolizer *s, struct sym_process *p, uint64_t addr, struct frame *out)
{
	struct map *m = proc_maps_find(&p->maps, addr);

	memset(out, 0, sizeof(*out));
	if (m && m->kind == MAP_KIND_FILE) {
		file_frame(s, p, m, addr, out);
		return;
	}
	if (m && m->kind == MAP_KIND_VDSO) {
		vdso_frame(s, m, addr, out);
		return;
	}
	if (perf_frame(s, p, addr, out))
		return;
	if (m && m->kind == MAP_KIND_SPECIAL) /* [heap], [stack], memfd:...: named, no offset */
		copy_str(out->module, sizeof(out->module), map_path(&p->maps, m));
}

int symbolizer_load_kernel(struct symbolizer *s)
{
	if (s->ksyms_err == 1)
		s->ksyms_err = kallsyms_load(&s->ksyms);
	return s->ksyms_err;
}

void symbolize_kernel(struct symbolizer *s, uint64_t addr, struct frame *out)
{
	const char *name;
	uint64_t off;

	memset(out, 0, sizeof(*out));
	symbolizer_load_kernel(s);
	copy_str(out->module, sizeof(out->module), "[kernel]");
	if (!s->ksyms_err && (name = kallsyms_find(&s->ksyms, addr, &off))) {
		copy_str(out->name, sizeof(out->name), name);
		out->offset = off;
	}
}
