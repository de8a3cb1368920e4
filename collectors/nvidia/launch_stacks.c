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
#include "collectors/kit/proc_info.h"
#include "collectors/kit/stack_copy.h"
#include "collectors/nvidia/launch_stacks.h"
#include "collectors/nvidia/nv_kernels.h"
#include "core/array.h"
#include "symbols/folded.h"
#include "symbols/stack_ids.h"

/* How long a stack copy waits for the reader at most (a key's first wakes it at once). */
#define LAUNCH_STACKS_READ_MS 100

struct stack_kernel {
	uint64_t handle;
	uint32_t tgid;
	char *name; /* nv_kernel_name's (malloc'd); "[kernel 0x...]" when none was seen */
};


void launch_stacks_open(struct launch_stacks *ls, struct stack_file *sf)
{
	memset(ls, 0, sizeof(*ls));
	ls->gpu_fd = -1;
	_Static_assert(sizeof(struct nv_stack_key) <= KEY_TEXT_KEY_MAX, "a launch key fits");
	key_text_init(&ls->fp, sizeof(struct nv_stack_key));
	if (sf && stack_file_on(sf) && stack_weight_takes(sf->weight, STACK_SOURCE_LAUNCHES))
		ls->sf = sf;
	else if (sf && !stack_file_on(sf))
		ls->armed = sf;
}

bool launch_stacks_live(struct launch_stacks *ls)
{
	if (ls->sf || !ls->armed || !stack_file_on(ls->armed) ||
	    !stack_weight_takes(ls->armed->weight, STACK_SOURCE_LAUNCHES))
		return false;
	ls->sf = ls->armed;
	return true;
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

	char name[NV_KERNEL_TEXT], *copy;

	if ((sk = kernel_find(ls, k->tgid, k->handle)) && sk->name[0] != '[')
		return;
	if (!sk) {
		if (!array_push(&ls->kernels, &ls->nkernels, &ls->kcap, sizeof(*sk)))
			return;
		sk = &ls->kernels[ls->nkernels - 1];
		sk->tgid = k->tgid;
		sk->handle = k->handle;
	}
	nv_kernel_name(ls->names_fd, k->tgid, k->handle, name, sizeof(name));
	copy = strdup(name);
	if (!copy && !sk->name)
		ls->nkernels--; /* not kept: named at its next launch */
	if (copy) {
		free(sk->name);
		sk->name = copy;
	}
}

/* The process of tgid; at its first sight its mappings and name (pcache's, NULL: read now) now, while it lives. */
static struct stack_proc *proc_sight(struct launch_stacks *ls, uint32_t tgid, struct proc_cache *pcache)
{
	struct stack_proc *p = stack_procs_find(&ls->procs, tgid);
	const struct proc_entry *pe;
	char comm[16];

