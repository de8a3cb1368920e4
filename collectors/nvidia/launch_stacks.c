// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "core/svg.h"
#include "bpf/nvidia.h"
#include "collectors/kit/map_walk.h"
#include "collectors/nvidia/launch_stacks.h"
#include "collectors/nvidia/nv_kernels.h"
#include "core/array.h"
#include "core/privileges.h"
#include "symbols/flame_svg.h"
#include "symbols/folded.h"

struct stack_kernel {
	uint64_t handle;
	uint32_t tgid;
	char name[NV_KERNEL_NAME]; /* demangled; "[kernel 0x...]" when none was seen */
};

struct stack_proc {
	uint32_t pid;
	bool captured; /* its mappings were read (it may have exited before) */
	char comm[16];
	struct sym_process sp;
	struct unwind_proc *unw; /* its DWARF unwinder, made at its first stack copy */
	uint64_t launches, dwarf_launches, dwarf_samples; /* at the end: all, those of keys with chains, their samples */
};

int launch_stacks_open(struct launch_stacks *ls, const char *path, char *why, size_t size)
{
	int err;

	memset(ls, 0, sizeof(*ls));
	ls->out = privileges_fopen_as_user(path, "w");
	if (!ls->out) {
		err = -errno;
		snprintf(why, size, "--stacks %s: %s", path, strerror(errno));
		return err;
	}
	if (svg_path(path)) {
		ls->svg = ls->out;
		ls->out = open_memstream(&ls->folded, &ls->folded_len);
		if (!ls->out) {
			err = -errno;
			snprintf(why, size, "--stacks: %s", strerror(errno));
			fclose(ls->svg);
			ls->svg = NULL;
			return err;
		}
	}
	err = symbolizer_init(&ls->sym, &(struct symbolizer_config){ 0 });
	if (err) {
		snprintf(why, size, "--stacks: the symbolizer: %s", strerror(-err));
		fclose(ls->out);
		ls->out = NULL;
	}
	return err;
}

static struct stack_proc *proc_find(struct launch_stacks *ls, uint32_t pid)
{
	for (size_t i = 0; i < ls->nprocs; i++)
		if (ls->procs[i].pid == pid)
			return &ls->procs[i];
	return NULL;
}

struct tick_arg {
	struct launch_stacks *ls;
	struct proc_cache *pcache;
};

static struct stack_kernel *kernel_find(struct launch_stacks *ls, uint32_t tgid, uint64_t handle)
{
	for (size_t i = 0; i < ls->nkernels; i++)
		if (ls->kernels[i].tgid == tgid && ls->kernels[i].handle == handle)
			return &ls->kernels[i];
	return NULL;
}

/* A kernel launched for the first time: its name now, while its process lives. */
static void kernel_sight(struct launch_stacks *ls, const struct nv_stack_key *k)
{
	struct stack_kernel *sk;

	if ((sk = kernel_find(ls, k->tgid, k->handle)) && sk->name[0] != '[')
		return;
	if (!sk) {
		if (!array_push(&ls->kernels, &ls->nkernels, &ls->kcap, sizeof(*sk)))
			return;
		sk = &ls->kernels[ls->nkernels - 1];
		sk->tgid = k->tgid;
		sk->handle = k->handle;
	}
	nv_kernel_name(ls->names_fd, k->tgid, k->handle, sk->name, sizeof(sk->name));
}

/* The process of tgid; at its first sight its mappings and name now, while it lives. */
static struct stack_proc *proc_sight(struct launch_stacks *ls, uint32_t tgid, struct proc_cache *pcache)
{
	struct stack_proc *p = proc_find(ls, tgid);
	const struct proc_entry *pe;

	if (p || !(p = array_push(&ls->procs, &ls->nprocs, &ls->cap, sizeof(*p))))
		return p;
	p->pid = tgid;
	p->captured = !sym_process_capture(&p->sp, (pid_t)tgid);
	pe = pcache ? proc_cache_get(pcache, tgid) : NULL;
	snprintf(p->comm, sizeof(p->comm), "%s", pe && pe->comm[0] ? pe->comm : "?");
	return p;
}

static bool first_sight(const void *key, void *value, void *arg)
{
	const struct nv_stack_key *k = key;
	struct tick_arg *a = arg;

	(void)value;
	kernel_sight(a->ls, k);
	proc_sight(a->ls, k->tgid, a->pcache);
	return false;
}

#ifdef GPUTOP_TEST_HOOKS
/*
 * Test builds: GPUTOP_TEST_STACK_DUMP=PREFIX writes the first stack copy to
 * PREFIX.sample and its process's maps to PREFIX.maps (the unwinder's fixture).
 */
