/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * GPU kernels per process on NVIDIA: launches counted by handle and device in
 * BPF (kernel_launches), named from the calls that make handles of names
 * (kernel_names), shown one row per process and kernel name (a name cut
 * short names its handle: one row a handle). The same read's sums per process
 * and per process and device are nvidia.processes' and nvidia.process_gpus'
 * launches: one count, read once, so that a snapshot's three tables agree.
 */
#ifndef GPUTOP_NV_KERNELS_H
#define GPUTOP_NV_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "collectors/kit/map_delta.h"
#include "core/key_index.h"
#include "collectors/kit/proc_cache.h"
#include "model/model.h"

struct nv_kernel_row;

/* A process's launches (on one device, or on all: NV_KERNELS_ALL_DEVS) in this read and the one before. */
struct nv_launch_sum {
	uint32_t tgid, dev;
	uint64_t now, before;
};

#define NV_KERNELS_ALL_DEVS 0xfffffffeu /* not a device: NV_DEV_UNKNOWN is 0xffffffff */

/* A handle's name as nv_kernel_name gave it: demangled once, kept while its process lives. */
struct nv_kernel_known {
	uint32_t tgid;
	uint64_t handle;
	char *name;
};

struct nv_kernels {
	struct map_delta launches;
	struct nv_kernel_known *known;
	size_t nknown, known_cap;
	struct key_index known_index; /* (tgid, handle) mixed -> known[] */
	struct nv_kernel_row *rows; /* this tick's, one per handle, then merged by name */
	size_t n, cap;
	struct nv_launch_sum *sums; /* this tick's */
	size_t nsums, sums_cap;
	struct key_index sum_index; /* tgid << 32 | dev -> sums[] */
	int names_fd;
	const uint32_t *gone; /* processes that exited this tick */
	size_t ngone;
	struct proc_cache *pcache;
	bool failed;
};

/* The longest kernel name text kept, its NUL included (a long text cell's). */
#define NV_KERNEL_TEXT 4096

/*
 * The name of process tgid's kernel handle from the names map (kernel_names),
 * demangled, into out[size]; "[kernel 0x...]" when none was seen. A name cut
 * (longer than BPF's copy, or than size) ends "...[cut, kernel 0x...]", its
 * handle: two kernels whose names share the part kept stay two. True if named.
 */
bool nv_kernel_name(int names_fd, uint32_t tgid, uint64_t handle, char *out, size_t size);
int nv_kernels_init(struct nv_kernels *k);
/*
 * The rows of nvidia.kernels into m from the maps' fds; the entries of the
 * processes in gone[ngone] shown once more, then deleted from both maps.
 */
void nv_kernels_read(struct nv_kernels *k, int launches_fd, int names_fd, struct proc_cache *pcache,
		     const uint32_t *gone, size_t ngone, struct model *m);
/*
 * Process tgid's launches on device dev (NV_KERNELS_ALL_DEVS: on all) as the last nv_kernels_read
 * summed them, now and at the read before; 0 and 0 where it counted none.
 */
void nv_kernels_launches(const struct nv_kernels *k, uint32_t tgid, uint32_t dev, __u64 *now, __u64 *before);
void nv_kernels_free(struct nv_kernels *k);

#endif