	if (p)
		return p;
	pe = pcache ? proc_cache_get(pcache, tgid) : NULL;
	if (!pe)
		proc_comm(tgid, comm, sizeof(comm));
	return stack_procs_add(&ls->procs, tgid, pe ? pe->comm : comm);
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
	if (!stack_copy_unwind(proc_sight(ls, s->key.tgid, NULL), &s->stack, size - head, &r)) {
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
	if (!ls->samples)
		return -errno;
	ring_reader_init(&ls->reader, ls->samples, LAUNCH_STACKS_READ_MS, NULL, NULL);
	(void)ring_reader_start(&ls->reader); /* not started: read at each tick only */
	return 0;
}

/* The reader's lock, what came drained: none before attach (nothing else runs then). */
static void lock(struct launch_stacks *ls)
{
	if (ls->samples)
		ring_reader_lock(&ls->reader);
}

static void unlock(struct launch_stacks *ls)
{
	if (ls->samples)
		ring_reader_unlock(&ls->reader);
}

/* The kernels and processes of counts_fd's keys first seen now (their names from pcache; NULL: read now). */
static void sights(struct launch_stacks *ls, int counts_fd, struct proc_cache *pcache)
{
	struct tick_arg a = { ls, pcache };

	lock(ls);
	map_walk(counts_fd, sizeof(struct nv_stack_key), 0, first_sight, &a);
	unlock(ls);
}

void launch_stacks_tick(struct launch_stacks *ls, int counts_fd, int names_fd, struct proc_cache *pcache)
{
	ls->names_fd = names_fd;
	if (ls->sf)
		sights(ls, counts_fd, pcache);
}

struct rows_arg {
	struct launch_stacks *ls;
	int stacks_fd;
	stack_row_fn fn;
	void *arg;
};

static struct frame frames[NV_STACK_DEPTH + UNWIND_FRAMES_MAX + 2];
static char text[FOLDED_TEXT_MAX];

static void named_frame(struct frame *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
}

/* The frame-pointer stack of k into ips (zeroed first); its depth, 0 when none was taken. */
static size_t fp_stack(int stacks_fd, const struct nv_stack_key *k, uint64_t *ips)
{
	size_t n = 0;

	memset(ips, 0, NV_STACK_DEPTH * sizeof(*ips));
	if (k->stack_id < 0 || bpf_map_lookup_elem(stacks_fd, &k->stack_id, ips))
		return 0;
	while (n < NV_STACK_DEPTH && ips[n])
		n++;
	return n;
}

/* k's frame-pointer stack as text, symbolized now. */
static void fp_symbolize(struct rows_arg *a, struct stack_proc *p, const struct nv_stack_key *k)
{
	uint64_t ips[NV_STACK_DEPTH];
	size_t depth = fp_stack(a->stacks_fd, k, ips), n = 0;

	if (!depth)
		named_frame(&frames[n++], "[no stack]");
	n += stack_user_frames(p, ips, depth, k->caller, &frames[n]);
	folded_join(frames, n, depth == NV_STACK_DEPTH, text);
}

/* k's frame-pointer stack's text, symbolized at its first use only; NULL: no memory. */
static const char *fp_text(struct rows_arg *a, struct stack_proc *p, const struct nv_stack_key *k)
{
	const char *t = key_text_get(&a->ls->fp, k);
	uint64_t mark = stack_frames_mark();

	if (t)
		return t;
	fp_symbolize(a, p, k);
	return key_text_put(&a->ls->fp, k, text, stack_frames_provisional(mark));
}

/* A DWARF chain's text, symbolized at its first use only; NULL: no memory. */
static const char *chain_text(struct stack_proc *p, struct dwarf_chain *c)
{
	uint64_t mark = stack_frames_mark();

	if (dwarf_chain_text(c))
		return c->text;
	for (size_t j = 0; j < c->n; j++)
		stack_procs_frame(p, c->ips[j], &frames[j]);
	folded_join(frames, c->n, c->truncated, text);
	return dwarf_chain_text_set(c, text, stack_frames_provisional(mark));
}

/*
 * One row of k: its kernel the leaf, what was sampled on its DWARF rows; w: its launches, and
 * where timed its kernels' GPU time and queued -> start time.
 */
static void row_out(struct rows_arg *a, struct stack_proc *p, const struct nv_stack_key *k, const char *frames_text,
		    bool dwarf, const uint64_t *w, bool timed)
{
	const struct stack_kernel *sk = kernel_find(a->ls, k->tgid, k->handle);
	char note[STACK_NOTE_MAX] = "";

	if (!frames_text)
		return;
	if (dwarf)
		stack_proc_sampled(p, "launches", note, sizeof(note));
	a->fn(a->arg, &(struct stack_row){ .pid = k->tgid,
					   .comm = p ? p->comm : "?",
					   .source = STACK_SOURCE_LAUNCHES,
					   .leaf = sk ? sk->name : "[kernel]",
					   .frames = frames_text,
					   .sampled = note,
					   .count = w[0],
					   .timed = timed,
					   .gpu_ns = w[1],
					   .wait_ns = w[2] });
}

struct key_arg {
	struct rows_arg *a;
	struct stack_proc *p;
	const struct nv_stack_key *k;
	bool timed; /* the key's kernels' GPU time known (joined) */
};

static size_t key_depth(void *arg)
{
	struct key_arg *ka = arg;
	uint64_t ips[NV_STACK_DEPTH];

	return fp_stack(ka->a->stacks_fd, ka->k, ips);
}

/* A part of a key's launches: chain c's share; c NULL: by its frame pointers. */
static void key_part(void *arg, struct dwarf_chain *c, const uint64_t *w)
{
	struct key_arg *ka = arg;

	row_out(ka->a, ka->p, ka->k, c ? chain_text(ka->p, c) : fp_text(ka->a, ka->p, ka->k), c, w, ka->timed);
}

/* One (process, stack, kernel): by its DWARF chains where it has some, else by its frame pointers. */
static bool key_rows(const void *key, void *value, void *arg)
{
	struct key_arg ka = { arg, NULL, key, false };
	struct dwarf_key dk = dwarf_key_of(key, sizeof(*ka.k));
	struct nv_stack_gpu g = { 0 };
	uint64_t w[3];

	ka.p = stack_procs_find(&ka.a->ls->procs, ka.k->tgid);
	memcpy(&w[0], value, sizeof(w[0]));
	ka.timed = ka.a->ls->gpu_fd >= 0 && !bpf_map_lookup_elem(ka.a->ls->gpu_fd, key, &g) && g.kernels;
	w[1] = g.gpu_ns;
	w[2] = g.queue_ns;
	dwarf_chains_split(
		&ka.a->ls->dwarf, &dk,
		&(struct dwarf_split){ .w = w, .nw = 3, .fp_depth = key_depth, .part = key_part, .arg = &ka });
	return false;
}

/* launch_stacks_frames, the lock held. */
static size_t frames_of(struct launch_stacks *ls, int stacks_fd, const struct stack_ref *r, struct frame *out)
{
	const struct dwarf_chain *c, *best = NULL;
	uint64_t ips[NV_STACK_DEPTH];
	struct nv_stack_key k;
	struct dwarf_key dk;
	struct stack_proc *p;
	size_t depth, nc, n = 0;

	memset(&k, 0, sizeof(k));
	k.handle = r->aux;
	k.caller = r->caller;
	k.tgid = r->pid;
	k.stack_id = r->ustack_id;
	p = stack_procs_find(&ls->procs, k.tgid);
	depth = fp_stack(stacks_fd, &k, ips);
	dk = dwarf_key_of(&k, sizeof(k));
	c = dwarf_chains_of(&ls->dwarf, &dk, &nc);
	for (size_t i = 0; c && i < nc; i++)
		if (!best || c[i].samples > best->samples)
			best = &c[i];
	if (!best || (!best->complete && depth > best->n)) /* as key_rows chooses */
		return stack_user_frames(p, ips, depth, k.caller, out);
	for (size_t j = 0; j < best->n; j++)
		stack_procs_frame(p, best->ips[j], &out[n++]);
	return n;
}

size_t launch_stacks_frames(struct launch_stacks *ls, int stacks_fd, const struct stack_ref *r,
			    struct frame *out, size_t max)
{
	size_t n;

