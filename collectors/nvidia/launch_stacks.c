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
#include "bpf/nvidia.h"
#include "collectors/kit/map_walk.h"
#include "collectors/kit/stack_copy.h"
#include "collectors/nvidia/launch_stacks.h"
#include "collectors/nvidia/nv_kernels.h"
#include "core/array.h"

struct stack_kernel {
	uint64_t handle;
	uint32_t tgid;
	char name[NV_KERNEL_NAME]; /* demangled; "[kernel 0x...]" when none was seen */
};


void launch_stacks_open(struct launch_stacks *ls, struct stack_file *sf)
{
	memset(ls, 0, sizeof(*ls));
	if (sf && stack_weight_takes(sf->weight, STACK_SOURCE_LAUNCHES))
		ls->sf = sf;
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
	struct stack_proc *p = stack_procs_find(&ls->procs, tgid);
	const struct proc_entry *pe;

	if (p)
		return p;
	pe = pcache ? proc_cache_get(pcache, tgid) : NULL;
	return stack_procs_add(&ls->procs, tgid, pe ? pe->comm : NULL);
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
	const size_t head = offsetof(struct nv_stack_sample, stack);
	struct launch_stacks *ls = ctx;
	const struct nv_stack_sample *s = data;
	struct unwind_result r;
	struct dwarf_key k;

	if (size < head) {
		ls->dwarf.lost++;
		return 0;
	}
#ifdef GPUTOP_TEST_HOOKS
	test_dump(data, size, s->key.tgid);
#endif
	if (!stack_copy_unwind(proc_sight(ls, s->key.tgid, ls->pcache), &s->stack, size - head, &r)) {
		ls->dwarf.lost++;
		return 0;
	}
	_Static_assert(sizeof(s->key) <= sizeof(struct dwarf_key), "a launch key fits a DWARF key");
	k = dwarf_key_of(&s->key, sizeof(s->key));
	dwarf_chains_add(&ls->dwarf, &k, &r);
	return 0;
}

int launch_stacks_attach(struct launch_stacks *ls, int samples_fd)
{
	if (!ls->sf || ls->samples)
		return 0;
	ls->samples = ring_buffer__new(samples_fd, on_sample, ls, NULL);
	return ls->samples ? 0 : -errno;
}

void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache)
{
	struct tick_arg a = { ls, pcache };

	ls->names_fd = names_fd;
	if (!ls->sf)
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
	stack_procs_frame(&ls->sf->sym, p, ip, f);
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
	if (dwarf && p && p->dwarf_samples < p->dwarf_events) {
		snprintf(note, sizeof(note), "[DWARF: %" PRIu64 " of %" PRIu64 " launches unwound]",
			 p->dwarf_samples, p->dwarf_events);
		named_frame(&frames[n++], note);
	}
	named_frame(&frames[n++], p ? p->comm : "?");
	if (stack_file_line(a->ls->sf, frames, n, truncated, weight))
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
	struct stack_proc *p = stack_procs_find(&a->ls->procs, k->tgid);
	uint64_t ips[NV_STACK_DEPTH], weight;
	size_t depth = fp_stack(a, k, ips), nc;
	struct dwarf_key dk = dwarf_key_of(k, sizeof(*k));
	const struct dwarf_chain *c = dwarf_chains_of(&a->ls->dwarf, &dk, &nc);

	memcpy(&weight, value, sizeof(weight));
	if (!c)
		fp_line(a, p, k, ips, depth, weight);
	for (size_t i = 0; i < nc; i++) {
		uint64_t w = dwarf_chains_share(c, nc, i, weight);
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
	struct stack_proc *p = stack_procs_find(&ls->procs, k->tgid);
	const struct dwarf_chain *c;
	struct dwarf_key dk;
	uint64_t weight;
	size_t nc;

	if (!p)
		return false;
	memcpy(&weight, value, sizeof(weight));
	p->events += weight;
	dk = dwarf_key_of(k, sizeof(*k));
	if (!(c = dwarf_chains_of(&ls->dwarf, &dk, &nc)))
		return false;
	p->dwarf_events += weight;
	for (size_t i = 0; i < nc; i++)
		p->dwarf_samples += c[i].samples;
	return false;
}

int launch_stacks_write(struct launch_stacks *ls, int counts_fd, int stacks_fd)
{
	struct write_arg a = { ls, stacks_fd, 0 };

	if (!ls->sf)
		return 0;
	if (ls->samples)
		ring_buffer__consume(ls->samples);
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), proc_totals, ls);
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), write_line, &a);
	return a.err;
}

void launch_stacks_close(struct launch_stacks *ls)
{
	ring_buffer__free(ls->samples);
	dwarf_chains_free(&ls->dwarf);
	stack_procs_free(&ls->procs); /* their unwinders too */
	free(ls->kernels);
	memset(ls, 0, sizeof(*ls));
}
