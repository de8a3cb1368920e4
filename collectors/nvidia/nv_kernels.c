// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "collectors/kit/map_walk.h"
#include "collectors/kit/pid_list.h"
#include "collectors/nvidia/nv_kernels.h"
#include "collectors/nvidia/nvidia_tables.h"
#include "core/array.h"
#include "symbols/demangle.h"

struct nv_kernel_row {
	uint32_t pid;
	uint32_t handles; /* merged into this row */
	uint64_t now, before;
	char *name; /* nv_kernel_name's, malloc'd for this tick */
};

int nv_kernels_init(struct nv_kernels *k)
{
	memset(k, 0, sizeof(*k));
	return map_delta_init(&k->launches, sizeof(struct nv_kernel_key), sizeof(uint64_t), 0);
}

static void known_forget_all(struct nv_kernels *k)
{
	for (size_t i = 0; i < k->nknown; i++)
		free(k->known[i].name);
	free(k->known);
	key_index_free(&k->known_index);
	k->known = NULL;
	k->nknown = k->known_cap = 0;
}

void nv_kernels_free(struct nv_kernels *k)
{
	known_forget_all(k);
	map_delta_free(&k->launches);
	free(k->rows);
	free(k->sums);
	key_index_free(&k->sum_index);
}

/* A handle's launches added to its process's sums (on its device, on all); false: no memory. */
static bool sum_add(struct nv_kernels *k, uint32_t tgid, uint32_t dev, uint64_t now, uint64_t before)
{
	uint64_t key = (uint64_t)tgid << 32 | dev;
	struct nv_launch_sum *s;
	uint32_t i;

	if (key_index_get(&k->sum_index, key, &i)) {
		k->sums[i].now += now;
		k->sums[i].before += before;
		return true;
	}
	s = array_push(&k->sums, &k->nsums, &k->sums_cap, sizeof(*s));
	if (!s)
		return false;
	if (key_index_put(&k->sum_index, key, (uint32_t)(k->nsums - 1))) {
		k->nsums--;
		return false;
	}
	*s = (struct nv_launch_sum){ .tgid = tgid, .dev = dev, .now = now, .before = before };
	return true;
}

void nv_kernels_launches(const struct nv_kernels *k, uint32_t tgid, uint32_t dev, __u64 *now, __u64 *before)
{
	uint32_t i;

	*now = *before = 0;
	if (!key_index_get(&k->sum_index, (uint64_t)tgid << 32 | dev, &i))
		return;
	*now = k->sums[i].now;
	*before = k->sums[i].before;
}

/* text[0..] into out[size], cut at a character's start to leave room for the mark naming handle. */
static void mark_cut(const char *text, uint64_t handle, char *out, size_t size)
{
	char mark[48];
	size_t keep, len = strlen(text);

	snprintf(mark, sizeof(mark), "...[cut, kernel 0x%llx]", (unsigned long long)handle);
	keep = size > strlen(mark) + 1 ? size - 1 - strlen(mark) : 0;
	if (keep > len)
		keep = len;
	while (keep && ((unsigned char)text[keep] & 0xc0) == 0x80) /* not inside a UTF-8 character */
		keep--;
	snprintf(out, size, "%.*s%s", (int)keep, text, mark);
}

bool nv_kernel_name(int names_fd, uint32_t tgid, uint64_t handle, char *out, size_t size)
{
	struct nv_kernel_key k = { .handle = handle, .tgid = tgid };
	struct nv_kernel_name name;
	char text[NV_KERNEL_TEXT + 1]; /* a byte more than a cell keeps: whether it fits */

	if (!size)
		return false;
	if (bpf_map_lookup_elem(names_fd, &k, &name) || !name.name[0]) {
		snprintf(out, size, "[kernel 0x%llx]", (unsigned long long)handle);
		return false;
	}
	name.name[sizeof(name.name) - 1] = '\0';
	demangle(name.name, text, sizeof(text)); /* as it is where it is no C++ name */
	if (name.cut || strlen(text) >= size)
		mark_cut(text, handle, out, size);
	else
		memcpy(out, text, strlen(text) + 1);
	return true;
}

static bool is_gone(const struct nv_kernels *k, uint32_t pid)
{
	return pid_listed(k->gone, k->ngone, pid);
}

static uint64_t known_key(uint32_t tgid, uint64_t handle)
{
	return (handle * 0x9e3779b97f4a7c15ULL) ^ tgid;
}

/*
 * The handle's name: once demangled (a name may cost a demangler's bound, some
 * tenths of a millisecond), kept; a name not yet in the map is asked again.
 */
