// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <bpf/libbpf.h>
#include "collectors/nvidia/launch_join.h"
#include "nvidia.skel.h"

#define SCAN_NS 2000000000ULL /* processes started with the library since: found this often */

/* The records first (activity on), the launch probe last: its semaphore turns the callbacks on. */
static int attach_lib(struct cupti_lib *lib, const uint64_t *off, void *arg)
{
	struct nvidia_bpf *skel = arg;

	if (!off[CUPTI_OFF_LAUNCH] || !off[CUPTI_OFF_LAUNCH_SEMAPHORE])
		return -1; /* a library from before the join */
	lib->links[0] =
		cupti_lib_uprobe(lib, skel->progs.join_records, off[CUPTI_OFF_RECORDS], off[CUPTI_OFF_SEMAPHORE]);
	if (lib->links[0])
		lib->links[1] = cupti_lib_uprobe(lib, skel->progs.join_launch, off[CUPTI_OFF_LAUNCH],
						 off[CUPTI_OFF_LAUNCH_SEMAPHORE]);
	if (lib->links[1])
		return 0;
	bpf_link__destroy(lib->links[0]);
	lib->links[0] = NULL;
	return -1;
}

void launch_join_init(struct launch_join *j, struct nvidia_bpf *skel)
{
	j->skel = skel;
	j->next_scan_ns = 0;
	cupti_libs_init(&j->libs, attach_lib, skel);
}

void launch_join_tick(struct launch_join *j, uint64_t now_ns)
{
	if (!j->skel || now_ns < j->next_scan_ns)
		return;
	cupti_libs_scan(&j->libs);
	/*
	 * The launches' keys wait for their ids only where some library file has the join's probes (no
	 * map update a launch for programs without it); set before the library sees its semaphore (its
	 * next poll, 100 ms away) and turns its callbacks on.
	 */
	__atomic_store_n(&j->skel->bss->join_on, j->libs.n > 0, __ATOMIC_RELAXED);
	j->next_scan_ns = now_ns + SCAN_NS;
}

size_t launch_join_files(const struct launch_join *j, size_t *failed)
{
	*failed = j->libs.failed;
	return j->libs.n;
}

void launch_join_detach(struct launch_join *j)
{
	cupti_libs_detach(&j->libs);
	j->next_scan_ns = 0; /* attached again at once if ticked again */
	if (j->skel)
		__atomic_store_n(&j->skel->bss->join_on, 0, __ATOMIC_RELAXED);
}