static void test_dump(const void *data, size_t size, uint32_t tgid)
{
	static bool done;
	const char *prefix = getenv("GPUTOP_TEST_STACK_DUMP");
	char path[512], maps[64], buf[4096];
	FILE *in, *out;
	size_t n;

	if (done || !prefix)
		return;
	done = true;
	snprintf(path, sizeof(path), "%s.sample", prefix);
	if ((out = fopen(path, "w"))) {
		fwrite(data, 1, size, out);
		fclose(out);
	}
	snprintf(path, sizeof(path), "%s.maps", prefix);
	snprintf(maps, sizeof(maps), "/proc/%u/maps", tgid);
	in = fopen(maps, "r");
	out = in ? fopen(path, "w") : NULL;
	while (out && (n = fread(buf, 1, sizeof(buf), in)))
		fwrite(buf, 1, n, out);
	if (out)
		fclose(out);
	if (in)
		fclose(in);
}
#endif

/* One stack copy: unwound now with its process's mappings, counted under its key and chain. */
static int on_sample(void *ctx, void *data, size_t size)
{
	const size_t head = offsetof(struct nv_stack_sample, stack.data);
	struct launch_stacks *ls = ctx;
	const struct nv_stack_sample *s = data;
	struct unwind_result r;
	struct stack_proc *p;

	if (size < head || s->stack.size > size - head) {
		ls->dwarf.lost++;
		return 0;
	}
#ifdef GPUTOP_TEST_HOOKS
	test_dump(data, size, s->key.tgid);
#endif
	p = proc_sight(ls, s->key.tgid, ls->pcache);
	if (p && p->captured && !p->unw)
		p->unw = unwind_proc_new((pid_t)p->pid, &p->sp.maps);
	if (!p || !p->unw) {
		ls->dwarf.lost++;
		return 0;
	}
	unwind_stack(p->unw,
		     &(struct unwind_input){ .ip = s->stack.ip,
					     .sp = s->stack.sp,
					     .bp = s->stack.bp,
					     .stack = s->stack.data,
					     .len = s->stack.size,
					     .cut = s->stack.flags & USER_STACK_CUT },
		     &r);
	launch_dwarf_add(&ls->dwarf, &s->key, &r);
	return 0;
}

int launch_stacks_attach(struct launch_stacks *ls, int samples_fd)
{
	if (!ls->out || ls->samples)
		return 0;
	ls->samples = ring_buffer__new(samples_fd, on_sample, ls, NULL);
	return ls->samples ? 0 : -errno;
}

void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache)
{
	struct tick_arg a = { ls, pcache };

	ls->names_fd = names_fd;
	if (!ls->out)
		return;
	map_walk(counts_fd, sizeof(struct nv_stack_key), 0, first_sight, &a);
	ls->pcache = pcache;
	if (ls->samples)
		ring_buffer__consume(ls->samples);
	ls->pcache = NULL;
}

struct write_arg {
	struct launch_stacks *ls;
	int stacks_fd;
	int err;
};

static void user_frame(struct launch_stacks *ls, struct stack_proc *p, uint64_t ip, struct frame *f)
{
	if (p && p->captured)
		symbolize_user(&ls->sym, &p->sp, ip, f);
	else
		memset(f, 0, sizeof(*f)); /* "[unknown]": it exited before it was seen */
}

static void named_frame(struct frame *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
}

static struct frame frames[NV_STACK_DEPTH + UNWIND_FRAMES_MAX + 4];

/*
 * frames[1..n) given: the kernel's name as the leaf, the command name as the
 * root and, where the process's DWARF chains stand for more launches than were
 * unwound (dwarf), what was sampled; written with its weight.
 */
static void line_out(struct write_arg *a, struct stack_proc *p, const struct nv_stack_key *k, size_t n,
		     bool truncated, bool dwarf, uint64_t weight)
{
	const struct stack_kernel *sk = kernel_find(a->ls, k->tgid, k->handle);
	char note[96];

	named_frame(&frames[0], sk ? sk->name : "[kernel]");
	if (dwarf && p && p->dwarf_samples < p->dwarf_launches) {
		snprintf(note, sizeof(note), "[DWARF: %" PRIu64 " of %" PRIu64 " launches unwound]",
			 p->dwarf_samples, p->dwarf_launches);
		named_frame(&frames[n++], note);
	}
	named_frame(&frames[n++], p ? p->comm : "?");
	if (folded_write(a->ls->out, frames, n, truncated, weight))
		a->err = -EIO;
	a->ls->lines++;
	a->ls->launches += weight;
}

/* The frame-pointer stack of k into ips (zeroed first); its depth, 0 when none was taken. */
static size_t fp_stack(struct write_arg *a, const struct nv_stack_key *k, uint64_t *ips)
{
	size_t n = 0;

	memset(ips, 0, NV_STACK_DEPTH * sizeof(*ips));
	if (k->stack_id < 0 || bpf_map_lookup_elem(a->stacks_fd, &k->stack_id, ips))
		return 0;
	while (n < NV_STACK_DEPTH && ips[n])
		n++;
	return n;
}

