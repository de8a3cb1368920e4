// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpf_cost: per-event cost of every BPF program on the system, from the kernel's
 * own statistics (kernel.bpf_stats_enabled: run_cnt, run_time_ns), beside empty
 * programs it attaches to the same gpu_scheduler tracepoints as the floor.
 *   bpf_cost SECONDS     enable stats, attach the empty programs, wait, print a table
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

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 0;
	struct empty_bpf *skel;
	bool new_gen = tp_exists("drm_sched_job_queue");

	if (seconds <= 0) {
		fprintf(stderr, "usage: bpf_cost SECONDS\n");
		return 2;
	}
	skel = empty_bpf__open();
	if (!skel)
		return 1;
	bpf_program__set_autoload(skel->progs.empty_queue, new_gen);
	bpf_program__set_autoload(skel->progs.empty_run, new_gen);
	bpf_program__set_autoload(skel->progs.empty_done, new_gen);
	bpf_program__set_autoload(skel->progs.empty_queue_old, !new_gen);
	bpf_program__set_autoload(skel->progs.empty_run_old, !new_gen);
	bpf_program__set_autoload(skel->progs.empty_done_old, !new_gen);
	if (empty_bpf__load(skel) || empty_bpf__attach(skel)) {
		fprintf(stderr, "bpf_cost: cannot load or attach the empty programs\n");
		return 1;
	}
	if (write_sysctl("/proc/sys/kernel/bpf_stats_enabled", "1")) {
		fprintf(stderr, "bpf_cost: cannot enable kernel.bpf_stats_enabled\n");
		return 1;
	}
	sleep((unsigned int)seconds);
	print_table();
	write_sysctl("/proc/sys/kernel/bpf_stats_enabled", "0");
	empty_bpf__destroy(skel);
	return 0;
}