static const char *known_name(struct nv_kernels *k, uint32_t tgid, uint64_t handle, char *text, size_t size)
{
	uint32_t at;
	struct nv_kernel_known *e;

	if (key_index_get(&k->known_index, known_key(tgid, handle), &at) && k->known[at].tgid == tgid &&
	    k->known[at].handle == handle)
		return k->known[at].name;
	if (!nv_kernel_name(k->names_fd, tgid, handle, text, size) ||
	    key_index_get(&k->known_index, known_key(tgid, handle), &at)) /* unnamed, or a key's twin */
		return text;
	e = array_push(&k->known, &k->nknown, &k->known_cap, sizeof(*e));
	if (!e)
		return text;
	*e = (struct nv_kernel_known){ .tgid = tgid, .handle = handle, .name = strdup(text) };
	if (!e->name || key_index_put(&k->known_index, known_key(tgid, handle), (uint32_t)(k->nknown - 1))) {
		free(e->name);
		k->nknown--;
		return text;
	}
	return e->name;
}

/* The names of processes that exited this tick: forgotten, the index made again. */
static void known_forget_gone(struct nv_kernels *k)
{
	size_t kept = 0;

	for (size_t i = 0; i < k->nknown; i++)
		if (pid_listed(k->gone, k->ngone, k->known[i].tgid))
			free(k->known[i].name);
		else
			k->known[kept++] = k->known[i];
	k->nknown = kept;
	key_index_free(&k->known_index);
	for (size_t i = 0; i < k->nknown; i++)
		if (key_index_put(&k->known_index, known_key(k->known[i].tgid, k->known[i].handle), (uint32_t)i)) {
			for (size_t j = i; j < k->nknown; j++) /* out of memory: those not indexed go */
				free(k->known[j].name);
			k->nknown = i;
			break;
		}
}

/* One handle's launches, named where the name table has it. */
static bool handle_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	const struct nv_kernel_key *kk = key;
	struct nv_kernels *k = arg;
	struct nv_kernel_row *r;
	char text[NV_KERNEL_TEXT];

	(void)state;
	r = array_push(&k->rows, &k->n, &k->cap, sizeof(*k->rows));
	if (!r) {
		k->failed = true;
		return false;
	}
	r->name = strdup(known_name(k, kk->tgid, kk->handle, text, sizeof(text)));
	if (!r->name) {
		k->n--;
		k->failed = true;
		return false;
	}
	r->pid = kk->tgid;
	r->handles = 1;
	memcpy(&r->now, now, sizeof(r->now));
	memcpy(&r->before, before, sizeof(r->before));
	if (!sum_add(k, kk->tgid, kk->dev, r->now, r->before) ||
	    !sum_add(k, kk->tgid, NV_KERNELS_ALL_DEVS, r->now, r->before))
		k->failed = true;
	return is_gone(k, kk->tgid); /* shown once more, then forgotten */
}

static int by_pid_name(const void *a, const void *b)
{
	const struct nv_kernel_row *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A name of a process that exited: its handles are gone with it. */
static bool name_of_gone(const void *key, void *value, void *arg)
{
	(void)value;
	return is_gone(arg, ((const struct nv_kernel_key *)key)->tgid);
}

static void write_rows(struct nv_kernels *k, struct model *m)
{
	struct table *t = model_table(m, &nvidia_kernels);
	double iv = model_interval_s(m);
	size_t w = 0;

	if (k->n) /* qsort takes no NULL, even of nothing */
		qsort(k->rows, k->n, sizeof(*k->rows), by_pid_name);
	for (size_t i = 0; i < k->n; i++) { /* handles of one name (a CUkernel, its CUfunction) merged */
		if (w && k->rows[w - 1].pid == k->rows[i].pid && !strcmp(k->rows[w - 1].name, k->rows[i].name)) {
			k->rows[w - 1].now += k->rows[i].now;
			k->rows[w - 1].before += k->rows[i].before;
			k->rows[w - 1].handles++;
			free(k->rows[i].name);
			continue;
		}
		k->rows[w++] = k->rows[i];
	}
	for (size_t i = 0; t && i < w; i++) {
		const struct nv_kernel_row *r = &k->rows[i];
		const struct proc_entry *pe = proc_cache_get(k->pcache, r->pid);
		struct cell *row = table_row_add(t);

		if (!row)
			break;
		nvidia_kernel_row(row, r->pid, pe && pe->comm[0] ? pe->comm : "?", r->name, r->handles, r->now,
				  r->before, iv);
	}
	for (size_t i = 0; i < w; i++)
		free(k->rows[i].name);
	k->n = 0;
}

void nv_kernels_read(struct nv_kernels *k, int launches_fd, int names_fd, struct proc_cache *pcache,
		     const uint32_t *gone, size_t ngone, struct model *m)
{
	k->n = 0;
	k->nsums = 0;
	key_index_free(&k->sum_index);
	k->names_fd = names_fd;
	k->pcache = pcache;
	k->gone = gone;
	k->ngone = ngone;
	map_delta_read(&k->launches, launches_fd, handle_row, k);
	write_rows(k, m);
	if (!ngone)
		return;
	map_walk(names_fd, sizeof(struct nv_kernel_key), 0, name_of_gone, k);
	known_forget_gone(k);
}
