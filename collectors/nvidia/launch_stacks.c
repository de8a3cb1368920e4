// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bpf/nvidia.h"
#include "collectors/kit/map_walk.h"
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

/* A process launching for the first time: its mappings and name now, while it lives. */
static bool first_sight(const void *key, void *value, void *arg)
{
	const struct nv_stack_key *k = key;
	struct tick_arg *a = arg;
	const struct proc_entry *pe;

	(void)value;
	kernel_sight(a->ls, k);
	if (stack_procs_find(&a->ls->procs, k->tgid))
		return false;
	pe = proc_cache_get(a->pcache, k->tgid);
	stack_procs_add(&a->ls->procs, k->tgid, pe ? pe->comm : NULL);
	return false;
}

void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache)
{
	struct tick_arg a = { ls, pcache };

	ls->names_fd = names_fd;
	if (ls->sf)
		map_walk(counts_fd, sizeof(struct nv_stack_key), 0, first_sight, &a);
}

struct write_arg {
	struct launch_stacks *ls;
	int stacks_fd;
	int err;
};

/* One (process, stack, kernel): kernel, the stack leaf first, the command name as the root. */
static bool write_line(const void *key, void *value, void *arg)
{
	static struct frame frames[NV_STACK_DEPTH + 3];
	const struct nv_stack_key *k = key;
	struct write_arg *a = arg;
	struct stack_proc *p = stack_procs_find(&a->ls->procs, k->tgid);
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
		stack_procs_frame(&a->ls->sf->sym, p, ips[i], &frames[n++]);
		/* the caller at the function's entry, where the walk (frame pointers) left it out */
		if (i == 0 && k->caller && ips[1] != k->caller)
			stack_procs_frame(&a->ls->sf->sym, p, k->caller, &frames[n++]);
	}
	memset(&frames[n], 0, sizeof(frames[n]));
	snprintf(frames[n++].name, sizeof(frames[0].name), "%s", p ? p->comm : "?");
	if (stack_file_line(a->ls->sf, frames, n, ips[NV_STACK_DEPTH - 1] != 0, weight))
		a->err = -EIO;
	a->ls->lines++;
	a->ls->launches += weight;
	return false;
}

int launch_stacks_write(struct launch_stacks *ls, int counts_fd, int stacks_fd)
{
	struct write_arg a = { ls, stacks_fd, 0 };

	if (!ls->sf)
		return 0;
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), write_line, &a);
	return a.err;
}

void launch_stacks_close(struct launch_stacks *ls)
{
	stack_procs_free(&ls->procs);
	free(ls->kernels);
	memset(ls, 0, sizeof(*ls));
}