	if (!ls->sf || max < LAUNCH_STACK_FRAMES_MAX)
		return 0;
	lock(ls);
	n = frames_of(ls, stacks_fd, r, out);
	unlock(ls);
	return n;
}

/* Per process, before the rows: its launches, those of keys with DWARF chains, and their samples. */
static bool proc_totals(const void *key, void *value, void *arg)
{
	const struct nv_stack_key *k = key;
	struct launch_stacks *ls = arg;
	struct dwarf_key dk = dwarf_key_of(k, sizeof(*k));
	uint64_t weight;

	memcpy(&weight, value, sizeof(weight));
	stack_proc_count(stack_procs_find(&ls->procs, k->tgid), weight, dwarf_chains_samples(&ls->dwarf, &dk));
	return false;
}

void launch_stacks_rows(struct launch_stacks *ls, int counts_fd, int stacks_fd, stack_row_fn fn, void *arg)
{
	struct rows_arg a = { ls, stacks_fd, fn, arg };

	if (!ls->sf)
		return;
	lock(ls);
	stack_procs_count_reset(&ls->procs);
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), proc_totals, ls);
	map_walk(counts_fd, sizeof(struct nv_stack_key), sizeof(uint64_t), key_rows, &a);
	ls->copies_lost = ls->dwarf.lost;
	unlock(ls);
}

static void row_to_file(void *arg, const struct stack_row *r)
{
	struct launch_stacks *ls = arg;

	if (stack_file_row(ls->sf, r))
		ls->write_err = -EIO;
	ls->lines++;
	ls->launches += r->count;
}

int launch_stacks_write(struct launch_stacks *ls, int counts_fd, int stacks_fd)
{
	if (!ls->sf)
		return 0;
	sights(ls, counts_fd, NULL); /* since the last tick (one gone since: its names are still in BPF) */
	ls->write_err = 0;
	launch_stacks_rows(ls, counts_fd, stacks_fd, row_to_file, ls);
	return ls->write_err;
}

void launch_stacks_close(struct launch_stacks *ls)
{
	if (ls->samples)
		ring_reader_stop(&ls->reader);
	ring_buffer__free(ls->samples);
	dwarf_chains_free(&ls->dwarf);
	stack_procs_free(&ls->procs); /* their unwinders too */
	for (size_t i = 0; i < ls->nkernels; i++)
		free(ls->kernels[i].name);
	free(ls->kernels);
	key_text_free(&ls->fp);
	memset(ls, 0, sizeof(*ls));
}
