// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <bpf/bpf.h>
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

/* A process launching for the first time: its mappings and name now, while it lives. */
static bool first_sight(const void *key, void *value, void *arg)
{
	const struct nv_stack_key *k = key;
	struct tick_arg *a = arg;
	const struct proc_entry *pe;
	struct stack_proc *p;

	(void)value;
	kernel_sight(a->ls, k);
	if (proc_find(a->ls, k->tgid) || !array_push(&a->ls->procs, &a->ls->nprocs, &a->ls->cap, sizeof(*p)))
		return false;
	p = &a->ls->procs[a->ls->nprocs - 1];
	memset(p, 0, sizeof(*p));
	p->pid = k->tgid;
	p->captured = !sym_process_capture(&p->sp, (pid_t)k->tgid);
	pe = proc_cache_get(a->pcache, k->tgid);
	snprintf(p->comm, sizeof(p->comm), "%s", pe && pe->comm[0] ? pe->comm : "?");
	return false;
}

void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache)
{
	struct tick_arg a = { ls, pcache };

	ls->names_fd = names_fd;
	if (ls->out)
		map_walk(counts_fd, sizeof(struct nv_stack_key), 0, first_sight, &a);
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

/* One (process, stack, kernel): kernel, the stack leaf first, the command name as the root. */
static bool write_line(const void *key, void *value, void *arg)
{
	static struct frame frames[NV_STACK_DEPTH + 3];
	const struct nv_stack_key *k = key;
	struct write_arg *a = arg;
	struct stack_proc *p = proc_find(a->ls, k->tgid);
	const struct stack_kernel *sk;
	uint64_t ips[NV_STACK_DEPTH] = { 0 }, weight;
	size_t n = 1;

	memcpy(&weight, value, sizeof(weight));
	memset(&frames[0], 0, sizeof(frames[0]));
	sk = kernel_find(a->ls, k->tgid, k->handle);
	snprintf(frames[0].name, sizeof(frames[0].name), "%s", sk ? sk->name : "[kernel]");
	if (k->stack_id < 0 || bpf_map_lookup_elem(a->stacks_fd, &k->stack_id, ips)) {
		memset(&frames[n], 0, sizeof(frames[n]));
		snprintf(frames[n++].name, sizeof(frames[0].name), "[no stack]");
	}
	for (size_t i = 0; i < NV_STACK_DEPTH && ips[i]; i++) {
		user_frame(a->ls, p, ips[i], &frames[n++]);
		/* the caller at the function's entry, where the walk (frame pointers) left it out */
		if (i == 0 && k->caller && ips[1] != k->caller)
			user_frame(a->ls, p, k->caller, &frames[n++]);
	}
	memset(&frames[n], 0, sizeof(frames[n]));
	snprintf(frames[n++].name, sizeof(frames[0].name), "%s", p ? p->comm : "?");
	if (folded_write(a->ls->out, frames, n, ips[NV_STACK_DEPTH - 1] != 0, weight))
		a->err = -EIO;
	a->ls->lines++;
	a->ls->launches += weight;
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
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), write_line, &a);
	if (fflush(ls->out))
		a.err = -errno;
	if (!a.err && ls->svg)
		a.err = draw_svg(ls);
	return a.err;
}

void launch_stacks_close(struct launch_stacks *ls)
{
	for (size_t i = 0; i < ls->nprocs; i++)
		if (ls->procs[i].captured)
			sym_process_free(&ls->procs[i].sp);
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
