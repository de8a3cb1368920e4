// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpf_cost: per-event cost of every BPF program on the system, from the kernel's
 * own statistics (kernel.bpf_stats_enabled: run_cnt, run_time_ns), beside empty
 * programs it attaches to the same gpu_scheduler raw tracepoints as the floor.
 *   bpf_cost SECONDS [--primitives]   enable stats, attach the empty programs (and
 *   with --primitives one program per primitive: a clock read, a probe read, an
 *   atomic, map operations), wait, print a table
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "empty.skel.h"

static int write_sysctl(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(value, f);
	return fclose(f) ? -errno : 0;
}

static bool tp_exists(const char *event)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/gpu_scheduler/%s", event);
	return access(path, F_OK) == 0;
}

static int print_table(void)
{
	__u32 id = 0;

	printf("%-18s %12s %14s %10s\n", "PROGRAM", "EVENTS", "RUN_TIME_NS", "NS/EVENT");
	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.run_cnt)
			printf("%-18s %12llu %14llu %10.1f\n", info.name,
			       (unsigned long long)info.run_cnt,
			       (unsigned long long)info.run_time_ns,
			       (double)info.run_time_ns / (double)info.run_cnt);
		close(fd);
	}
	return 0;
}

/* Attaches an empty program to the first of the tracepoint names this kernel has. */
static struct bpf_link *attach_empty(struct bpf_program *prog, const char *new_name,
				     const char *old_name)
{
	const char *name = tp_exists(new_name) ? new_name : old_name;
	struct bpf_link *link = bpf_program__attach_raw_tracepoint(prog, name);

	if (!link)
		fprintf(stderr, "bpf_cost: cannot attach %s to %s\n", bpf_program__name(prog), name);
	return link;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 0;
	bool primitives = argc > 2 && !strcmp(argv[2], "--primitives");
	struct bpf_link *links[3], *prim[7] = { 0 };
	struct empty_bpf *skel;

	if (seconds <= 0) {
		fprintf(stderr, "usage: bpf_cost SECONDS\n");
		return 2;
	}
	skel = empty_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bpf_cost: cannot load the empty programs\n");
		return 1;
	}
	links[0] = attach_empty(skel->progs.empty_queue, "drm_sched_job_queue", "drm_sched_job");
	links[1] = attach_empty(skel->progs.empty_run, "drm_sched_job_run", "drm_run_job");
	links[2] = attach_empty(skel->progs.empty_done, "drm_sched_job_done", "drm_sched_process_job");
	if (!links[0] || !links[1] || !links[2])
		return 1;
	if (primitives) {
		struct bpf_program *p[7] = { skel->progs.prim_ktime, skel->progs.prim_probe_read,
					     skel->progs.prim_atomic, skel->progs.prim_pcpu,
					     skel->progs.prim_hash_look, skel->progs.prim_hash_updel,
					     skel->progs.prim_lru_updel };

		for (int i = 0; i < 7; i++)
			prim[i] = attach_empty(p[i], "drm_sched_job_done", "drm_sched_process_job");
	}
	if (write_sysctl("/proc/sys/kernel/bpf_stats_enabled", "1")) {
		fprintf(stderr, "bpf_cost: cannot enable kernel.bpf_stats_enabled\n");
		return 1;
	}
	sleep((unsigned int)seconds);
	print_table();
	write_sysctl("/proc/sys/kernel/bpf_stats_enabled", "0");
	for (int i = 0; i < 3; i++)
		bpf_link__destroy(links[i]);
	for (int i = 0; i < 7; i++)
		bpf_link__destroy(prim[i]);
	empty_bpf__destroy(skel);
	return 0;
}
