// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/decimal.h"
#include "core/delay.h"
#include "core/listen_addr.h"
#include "core/privileges.h"
#include "src/options.h"
#include "symbols/stack_file.h"

enum { OPT_LIST = 0x100, OPT_ALL_IRQS, OPT_RECORD, OPT_REPLAY, OPT_THEME, OPT_LIBCUDA, OPT_LISTEN,
       OPT_METRICS_MAX_ROWS, OPT_WEB_CONFIG, OPT_METRICS_PRIVATE, OPT_SYSFS, OPT_PROCFS, OPT_PROGRAMS,
       OPT_TRACE, OPT_DURATION, OPT_TRACE_MAX_MB, OPT_STACKS, OPT_STACKS_WEIGHT,
       OPT_SCHED_DESIGN };

static const struct option long_options[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'J' },
	{ "output", required_argument, NULL, 'o' },
	{ "pid", required_argument, NULL, 'p' },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "all-irqs", no_argument, NULL, OPT_ALL_IRQS },
	{ "programs", no_argument, NULL, OPT_PROGRAMS },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "libcuda", required_argument, NULL, OPT_LIBCUDA },
	{ "stacks", required_argument, NULL, OPT_STACKS },
	{ "stacks-weight", required_argument, NULL, OPT_STACKS_WEIGHT },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "metrics-max-rows", required_argument, NULL, OPT_METRICS_MAX_ROWS },
	{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
	{ "metrics-private", no_argument, NULL, OPT_METRICS_PRIVATE },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "procfs", required_argument, NULL, OPT_PROCFS },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "trace-max-mb", required_argument, NULL, OPT_TRACE_MAX_MB },
	{ "sched-design", required_argument, NULL, OPT_SCHED_DESIGN },
	{ "no-color", no_argument, NULL, 'C' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

void options_usage(FILE *out)
{
	fputs("Usage: gputop-bpf [OPTION]...\n"
	      "Live monitor of what Linux GPU drivers do, from eBPF programs on kernel tracepoints.\n"
	      "\n"
	      "Without -b, at a terminal: an interactive top-like interface (press h for its keys).\n"
	      "\n"
	      "  -b, --batch            headless snapshots on stdout (default when stdout is not a terminal)\n"
	      "  -n, --iterations N     stop after N snapshots (default: run until interrupted)\n"
	      "  -d, --delay SECONDS    refresh interval, fractions allowed (default 1.0, 0.05 to 3600;\n"
	      "                         + and - in the interface step within the same range)\n"
	      "  -J, --json             one JSON object per snapshot, one per line\n"
	      "  -o, --output FILE      write snapshots to FILE instead of stdout\n"
	      "  -p, --pid PID          show only this process's rows (rings stay system-wide)\n"
	      "      --list             list every collector and tracepoint: attached, available or\n"
	      "                         missing, with the reason and the fix; then exit (-J: as JSON)\n"
	      "      --all-irqs         report every interrupt line, not only the GPU drivers'\n"
	      "      --programs         batch text: also gputop-bpf's own BPF programs (self.programs;\n"
	      "                         JSON always has them)\n"
	      "      --record FILE      also write every snapshot to FILE as JSON lines\n"
	      "      --replay FILE      play a recording back (no root, no BPF): interactive, or with -b\n"
	      "      --theme NAME|FILE  colour theme: default, light, high-contrast, monochrome, or a file\n"
	      "      --libcuda PATH     the CUDA driver library to probe (default: the loader cache's\n"
	      "                         libcuda.so.1 and those running processes have mapped)\n"
	      "      --stacks FILE      take the CPU call stacks of CUDA launches, of DRM scheduler\n"
	      "                         jobs (their ring the leaf) or of GPU ioctls, fence waits and\n"
	      "                         CUDA syncs (the call the leaf): live in the tables\n"
	      "                         nvidia.stacks (launches, syncs), drm_sched.stacks (jobs) and\n"
	      "                         calls.stacks (ioctls, fence waits) (-J, --record), and\n"
	      "                         all into FILE at the end as folded stacks (flamegraph.pl,\n"
	      "                         inferno); a FILE ending in .svg gets a flame graph; FILE - :\n"
	      "                         the tables only; with --replay: FILE from the recording's\n"
	      "                         stacks tables\n"
	      "      --stacks-weight W  what --stacks weighs: count (a launch or a job counts one,\n"
	      "                         default; no calls or syncs), launches, jobs, gpu-time (ns:\n"
	      "                         jobs run to done, CUDA kernels start to end with the CUPTI\n"
	      "                         library), queue-wait (ns: jobs queue to run, kernels queued\n"
	      "                         to start); calls\n"
	      "                         (a GPU ioctl or a fence wait counts one) or blocked (ns inside\n"
	      "                         them): calls only; syncs (a CUDA cu*Synchronize counts one)\n"
	      "                         or sync-time (ns inside them): CUDA syncs only\n"
	      "      --listen [ADDR:]PORT  serve Prometheus / OpenMetrics metrics at\n"
	      "                         http://ADDR:PORT/metrics (ADDR defaults to 127.0.0.1; ':PORT'\n"
	      "                         is every address); without a terminal and without -b, only that\n"
	      "      --metrics-max-rows N  rows exported per table at most, the busiest (default 1000,\n"
	      "                         0: no cap); what is left out is counted\n"
	      "      --web-config FILE  TLS and users for --listen, in Prometheus' exporter-toolkit\n"
	      "                         format (tls_server_config, basic_auth_users)\n"
	      "      --metrics-private  leave out the command names and containers of other users'\n"
	      "                         processes from the metrics\n"
	      "      --sysfs DIR        read sysfs (devices, sensors, kfd, memory totals) under DIR\n"
	      "                         instead of /sys: a fixture tree, a host's /sys in a container\n"
	      "      --procfs DIR       likewise for /proc (the NVIDIA driver's GPU list)\n"
	      "      --trace FILE       write a Perfetto trace (protobuf): each DRM scheduler job a\n"
	      "                         slice on its ring (queued, running, done; its process; a\n"
	      "                         flow from the job it waited for), and the counters: memory\n"
	      "                         per device and region, busy %, ring queue depth,\n"
	      "                         temperatures, clocks; vblanks per CRTC and page-flip or\n"
	      "                         vblank events per client (late ones: missed frames);\n"
	      "                         GPU ioctls, fence waits, CUDA launches (by kernel) and\n"
	      "                         synchronisations per thread; CUDA kernels and copies per\n"
	      "                         GPU and stream, a flow from each launch (the CUPTI library);\n"
	      "                         headless: snapshots too only with -b, -J or -o; a FILE\n"
	      "                         ending in .svg gets the trace drawn as a timeline instead\n"
	      "      --duration SECONDS  with --trace: stop after this long (default: until stopped)\n"
	      "      --trace-max-mb N   the trace file's size at most, in MiB (default 64); what does\n"
	      "                         not fit is counted and noted in the trace\n"
	      "      --sched-design map|stream  how the scheduler collector follows jobs: in BPF maps\n"
	      "                         (default), or each event streamed and matched in user space\n"
	      "                         (the default with --trace and --stacks: the jobs come from it)\n"
	      "  -C, --no-color         no colours (also when NO_COLOR is set)\n"
	      "  -v, --verbose          libbpf's own messages (verifier log on failure); start and quit times\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and the collectors built in, and exit\n"
	      "\n"
	      "The BPF collectors need root, or " PRIVILEGES_NAMES ";\n"
	      "without them it starts with what needs none (sensors, devices, your own processes).\n"
	      "See gputop-bpf(8).\n",
	      out);
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* --duration SECONDS (more than 0, at most a week) and --trace-max-mb N (1 to 1048576). */
static int parse_trace_limit(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	double d;

	if (c == OPT_TRACE_MAX_MB) {
		if (!parse_long(arg, 1, 1L << 20, &o->trace_max_mb))
			return 0;
		snprintf(err, errlen, "invalid --trace-max-mb '%s': expected MiB from 1 to 1048576",
			 arg);
		return -1;
	}
	errno = 0;
	d = decimal_text(arg) ? strtod(arg, NULL) : 0; /* strtod alone takes "0x10" and "1e3" */
	if (d > 0 && !errno && d <= 7 * 86400.0) {
		o->duration_s = d;
		return 0;
	}
	snprintf(err, errlen,
		 "invalid --duration '%s': expected seconds as " DECIMAL_TEXT_FORM ", more than 0 (e.g. 10)", arg);
	return -1;
}

/* An option without a value (-b, --list ...): set; false where c is not one. */
static bool set_flag(int c, struct options *o)
{
	switch (c) {
	case 'b':
		o->batch = true;
		o->batch_given = true;
		return true;
	case 'J':
		o->json = true;
		return true;
	case OPT_LIST:
		o->list = true;
		return true;
	case OPT_ALL_IRQS:
		o->all_irqs = true;
		return true;
	case OPT_PROGRAMS:
		o->programs = true;
		return true;
	case OPT_METRICS_PRIVATE:
		o->metrics_private = true;
		return true;
	case 'C':
		o->no_color = true;
		return true;
	case 'v':
		o->verbose = true;
		return true;
	case 'h':
		o->help = true;
		return true;
	case 'V':
		o->version = true;
		return true;
	default:
		return false;
	}
}

/* -n, -d, -p and --metrics-max-rows: a number in its range, or -1 with err said. */
static int parse_number(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;

	if (c == 'd') {
		if (delay_parse(arg, &o->delay_s)) {
			snprintf(err, errlen,
				 "invalid delay '%s': expected seconds as " DECIMAL_TEXT_FORM
				 " between " DELAY_RANGE_TEXT " (e.g. -d 0.5)",
				 arg);
			return -1;
		}
		o->delay_given = true;
	} else if (c == 'n') {
		if (parse_long(arg, 1, 1000000000L, &v)) {
			snprintf(err, errlen, "invalid iteration count '%s': expected a whole number >= 1", arg);
			return -1;
		}
		o->iterations = v;
	} else if (c == 'p') {
		if (parse_long(arg, 1, 0x7fffffffL, &v)) {
			snprintf(err, errlen, "invalid PID '%s': expected a positive number", arg);
			return -1;
		}
		o->pid = (uint32_t)v;
	} else {
		if (parse_long(arg, 0, 100000000L, &v)) {
			snprintf(err, errlen, "invalid --metrics-max-rows '%s': expected a whole number >= 0", arg);
			return -1;
		}
		o->metrics_max_rows = v;
	}
	return 0;
}

/* The options that name a file, a folder or a theme: a non-empty value kept as given. */
static int set_name(int c, char **argv, struct options *o, char *err, size_t errlen)
{
	if (!*optarg) {
		snprintf(err, errlen, "option '%s' needs a non-empty value", argv[optind - 1]);
		return -1;
	}
	*(c == OPT_RECORD     ? &o->record :
	  c == OPT_REPLAY     ? &o->replay :
	  c == OPT_LIBCUDA    ? &o->libcuda :
	  c == OPT_WEB_CONFIG ? &o->web_config :
	  c == OPT_SYSFS      ? &o->sysfs :
	  c == OPT_PROCFS     ? &o->procfs :
	  c == OPT_TRACE      ? &o->trace :
	  c == OPT_STACKS     ? &o->stacks :
				&o->theme) = optarg;
	return 0;
}

/* --stacks-weight and --sched-design: one of their words. */
static int parse_choice(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	if (c == OPT_STACKS_WEIGHT) {
		o->stacks_weight = stack_weight_parse(arg);
		if (o->stacks_weight < 0) {
			snprintf(err, errlen,
				 "invalid --stacks-weight '%s': expected count, launches, jobs, "
				 "gpu-time, queue-wait, calls, blocked, syncs or sync-time",
				 arg);
			return -1;
		}
		o->stacks_weight_given = true;
		return 0;
	}
	if (strcmp(arg, "map") && strcmp(arg, "stream")) {
		snprintf(err, errlen, "invalid scheduler design '%s': expected map or stream", arg);
		return -1;
	}
	o->sched_stream = !strcmp(arg, "stream");
	o->sched_design_given = true;
	return 0;
}

/* --listen [ADDR:]PORT: a bad one is refused here, as any bad value (exit 2), not when it is bound. */
static int parse_listen(const char *arg, struct options *o, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (listen_addr_parse(arg, &ss, &len)) {
		snprintf(err, errlen, "invalid --listen '%.80s': expected " LISTEN_ADDR_FORM, arg);
		return -1;
	}
	o->listen = arg;
	return 0;
}

/* One option getopt_long returned (its value in optarg): 0, or -1 with err said. */
static int parse_option(int c, char **argv, struct options *o, char *err, size_t errlen)
{
	if (set_flag(c, o))
		return 0;
	switch (c) {
	case 'n':
	case 'd':
	case 'p':
	case OPT_METRICS_MAX_ROWS:
		return parse_number(c, optarg, o, err, errlen);
	case 'o':
		if (!*optarg) {
			snprintf(err, errlen, "empty output file name");
			return -1;
		}
		o->output = optarg;
		return 0;
	case OPT_RECORD:
	case OPT_REPLAY:
	case OPT_THEME:
	case OPT_LIBCUDA:
	case OPT_WEB_CONFIG:
	case OPT_SYSFS:
	case OPT_PROCFS:
	case OPT_TRACE:
	case OPT_STACKS:
		return set_name(c, argv, o, err, errlen);
	case OPT_DURATION:
	case OPT_TRACE_MAX_MB:
		return parse_trace_limit(c, optarg, o, err, errlen);
	case OPT_STACKS_WEIGHT:
	case OPT_SCHED_DESIGN:
		return parse_choice(c, optarg, o, err, errlen);
	case OPT_LISTEN:
		return parse_listen(optarg, o, err, errlen);
	case ':':
		snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
		return -1;
	default:
		if (optopt)
			snprintf(err, errlen, "unknown option '-%c'", optopt);
		else
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
		return -1;
	}
}

/* The options given together that cannot be: -1 with err said of the first such pair. */
static int check_combinations(const struct options *o, char *err, size_t errlen)
{
	if (o->replay && o->record) {
		snprintf(err, errlen, "--record and --replay cannot be used together");
		return -1;
	}
	if (o->replay && o->stacks && !strcmp(o->stacks, "-")) {
		snprintf(err, errlen,
			 "--stacks - takes stacks into the tables, which a recording has already: "
			 "with --replay give --stacks FILE (its stacks tables written there)");
		return -1;
	}
	if (o->stacks_weight_given && !o->stacks) {
		snprintf(err, errlen, "--stacks-weight weighs the stacks of --stacks FILE (or -): give both");
		return -1;
	}
	if (o->stacks && stack_weight_takes(o->stacks_weight, STACK_SOURCE_JOBS) &&
	    o->sched_design_given && !o->sched_stream) {
		snprintf(err, errlen,
			 "--stacks takes the scheduler's stacks in the streamed design: not with --sched-design map (or a --stacks-weight without jobs: launches, calls, blocked, syncs, sync-time)");
		return -1;
	}
	if (o->replay && o->libcuda) {
		snprintf(err, errlen, "--libcuda names a library to probe; it cannot be used with --replay");
		return -1;
	}
	if (o->list && o->listen) {
		snprintf(err, errlen, "--list prints and exits; it cannot be used with --listen");
		return -1;
	}
	if ((o->web_config || o->metrics_private) && !o->listen) {
		snprintf(err, errlen, "%s is for the metrics endpoint: give --listen too",
			 o->web_config ? "--web-config" : "--metrics-private");
		return -1;
	}
	if (o->replay && (o->sysfs || o->procfs)) {
		snprintf(err, errlen, "%s names where to read this machine's files; it cannot be used with --replay",
			 o->sysfs ? "--sysfs" : "--procfs");
		return -1;
	}
	if ((o->duration_s > 0 || o->trace_max_mb != TRACE_MAX_MB_DEFAULT) && !o->trace) {
		snprintf(err, errlen, "%s is for the trace: give --trace FILE too",
			 o->duration_s > 0 ? "--duration" : "--trace-max-mb");
		return -1;
	}
	if (o->trace && o->list) {
		snprintf(err, errlen, "--list prints and exits; it cannot be used with --trace");
		return -1;
	}
	if (o->replay && o->list) {
		snprintf(err, errlen, "--list inspects this machine; it cannot be used with --replay");
		return -1;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->delay_s = DELAY_DEFAULT_S;
	o->metrics_max_rows = METRICS_MAX_ROWS_DEFAULT;
	o->trace_max_mb = TRACE_MAX_MB_DEFAULT;
	optind = 0; /* full reset: options_parse may be called more than once (tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:Jo:p:vhVC", long_options, NULL)) != -1)
		if (parse_option(c, argv, o, err, errlen))
			return -1;
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return check_combinations(o, err, errlen);
}
