// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GPU time BPF program (bpf/cupti.bpf.c) on the CUPTI companion library, for tests/bpf/cupti.sh
 * (root): a first monitor, before the collector that will use it.
 *
 *   cupti-probe LIB
 *
 * Attaches the name and status probes, then the records probe with the library's semaphore
 * (ref_ctr_offset), to every process that maps LIB; prints "attached" and reads commands from
 * stdin: "dump" prints the tables (kernel, proc and drop lines, then "end"), "detach" takes the
 * probes away (the semaphore falls), "attach" puts them back; end of input exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "cupti.skel.h"
#include "bpf/cupti.h"
#include "symbols/elf_funcs.h"

static struct bpf_link *links[3];

static int semaphore_offset(const char *lib, uint64_t *off)
{
	static const char *const name[1] = { GPUTOP_CUPTI_SEMAPHORE };
	int fd = open(lib, O_RDONLY | O_CLOEXEC), err = -ENOENT;

	if (fd >= 0 && !elf_func_offsets(fd, name, 1, off) && *off)
		err = 0;
	if (fd >= 0)
		close(fd);
	return err;
}

static int attach(struct cupti_bpf *skel, const char *lib, uint64_t sem)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o);

	o.func_name = GPUTOP_CUPTI_NAME_FN;
	links[0] = bpf_program__attach_uprobe_opts(skel->progs.cupti_name, -1, lib, 0, &o);
	o.func_name = GPUTOP_CUPTI_STATUS_FN;
	links[1] = bpf_program__attach_uprobe_opts(skel->progs.cupti_status, -1, lib, 0, &o);
	/* last, with the semaphore: the library wakes only once the others are there */
	o.func_name = GPUTOP_CUPTI_RECORDS_FN;
	o.ref_ctr_offset = sem;
	links[2] = bpf_program__attach_uprobe_opts(skel->progs.cupti_records, -1, lib, 0, &o);
	return links[0] && links[1] && links[2] ? 0 : -1;
}

static void detach(void)
{
	for (int i = 2; i >= 0; i--) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
}

static void name_of(int names, uint32_t tgid, uint32_t id, struct cupti_name_val *v)
{
	struct cupti_name_key k = { .tgid = tgid, .id = id };

	if (!id || bpf_map_lookup_elem(names, &k, v))
		v->len = 0;
}

static void dump(struct cupti_bpf *skel)
{
	int kernels = bpf_map__fd(skel->maps.cupti_kernels), names = bpf_map__fd(skel->maps.cupti_names);
	int procs = bpf_map__fd(skel->maps.cupti_procs);
	struct cupti_kernel_key k, *prev = NULL;
	struct cupti_kernel_val v;
	struct cupti_name_val n;
	struct cupti_proc_val p;
	__u32 pid, *pprev = NULL;

	while (!bpf_map_get_next_key(kernels, prev, &k) && !bpf_map_lookup_elem(kernels, &k, &v)) {
		name_of(names, k.tgid, k.name_id, &n);
		printf("kernel pid=%u dev=%u kind=%u name=%.*s count=%llu total_ns=%llu max_ns=%llu bytes=%llu "
		       "queued=%llu queue_total_ns=%llu queue_max_ns=%llu\n",
		       k.tgid, k.device, k.kind, (int)n.len, n.name, v.count, v.total_ns, v.max_ns, v.bytes,
		       v.queued_count, v.queue_total_ns, v.queue_max_ns);
		prev = &k;
	}
	while (!bpf_map_get_next_key(procs, pprev, &pid) && !bpf_map_lookup_elem(procs, &pid, &p)) {
		printf("proc pid=%u batches=%llu records=%llu missed=%llu cupti_dropped=%llu library_dropped=%llu "
		       "state=%u abi=%u\n",
		       pid, p.batches, p.records, p.missed, p.cupti_dropped, p.library_dropped, p.state, p.abi);
		pprev = &pid;
	}
	printf("drops kernels_full=%llu names_full=%llu procs_full=%llu read=%llu\nend\n",
	       skel->bss->drops[CUPTI_DROP_KERNELS_FULL], skel->bss->drops[CUPTI_DROP_NAMES_FULL],
	       skel->bss->drops[CUPTI_DROP_PROCS_FULL], skel->bss->drops[CUPTI_DROP_READ]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct cupti_bpf *skel;
	char line[64];
	uint64_t sem;

	if (argc != 2) {
		fprintf(stderr, "usage: cupti-probe LIB\n");
		return 2;
	}
	if (semaphore_offset(argv[1], &sem)) {
		fprintf(stderr, "cupti-probe: no %s in %s\n", GPUTOP_CUPTI_SEMAPHORE, argv[1]);
		return 1;
	}
	skel = cupti_bpf__open_and_load();
	if (!skel || attach(skel, argv[1], sem)) {
		fprintf(stderr, "cupti-probe: cannot load or attach: %s\n", strerror(errno));
		return 1;
	}
	printf("attached semaphore_offset=0x%llx\n", (unsigned long long)sem);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (!strcmp(line, "dump\n"))
			dump(skel);
		else if (!strcmp(line, "detach\n"))
			detach();
		else if (!strcmp(line, "attach\n") && attach(skel, argv[1], sem))
			return 1;
	}
	detach();
	cupti_bpf__destroy(skel);
	return 0;
}
