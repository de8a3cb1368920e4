/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Command line. */
#ifndef GPUTOP_OPTIONS_H
#define GPUTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define METRICS_MAX_ROWS_DEFAULT 1000
#define TRACE_MAX_MB_DEFAULT 64

struct options {
	bool batch; /* -b, or chosen because stdout is not a terminal */
	bool json; /* -J */
	bool list; /* --list */
	bool verbose; /* -v: libbpf's messages */
	bool help, version;
	bool all_irqs; /* --all-irqs */
	bool programs; /* --programs: batch text lists self.programs */
	long iterations; /* -n; 0 = until interrupted */
	double delay_s; /* -d */
	const char *output; /* -o FILE, NULL = stdout */
	uint32_t pid; /* -p; 0 = every process */
	bool delay_given; /* -d was on the command line */
	const char *record; /* --record FILE */
	const char *replay; /* --replay FILE */
	const char *theme; /* --theme NAME|FILE */
	const char *libcuda; /* --libcuda PATH */
	const char *stacks; /* --stacks FILE: folded stacks of launches and jobs, written at the end */
	int stacks_weight; /* --stacks-weight: enum stack_weight (default count) */
	bool stacks_weight_given;
	bool no_color; /* -C, or NO_COLOR set */
	const char *listen; /* --listen [ADDR:]PORT: serve /metrics */
	long metrics_max_rows; /* --metrics-max-rows N: rows exported per table (0: no cap) */
	const char *web_config; /* --web-config FILE: TLS and users of the endpoint */
	bool metrics_private; /* --metrics-private: other users' process names left out */
	bool batch_given; /* -b was on the command line */
	const char *sysfs; /* --sysfs DIR: sysfs readers look there instead of /sys */
	const char *procfs; /* --procfs DIR: likewise for /proc */
	const char *trace; /* --trace FILE: a Perfetto trace of the counters */
	double duration_s; /* --duration SECONDS: the trace's length; 0 = until stopped */
	long trace_max_mb; /* --trace-max-mb N: the trace file's size at most, MiB */
	bool sched_stream; /* --sched-design stream (default map; stream with --trace) */
	bool sched_design_given; /* --sched-design was given */
};

/* 0 on success; -1 with a one-line message in err (no program name, no newline). */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);
void options_usage(FILE *out);

#endif