/* k's launches by its frame-pointer stack. */
static void fp_line(struct write_arg *a, struct stack_proc *p, const struct nv_stack_key *k, const uint64_t *ips,
		    size_t depth, uint64_t weight)
{
	size_t n = 1;

	if (!depth)
		named_frame(&frames[n++], "[no stack]");
	for (size_t i = 0; i < depth; i++) {
		user_frame(a->ls, p, ips[i], &frames[n++]);
		/* the caller at the function's entry, where the walk (frame pointers) left it out */
		if (i == 0 && k->caller && ips[1] != k->caller)
			user_frame(a->ls, p, k->caller, &frames[n++]);
	}
	line_out(a, p, k, n, depth == NV_STACK_DEPTH, false, weight);
}

/* One (process, stack, kernel): by its DWARF chains where it has some, else by its frame pointers. */
static bool write_line(const void *key, void *value, void *arg)
{
	const struct nv_stack_key *k = key;
	struct write_arg *a = arg;
	struct stack_proc *p = proc_find(a->ls, k->tgid);
	uint64_t ips[NV_STACK_DEPTH], weight;
	size_t depth = fp_stack(a, k, ips), nc;
	const struct dwarf_chain *c = launch_dwarf_of(&a->ls->dwarf, k, &nc);

	memcpy(&weight, value, sizeof(weight));
	if (!c)
		fp_line(a, p, k, ips, depth, weight);
	for (size_t i = 0; i < nc; i++) {
		uint64_t w = launch_dwarf_share(c, nc, i, weight);
		size_t n = 1;

		if (!w)
			continue;
		/*
		 * Stopped short of the outermost frame (the budget, code without CFI
		 * such as a JIT's) where the frame pointers went deeper: theirs.
		 */
		if (!c[i].complete && depth > c[i].n) {
			fp_line(a, p, k, ips, depth, w);
			continue;
		}
		for (size_t j = 0; j < c[i].n; j++)
			user_frame(a->ls, p, c[i].ips[j], &frames[n++]);
		line_out(a, p, k, n, c[i].truncated, true, w);
	}
	return false;
}

/* Per process, before the lines: its launches, those of keys with DWARF chains, and their samples. */
static bool proc_totals(const void *key, void *value, void *arg)
{
	const struct nv_stack_key *k = key;
	struct launch_stacks *ls = arg;
	struct stack_proc *p = proc_find(ls, k->tgid);
	const struct dwarf_chain *c;
	uint64_t weight;
	size_t nc;

	if (!p)
		return false;
	memcpy(&weight, value, sizeof(weight));
	p->launches += weight;
	if (!(c = launch_dwarf_of(&ls->dwarf, k, &nc)))
		return false;
	p->dwarf_launches += weight;
	for (size_t i = 0; i < nc; i++)
		p->dwarf_samples += c[i].samples;
	return false;
}

/* The folded lines written so far, drawn as a flame graph into the .svg file. */
static int draw_svg(struct launch_stacks *ls)
{
	FILE *in = fmemopen(ls->folded, ls->folded_len, "r");
	int err;

	if (!ls->folded_len) /* fmemopen refuses an empty buffer: an empty graph */
		in = fmemopen((char[1]){ 0 }, 1, "r");
	if (!in)
		return -errno;
	err = flame_svg_write(in, ls->svg, "CUDA launches by CPU call stack: launches");
	fclose(in);
	return err;
}

int launch_stacks_write(struct launch_stacks *ls, int counts_fd, int stacks_fd)
{
	struct write_arg a = { ls, stacks_fd, 0 };

	if (!ls->out)
		return 0;
	if (ls->samples)
		ring_buffer__consume(ls->samples);
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), proc_totals, ls);
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), write_line, &a);
	if (fflush(ls->out))
		a.err = -errno;
	if (!a.err && ls->svg)
		a.err = draw_svg(ls);
	return a.err;
}

void launch_stacks_close(struct launch_stacks *ls)
{
	ring_buffer__free(ls->samples);
	for (size_t i = 0; i < ls->nprocs; i++) {
		unwind_proc_free(ls->procs[i].unw);
		if (ls->procs[i].captured)
			sym_process_free(&ls->procs[i].sp);
	}
	launch_dwarf_free(&ls->dwarf);
	free(ls->procs);
	free(ls->kernels);
	if (ls->out) {
		fclose(ls->out);
		symbolizer_free(&ls->sym);
	}
	if (ls->svg)
		fclose(ls->svg);
	free(ls->folded);
	memset(ls, 0, sizeof(*ls));
}
