// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include "symbols/cfi_check.h"
#include "symbols/elf_file.h"
#include "symbols/file_open.h"
#include "symbols/unwind.h"

/* A mapped file reported as one module: what opening it needs. */
struct unwind_module {
	struct unwind_proc *u;
	const struct map *m; /* its first mapping (the captured maps outlive u) */
	const char *path;
};

struct unwind_proc {
	pid_t pid;
	Dwfl *dwfl;
	int attached; /* 0: not tried; 1: yes; -1: failed (no module could be opened) */
	struct unwind_module *mods;
	size_t nmods;
	const struct unwind_input *in; /* the copy being unwound */
	struct unwind_result *res;
	bool beyond; /* the walk read above the copied bytes */
	uint64_t files_opened;
	uint64_t cfi_refused; /* files whose CFI cfi_check refused: unwound by frame pointers there */
	enum cfi_verdict cfi_why; /* the first one's reason */
};

/*
 * Whether libdw may interpret e's CFI (cfi_check.h): else the module is given
 * no file, and libdwfl unwinds its frames by the frame pointer (its backend's
 * fallback where a module has no CFI).
 */
static bool cfi_usable(struct unwind_proc *u, Elf *e)
{
	enum cfi_verdict v = cfi_check_elf(e);

	if (v == CFI_OK || v == CFI_NONE)
		return true;
	if (!u->cfi_refused++)
		u->cfi_why = v;
	return false;
}

/*
 * The module's file, opened as the symbolizer opens it, its CFI checked once
 * (libdwfl asks once a module); libdwfl owns fd and Elf after.
 */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	struct unwind_module *um = *userdata;
	int fd;

	(void)mod, (void)name, (void)base, (void)file_name;
	fd = map_file_open(um->u->pid, um->m, um->path);
	um->u->files_opened++;
	if (fd < 0)
		return -1;
	*elfp = elf_file_open(fd); /* pread, never mapped: the owner may truncate it */
	if (*elfp && !cfi_usable(um->u, *elfp)) {
		elf_end(*elfp);
		*elfp = NULL;
	}
	if (!*elfp) {
		close(fd);
		return -1;
	}
	return fd;
}

/* No separate debug files: .eh_frame (and .debug_frame where the file has it) suffice. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwind_proc *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->pid;
}

/* A word of the copied stack; anything else is unknown (the walk stops there). */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_proc *u = arg;
	const struct unwind_input *in = u->in;

	(void)dwfl;
	if (addr >= in->sp && addr - in->sp <= in->len && in->len - (addr - in->sp) >= sizeof(*result)) {
		memcpy(result, in->stack + (addr - in->sp), sizeof(*result));
		return true;
	}
	if (addr >= in->sp && addr - in->sp >= in->len - (in->len >= 8 ? 7 : in->len))
		u->beyond = true;
	return false;
}

/* x86-64 DWARF registers 6 and 7 are rbp and rsp; the pc is the ip. */
static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct unwind_proc *u = thread_arg;
	Dwarf_Word regs[2] = { u->in->bp, u->in->sp };

	if (!dwfl_thread_state_registers(thread, 6, 2, regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->in->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Reports file mappings [i, j) (one file, one of them executable) as a module. */
static void report_file(struct unwind_proc *u, const struct proc_maps *t, size_t i, size_t j,
			uint64_t *prev_end)
{
	const struct map *first = &t->maps[i];
	uint64_t low = first->start >= first->offset ? first->start - first->offset : first->start;
	struct unwind_module *um = &u->mods[u->nmods];
	const char *path = map_path(t, first);
	Dwfl_Module *mod;
	void **ud;

	if (low < *prev_end)
		low = first->start; /* the file's start overlaps the mapping before: from its first page */
	mod = dwfl_report_module(u->dwfl, path, low, t->maps[j - 1].end);
	if (!mod || !dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
		return;
	*um = (struct unwind_module){ .u = u, .m = first, .path = path };
	*ud = um;
	u->nmods++;
	*prev_end = t->maps[j - 1].end;
}

static bool same_file(const struct map *a, const struct map *b)
{
	return b->kind == MAP_KIND_FILE && a->inode == b->inode && a->dev_major == b->dev_major &&
	       a->dev_minor == b->dev_minor && b->start == a->end;
}

/* One module per run of adjacent mappings of one file with code in it. */
static void report_modules(struct unwind_proc *u, const struct proc_maps *t)
{
	uint64_t prev_end = 0;

	dwfl_report_begin(u->dwfl);
	for (size_t i = 0, j; i < t->n; i = j) {
		bool exec = t->maps[i].exec;

		for (j = i + 1; t->maps[i].kind == MAP_KIND_FILE && j < t->n &&
				same_file(&t->maps[j - 1], &t->maps[j]);
		     j++)
			exec |= t->maps[j].exec;
		if (t->maps[i].kind == MAP_KIND_FILE && exec)
			report_file(u, t, i, j, &prev_end);
		else
			prev_end = t->maps[j - 1].end;
	}
	dwfl_report_end(u->dwfl, NULL, NULL);
}

struct unwind_proc *unwind_proc_new(pid_t pid, const struct proc_maps *maps)
{
	struct unwind_proc *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->pid = pid;
	u->mods = calloc(maps->n ? maps->n : 1, sizeof(*u->mods));
	u->dwfl = u->mods ? dwfl_begin(&dwfl_callbacks) : NULL;
	if (!u->dwfl) {
		free(u->mods);
		free(u);
		return NULL;
	}
	report_modules(u, maps);
	return u;
}

void unwind_proc_free(struct unwind_proc *u)
{
	if (!u)
		return;
	dwfl_end(u->dwfl);
	free(u->mods);
	free(u);
}

uint64_t unwind_files_opened(const struct unwind_proc *u)
{
	return u->files_opened;
}

uint64_t unwind_cfi_refused(const struct unwind_proc *u, const char **why)
{
	if (why)
		*why = cfi_verdict_text(u->cfi_why);
	return u->cfi_refused;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwind_proc *u = arg;
	struct unwind_result *r = u->res;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	if (r->n == UNWIND_FRAMES_MAX) {
		r->truncated = true;
		return DWARF_CB_ABORT;
	}
	r->ips[r->n++] = pc;
	return DWARF_CB_OK;
}

void unwind_stack(struct unwind_proc *u, const struct unwind_input *in, struct unwind_result *r)
{
	memset(r, 0, sizeof(*r));
	u->in = in;
	u->res = r;
	u->beyond = false;
	if (!u->attached)
		u->attached = dwfl_attach_state(u->dwfl, NULL, u->pid, &thread_callbacks, u) ? 1 : -1;
	if (u->attached > 0)
		r->complete = !dwfl_getthread_frames(u->dwfl, u->pid, frame_cb, u) && !r->truncated;
	if (!r->n)
		r->ips[r->n++] = in->ip;
	if (u->beyond && in->cut)
		r->truncated = true;
	u->in = NULL;
	u->res = NULL;
}
