// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* gputop-bpf: set-up, the collectors' lifecycle, and the batch front end. */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "core/clock.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/collector.h"
#include "collectors/kit/link_reaper.h"
#include "collectors/kit/stack_copy.h"
#include "collectors/kit/tracefs.h"
#include "core/svg.h"
#include "output/trace_svg.h"
#include "output/json.h"
#include "output/text.h"
#include "tui/tui.h"
#include "src/capture.h"
#include "src/exporter.h"
#include "src/web_config.h"
#include "src/options.h"
#include "src/poller.h"
#include "src/replay_stacks.h"
#include "src/stacks_key.h"
#include "src/tui_capture.h"
#include "recording/replay.h"
#include "core/privileges.h"
#include "core/sysroot.h"
#include "core/version.h"
#include "symbols/stack_file.h"
#include "symbols/sym_child.h"

#define PROG "gputop-bpf"

enum exit_code {
	EXIT_OK = 0,
	EXIT_FAILURE_RUN = 1, /* the run cannot go on: privileges, tracefs, BTF, I/O */
	EXIT_USAGE = 2, /* bad command line */
};

static volatile sig_atomic_t stop_requested;
static bool verbose;
static uint64_t began_ns; /* main's first step (-v's start times) */
static struct exporter *exporter; /* --listen */
static struct web_config web; /* --web-config, for the exporter's life */
static struct capture *trace; /* --trace */
static char notice[160]; /* a line the interface's status line says at the start (pid_notice) */
static struct {
	FILE *out; /* --trace FILE.svg: the user's file; the trace goes to buf first */
	char *buf;
	size_t len;
} trace_svg;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	if (!verbose)
		return 0; /* collectors report their failures in one line each */
	return vfprintf(stderr, fmt, args);
}

/* One clear line; under -J the same message as {"error": ...} on stdout too. */
static void fail(const struct options *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\n", msg);
	if (o && o->json) {
		char *line = json_error(msg);

		if (line) {
			printf("%s\n", line);
			free(line);
		}
	}
}

static void print_version(void)
{
	size_t n;
	const struct collector_ops *const *reg = collector_registry(&n);

	printf(PROG " %s (libbpf %d.%d)\ncollectors:\n", GPUTOP_VERSION, libbpf_major_version(),
	       libbpf_minor_version());
	for (size_t i = 0; i < n; i++)
		printf("  %-10s %s\n", reg[i]->name, reg[i]->description);
#ifdef GPUTOP_TEST_HOOKS
	printf("test build (make TEST_HOOKS=1): GPUTOP_TEST_* variables change what it attaches to;"
	       " for the test suites only, never to be installed\n");
#endif
}

/*
 * Privileges, tracefs and kernel BTF: what every BPF collector needs. Without
 * the privileges it starts anyway, with the collectors that need none (sysfs,
 * the user's own fdinfo), and says once what root adds.
 */
/* 0 when the invoking user may write path (the file the nvidia collector opens), else -1 with errno. */
static struct stack_file stacks_file; /* --stacks, or armed for the interface's c key */
static struct stacks_key stacks_key; /* c: NULL ops.impl where there is none */

/* --stacks FILE (or -: tables only), opened (emptied) with the user's rights; the scheduler's stacks come streamed. */
static int open_stacks(const struct options *o, struct collector_config *config)
{
	char why[300];

	if (!o->stacks && !o->batch && !o->list) {
		config->stacks = &stacks_file; /* armed: the interface's c key opens it */
		return 0;
	}
	if (!o->stacks || o->list)
		return 0;
	if (stack_file_open(&stacks_file, o->stacks, (enum stack_weight)o->stacks_weight, why,
			    sizeof(why))) {
		fail(o, "cannot open stacks file: %s", why);
		return -1;
	}
	config->stacks = &stacks_file;
	if (stack_weight_takes(stacks_file.weight, STACK_SOURCE_JOBS))
		config->sched_stream = true; /* options_parse refused --sched-design map */
	return 0;
}

/* What the monitor's last texts (the stacks file, the trace) may wait for the symbolizing child in all. */
#define LAST_TEXTS_WAIT_MS 2000

/*
 * The symbolizing child (symbols/sym_child.h) stopped; a line where one ended early, or where what it
 * owed (ended, or late) or what was not asked of it went unknown: for good (a dead child's, a stack
 * copy's), for a while (a frame's, asked again), or in the last texts (late_at_end frames).
 */
static void close_symbolizer(uint64_t late_at_end)
{
	struct sym_child_stats st;
	char ended[256] = "", skipped[128] = "", late[96] = "";

	sym_child_stop(); /* first: no thread waits for it then, the counts read are the last */
	st = sym_child_stats();
	if (!st.died && !st.frames_lost && !st.unwinds_lost && !st.skipped && !late_at_end)
		return;
	if (st.died)
		snprintf(ended, sizeof(ended), "ended %llu times (the last: %s), %llu started in all; ",
			 (unsigned long long)st.died, st.why[0] ? st.why : "-", (unsigned long long)st.started);
	if (st.skipped)
		snprintf(skipped, sizeof(skipped),
			 "; %llu requests made while it was late not asked (frames asked again at their next use)",
			 (unsigned long long)st.skipped);
	if (late_at_end)
		snprintf(late, sizeof(late), "; %llu frames [unknown] in the last texts (it was late)",
			 (unsigned long long)late_at_end);
	fprintf(stderr,
		PROG ": the symbolizing child %s%llu frames and %llu stack copies it owed shown [unknown]%s%s\n",
		ended[0] ? ended : "was late: ", (unsigned long long)st.frames_lost,
		(unsigned long long)st.unwinds_lost, skipped, late);
}

/*
 * The stacks file's end (the SVG drawn); a line on what it holds, and one on the
 * copies unwound where there were some. Returns rc, or a failure.
 */
static int close_stacks(const struct options *o, int rc)
{
	uint64_t lines = stacks_file.lines, total = stacks_file.total, lost = stacks_file.lost;
	enum stack_weight w = stacks_file.weight;
	struct stack_copy_cost cost = stack_copy_cost_read();
	char untimed[160];
	int err;

	stack_file_untimed_note(&stacks_file, untimed, sizeof(untimed));
	if (!stacks_file.open) /* not opened: --list, or it failed and said so */
		return rc;
	if (!stacks_file.out) /* "-": the tables only */
		return stack_file_close(&stacks_file), rc;
	err = stack_file_close(&stacks_file);
	if (err) {
		fprintf(stderr, PROG ": writing the stacks '%s' failed: %s\n", o->stacks,
			strerror(-err));
		return rc == EXIT_OK ? EXIT_FAILURE_RUN : rc;
	}
	fprintf(stderr, PROG ": stacks '%s': %llu stacks, weight %s %llu%s, %llu %s not kept%s\n", o->stacks,
		(unsigned long long)lines, stack_weight_name(w), (unsigned long long)total,
		stack_weight_ns(w) ? " ns" : "", (unsigned long long)lost,
		stack_weight_takes(w, STACK_SOURCE_CALLS) ? "calls" :
		stack_weight_takes(w, STACK_SOURCE_SYNCS) ? "syncs" :
							    "jobs",
		untimed);
	if (cost.copies) /* the monitor's own DWARF unwinding (collectors/kit/stack_copy.h) */
		fprintf(stderr,
			PROG ": stacks '%s': %llu copies unwound in %.1f ms of CPU (%.1f \u00b5s each)\n",
			o->stacks, (unsigned long long)cost.copies, (double)cost.cpu_ns / 1e6,
			(double)cost.cpu_ns / 1e3 / (double)cost.copies);
	if (cost.cfi_refused) /* symbols/cfi_check.h */
		fprintf(stderr,
			PROG ": stacks '%s': CFI refused %llu times (a file once a process: programs past the "
			     "bounds libdw is given), their frames unwound by frame pointers\n",
			o->stacks, (unsigned long long)cost.cfi_refused);
	return rc;
}

static int check_environment(const struct options *o)
{
	int err;

	if (!privileges_sufficient()) {
		collectors_unprivileged();
		if (!o->list)
			fprintf(stderr,
				PROG ": without privilege: sensors, devices and your own processes' GPU memory only; "
				     "root or " PRIVILEGES_NAMES " add the BPF collectors ('sudo " PROG "')\n");
		return 0;
	}
	err = tracefs_ensure_mounted();
	if (err) {
		fail(o, "tracefs is not mounted and mounting it failed (%s): run 'sudo mount -t tracefs nodev /sys/kernel/tracing'",
		     strerror(-err));
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fail(o, "no kernel BTF (/sys/kernel/btf/vmlinux): " PROG
			" needs a kernel built with CONFIG_DEBUG_INFO_BTF=y (Debian, Ubuntu and Fedora kernels have it)");
		return -1;
	}
	return 0;
}

/*
 * --sysfs and --procfs: the readers look there. The trees are the user's: a
 * user who is not root reads them with no capability (which also leaves out
 * what needs one, as for any unprivileged run).
 */
static int set_roots(const struct options *o)
{
	struct stat st;

	for (int i = 0; i < 2; i++) {
		const char *dir = i ? o->procfs : o->sysfs, *name = i ? "--procfs" : "--sysfs";

		if (!dir)
			continue;
		if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			fail(o, "%s '%s': not a directory", name, dir);
			return -1;
		}
		if (sysroot_set(i ? SYSROOT_PROC : SYSROOT_SYS, dir)) {
			fail(o, "%s '%s': the path is too long", name, dir);
			return -1;
		}
	}
	if ((o->sysfs || o->procfs) && getuid() != 0 && privileges_drop_all()) {
		fail(o, "cannot give up the capabilities before reading the trees --sysfs and --procfs name");
		return -1;
	}
	return 0;
}

/* A snapshot as text or -J; empty: what its tables without a row say (the rows of the snapshots before). */
static void emit(FILE *out, const struct options *o, const struct snapshot *s, const struct empty_context *empty)
{
	if (o->json) {
		char *line = snapshot_to_json_noted(s, empty);

		if (line) {
			fprintf(out, "%s\n", line);
			free(line);
		}
	} else {
		struct text_settings ts = { .programs = o->programs, .empty = *empty };

		snapshot_print_text(out, s, &ts);
	}
	fflush(out);
}

/* --trace alone is headless and prints nothing; with -b, -J or -o the snapshots go out too. */
static bool prints_snapshots(const struct options *o)
{
	return !o->trace || o->batch_given || o->json || o->output;
}

/* --duration: whether the snapshot ends the trace (the first one's interval starts it). */
static bool duration_reached(const struct options *o, const struct snapshot *s, double *start_s)
{
	if (*start_s < 0)
		*start_s = s->uptime_s - s->interval_s;
	return o->duration_s > 0 && s->uptime_s - *start_s >= o->duration_s - 1e-9;
}

/* A snapshot into the trace; false when writing it failed (said when the trace closes). */
static bool trace_add(const struct snapshot *s)
{
	return !trace || capture_add(trace, s);
}

static int run_batch(const struct options *o, const struct feed *feed, FILE *out)
{
	struct table_seen *seen = table_seen_new(); /* NULL: the empty tables' own texts, nothing of before */
	struct empty_context empty = { .seen = seen, .pid_filter = o->pid, .replay = feed->replay };
	uint64_t seq = 0;
	long printed = 0;
	double start_s = -1;
	bool done = false, pid_seen = false;
	int rc = EXIT_OK;

	while (!stop_requested && !done && (!o->iterations || printed < o->iterations) &&
	       !*feed->ops->error(feed->impl)) {
		const struct snapshot *s = feed->ops->take(feed->impl, seq, 200);

		if (!s) {
			if (feed->ops->finished(feed->impl))
				break;
			continue;
		}
		seq = s->seq;
		table_seen_update(seen, s);
		pid_seen = pid_seen || (o->pid && snapshot_has_pid(s, o->pid));
		if (prints_snapshots(o))
			emit(out, o, s, &empty);
		done = duration_reached(o, s, &start_s);
		if (!trace_add(s)) {
			feed->ops->release(feed->impl, s);
			rc = EXIT_FAILURE_RUN;
			break;
		}
		if (done && trace)
			capture_end(trace, s); /* the events after it are not the capture's */
		feed->ops->release(feed->impl, s);
		printed++;
		if (ferror(out)) {
			fail(o, "writing the output failed: %s", strerror(errno));
			rc = EXIT_FAILURE_RUN;
			break;
		}
	}
	table_seen_free(seen);
	if (rc == EXIT_OK && *feed->ops->error(feed->impl)) {
		fail(o, "%s", feed->ops->error(feed->impl));
		return EXIT_FAILURE_RUN;
	}
	if (rc == EXIT_OK && feed->replay && o->pid && !pid_seen && printed) /* the rows shown were all there was */
		fprintf(stderr, PROG ": -p %u: process %u was not seen in %s\n", o->pid, o->pid,
			feed->ops->finished(feed->impl) ? "the recording" : "the snapshots played");
	return rc;
}

/* --listen (and --web-config): the endpoint starts before anything else, so that its errors come first. */
static int start_exporter(const struct options *o)
{
	struct exporter_settings s = { .listen = o->listen,
				       .max_rows = (size_t)o->metrics_max_rows,
				       .private_names = o->metrics_private };
	char err[512];

	if (o->web_config) {
		if (web_config_load(o->web_config, &web, err, sizeof(err))) {
			fail(o, "%s", err);
			return -1;
		}
		s.web = &web;
	}
	exporter = exporter_start(&s, err, sizeof(err));
	if (!exporter) {
		fail(o, "%s", err);
		return -1;
	}
	fprintf(stderr, PROG ": serving metrics at %s%s\n", exporter_address(exporter),
		web.nusers ? " (basic authentication)" : "");
	return 0;
}

/* --listen without a terminal, -b, -o or --trace: the endpoint alone, until a signal. */
static bool serves_only(const struct options *o)
{
	return o->listen && !o->batch_given && !o->output && !o->trace &&
	       !(isatty(STDOUT_FILENO) && isatty(STDIN_FILENO));
}

/* The interface, with its capture key (T). */
static int run_tui(const struct options *o, const struct feed *feed, struct tui_settings *ts)
{
	static struct tui_capturer capturer;
	int err;

	tui_capturer_init(&capturer, (uint64_t)o->trace_max_mb << 20, feed->replay, o->sched_stream);
	ts->capture = &capturer.ops;
	if (stacks_key.ops.impl && !feed->replay)
		ts->stacks_key = &stacks_key.ops;
	err = tui_run(feed, ts);
	tui_capturer_end(&capturer);
	return err ? EXIT_FAILURE_RUN : EXIT_OK;
}

static int run_front_end(const struct options *o, struct feed *feed, FILE *out)
{
	struct tui_settings ts = {
		.delay_s = o->delay_s,
		.delay_given = o->delay_given,
		.theme = o->theme,
		.no_color = o->no_color || getenv("NO_COLOR"),
		.pid = o->pid,
		.notice = notice,
		.stop = &stop_requested,
		.record = o->record,
	};

	if (exporter && serves_only(o)) {
		if (!exporter_serve(exporter, feed, &stop_requested))
			return EXIT_OK;
		fail(o, "%s", feed->ops->error(feed->impl));
		return EXIT_FAILURE_RUN;
	}
	if (exporter && feed->replay)
		exporter_wrap(exporter, feed); /* a replay has one reader: what it takes is served */
	else if (exporter && exporter_follow(exporter, feed)) {
		fail(o, "cannot start the exporter's thread");
		return EXIT_FAILURE_RUN;
	}
	if (o->batch)
		return run_batch(o, feed, out);
	return run_tui(o, feed, &ts);
}

/* Whether an attached collector will attach more probes while running. */
static bool attaches_later(const struct collector *cs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cs[i].ops->attaches_later && cs[i].info.state == COLLECTOR_ATTACHED)
			return true;
	return false;
}

/* Whether the collector called name is attached. */
static bool collector_attached(const struct collector *cs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cs[i].ops->name, name) && cs[i].info.state == COLLECTOR_ATTACHED)
			return true;
	return false;
}

/* Whether a collector may start later, when a driver is loaded (the poller watches modules). */
static bool any_unavailable(const struct collector *cs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cs[i].info.state == COLLECTOR_UNAVAILABLE)
			return true;
	return false;
}

/* Whether a and b name one existing file (a path, a hard link, /dev/fd/N). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* -o FILE, opened (emptied) only once the run is known to start, with the user's rights. */
static int open_output(const struct options *o, FILE **out)
{
	if (!o->output)
		return 0;
	*out = privileges_fopen_as_user(o->output, "w");
	if (!*out) {
		*out = stdout;
		fail(o, "cannot open output file '%s': %s", o->output, strerror(errno));
		return -1;
	}
	return 0;
}

/* --trace FILE, opened (emptied) with the user's rights once the run is known to start. */
static int open_trace(const struct options *o)
{
	FILE *f;
	int err;

	if (!o->trace)
		return 0;
	if (same_file(o->trace, o->output) || same_file(o->trace, o->replay) ||
	    same_file(o->trace, o->record)) {
		fail(o, "--trace names a file the run already uses ('%s')", o->trace);
		return -1;
	}
	f = privileges_fopen_as_user(o->trace, "wb");
	if (!f) {
		fail(o, "cannot open trace file '%s': %s", o->trace, strerror(errno));
		return -1;
	}
	if (svg_path(o->trace)) { /* the trace in memory, drawn into the file at the end */
		trace_svg.out = f;
		f = open_memstream(&trace_svg.buf, &trace_svg.len);
		if (!f) {
			fail(o, "cannot start the trace: %s", strerror(errno));
			fclose(trace_svg.out);
			trace_svg.out = NULL;
			return -1;
		}
	}
	trace = capture_open(f, (uint64_t)o->trace_max_mb << 20, &err);
	if (!trace) {
		fail(o, "cannot start the trace: %s", strerror(-err));
		fclose(f);
		if (trace_svg.out)
			fclose(trace_svg.out);
		trace_svg.out = NULL;
		free(trace_svg.buf);
		return -1;
	}
	capture_route(trace); /* the scheduler's jobs */
	return 0;
}

/* The trace's note and end; one line on what it holds. Returns rc, or a failure if it failed. */
static int close_trace(const struct options *o, int rc)
{
	struct capture_stats st;
	off_t size;
	int err;

	if (!trace)
		return rc;
	capture_route(NULL);
	err = capture_close(trace, &st);
	trace = NULL;
	if (trace_svg.out) { /* the memory stream is closed: its buffer stays */
		if (!err && st.bytes)
			err = trace_svg_write(trace_svg.buf, trace_svg.len, trace_svg.out, "gputop-bpf trace");
		size = ftello(trace_svg.out);
		if (size >= 0)
			st.bytes = (uint64_t)size; /* the drawing's, not the trace's */
		if (fclose(trace_svg.out) && !err)
			err = -EIO;
		free(trace_svg.buf);
		trace_svg.out = NULL;
	}
	if (err) {
		fprintf(stderr, PROG ": writing the trace '%s' failed: %s\n", o->trace,
			strerror(-err));
		return EXIT_FAILURE_RUN;
	}
	if (!st.bytes) { /* an empty file is no trace */
		privileges_unlink_as_user(o->trace);
		fprintf(stderr,
			PROG
			": trace '%s': nothing to record (no counters, jobs, display events or GPU calls came): no file written\n",
			o->trace);
		return rc == EXIT_OK ? EXIT_FAILURE_RUN : rc;
	}
	capture_summary(stderr, PROG, o->trace, &st);
	return rc;
}

/*
 * The interface opens on a recording's first snapshot: an empty recording, or one whose first
 * line is bad, is said before it (exit 1, as in batch mode), not on a screen the user must quit.
 * *opens: false where there is nothing to open it on (that, or a signal came first).
 */
static int replay_first(const struct options *o, const struct feed *feed, bool *opens)
{
	const struct snapshot *s = NULL;

	while (!stop_requested && !(s = feed->ops->take(feed->impl, 0, 200)) && !feed->ops->finished(feed->impl))
		;
	*opens = s != NULL;
	if (s) /* kept by the replay: the interface's first take gets it again */
		feed->ops->release(feed->impl, s);
	if (s || !*feed->ops->error(feed->impl))
		return EXIT_OK;
	fail(o, "%s", feed->ops->error(feed->impl));
	return EXIT_FAILURE_RUN;
}

/* --replay: no privileges, no BPF, no collectors. */
static int run_replay(const struct options *o, FILE **out)
{
	struct replay *r;
	struct feed feed;
	char err[320];
	bool opens = true;
	int rc;

	r = replay_open(o->replay, !o->batch || serves_only(o), o->delay_given ? o->delay_s : 0, err, sizeof(err));
	if (!r) {
		fail(o, "%s", err);
		return EXIT_FAILURE_RUN;
	}
	if (same_file(o->replay, o->output)) {
		fail(o, "-o names the recording being replayed ('%s'): it would be emptied", o->output);
		replay_close(r);
		return EXIT_FAILURE_RUN;
	}
	if (open_output(o, out) || open_trace(o)) {
		replay_close(r);
		return EXIT_FAILURE_RUN;
	}
	replay_set_pid_filter(r, o->pid);
	replay_feed(r, &feed);
	if (o->batch || serves_only(o) || ((rc = replay_first(o, &feed, &opens)) == EXIT_OK && opens))
		rc = run_front_end(o, &feed, *out);
	if (o->stacks) { /* the recording's stacks tables as the --stacks file */
		char msg[4352]; /* a path and the end line */

		if (replay_stacks_write(&feed, o->stacks, (enum stack_weight)o->stacks_weight, msg, sizeof(msg))) {
			fail(o, "%s", msg);
			rc = rc == EXIT_OK ? EXIT_FAILURE_RUN : rc;
		} else {
			fprintf(stderr, PROG ": %s\n", msg);
		}
	}
	exporter_stop(exporter); /* it may hold the replay's snapshots */
	exporter = NULL;
	replay_close(r);
	return rc;
}

static void host_names(struct model *m)
{
	struct utsname u;
	char host[64] = "";

	gethostname(host, sizeof(host) - 1);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	model_set_host(m, host, u.release);
}

/* What a live run holds, given back at its end (end_run). */
struct live_run {
	struct collector_config config;
	struct collector *cs;
	size_t n;
	struct poller *poller;
	struct model *model;
	FILE *out, *recorder;
	int stats_fd;
};

/* The process's settings before any thread starts: locale, libbpf's messages, batch or not, signals. */
static void set_up_process(struct options *o)
{
	verbose = o->verbose;
	/*
	 * The locale, once, before any thread starts (setlocale is not safe while
	 * another thread parses numbers): the terminal's character set for the
	 * widths of names (format/cell_text.c, curses), and numbers always with a
	 * '.' (JSON, recordings).
	 */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	libbpf_set_print(libbpf_print);
	/* The interface needs a terminal on both ends; anything else gets batch snapshots. */
	if (!o->batch && (o->output || o->trace || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		o->batch = true;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
}

/* -v: what each collector's start took, where a slow start goes (probe, load and verify, attach). */
static void say_start_times(const struct collector *cs, size_t n)
{
	uint64_t all = 0;

	for (size_t i = 0; i < n; i++) {
		const uint64_t *t = cs[i].start_ns;

		all += t[0] + t[1] + t[2];
		fprintf(stderr, PROG ": %s started in %.1f ms (probe %.1f, open %.1f, attach %.1f)\n", cs[i].ops->name,
			(t[0] + t[1] + t[2]) / 1e6, t[0] / 1e6, t[1] / 1e6, t[2] / 1e6);
	}
	fprintf(stderr, PROG ": %zu collectors started in %.1f ms; %.1f ms since main began\n", n, all / 1e6,
		(mono_ns() - began_ns) / 1e6);
}

/* Every compiled-in collector started with the options' settings (out of memory: the process ends). */
static int start_collectors(const struct options *o, struct live_run *run)
{
	struct collector_config *config = &run->config;
	const struct collector_ops *const *reg;
	pid_t earlier;

	config->all_irqs = o->all_irqs;
	config->libcuda = o->libcuda;
	config->sched_stream = o->sched_stream;
	/* no job kept, nor event captured, but while a capture runs: --trace, or T in the interface */
	config->job_sink = o->trace || !o->batch ? capture_sink() : NULL;
	if (o->trace) /* its jobs: the streamed design's, unless the map one is asked for */
		config->sched_stream = o->sched_stream || !o->sched_design_given;
	if (open_stacks(o, config))
		return -1;
	reg = collector_registry(&run->n);
	run->cs = calloc(run->n, sizeof(*run->cs));
	if (!run->cs) {
		fail(o, "out of memory");
		exit(EXIT_FAILURE_RUN); /* nothing started yet to stop */
	}
	/* said to a person, for whom the wait looks like a hang; scripts keep their standard error as it was */
	if (isatty(STDERR_FILENO) && privileges_sufficient() && (earlier = link_reaper_earlier()))
		fprintf(stderr,
			PROG ": an earlier gputop-bpf's probes are still being released by the kernel "
			     "(gputop-bpf-exit, pid %d): attaching waits for it\n",
			(int)earlier);
	/* Our own programs' cost, per program, while we run (closing the fd restores the setting). */
	run->stats_fd = bpf_cost_enable(NULL, 0);
	for (size_t i = 0; i < run->n; i++) {
		run->cs[i].ops = reg[i];
		run->cs[i].config = config;
		collector_start(&run->cs[i]);
	}
	if (verbose)
		say_start_times(run->cs, run->n);
	return 0;
}

/* --list: each collector's state printed, as text or (-J) one JSON object. */
static int list_collectors(const struct options *o, const struct live_run *run)
{
	struct collector_status *st = calloc(run->n, sizeof(*st));
	char *json = NULL;

	for (size_t i = 0; st && i < run->n; i++)
		st[i] = run->cs[i].status;
	if (st && o->json && (json = collectors_list_json(st, run->n)))
		printf("%s\n", json);
	else if (st && !o->json)
		collectors_print_list(stdout, st, run->n);
	free(json);
	free(st);
	if (!st || (o->json && !json)) {
		fail(o, "out of memory");
		return EXIT_FAILURE_RUN;
	}
	return fflush(stdout) ? EXIT_FAILURE_RUN : EXIT_OK;
}

/* --record, -o and --trace opened, only now that the run is known to start; with the user's own rights. */
static int open_files(const struct options *o, struct live_run *run)
{
	if (o->record && same_file(o->record, o->output)) {
		fail(o, "--record and -o name the same file '%s'", o->record);
		return -1;
	}
	if (o->record) {
		run->recorder = privileges_fopen_as_user(o->record, "w");
		if (!run->recorder) {
			fail(o, "cannot open recording file '%s': %s", o->record, strerror(errno));
			return -1;
		}
	}
	return open_output(o, &run->out) || open_trace(o) ? -1 : 0;
}

/*
 * -p of a PID that is not running: top and htop take it and show no process; this run does
 * too (a PID is given anew, and one that exits while watched leaves the same empty rows), but
 * says so, on standard error and in the interface's status line.
 */
static void pid_notice(const struct options *o)
{
	char path[64];
	struct stat st;

	if (!o->pid || (proc_path(path, sizeof(path), "%u", o->pid) && !stat(path, &st)))
		return;
	if (!kill((pid_t)o->pid, 0) || errno == EPERM) /* there, but hidden (/proc mounted hidepid=2) */
		return;
	snprintf(notice, sizeof(notice), "-p %u: no process %u is running; its rows show if one starts", o->pid,
		 o->pid);
	fprintf(stderr, PROG ": %s\n", notice);
}

/* The live run: collectors, files, the model and its poller, the front end until it ends; the exit status. */
static int run_live(const struct options *o, struct live_run *run)
{
	struct feed feed;
	int rc;

	setrlimit(RLIMIT_MEMLOCK, &(struct rlimit){ RLIM_INFINITY, RLIM_INFINITY });
	if (start_collectors(o, run))
		return EXIT_FAILURE_RUN;
	if (o->list)
		return list_collectors(o, run);
	if (run->config.stacks && !o->batch) /* armed for the c key, or --stacks' */
		stacks_key_init(&stacks_key, run->config.stacks, collector_attached(run->cs, run->n, "nvidia"),
				run->config.sched_stream);
	if (open_files(o, run))
		return EXIT_FAILURE_RUN;
	if (privileges_drop_unneeded(attaches_later(run->cs, run->n), any_unavailable(run->cs, run->n)) && verbose)
		fprintf(stderr, PROG ": could not give up the capabilities it no longer needs\n");
	run->model = model_new(mono_ns());
	if (!run->model) {
		fail(o, "out of memory");
		return EXIT_FAILURE_RUN;
	}
	host_names(run->model);
	model_set_pid_filter(run->model, o->pid);
	pid_notice(o);
	sym_child_wait_cap((unsigned int)(o->delay_s * 500)); /* a slow file: half an interval at once */
	run->poller = poller_start(run->cs, run->n, run->model, o->delay_s, run->recorder);
	if (!run->poller) {
		fail(o, "cannot start the poller thread");
		return EXIT_FAILURE_RUN;
	}
	poller_feed(run->poller, &feed);
	rc = run_front_end(o, &feed, run->out);
	if (rc == EXIT_OK && *feed.ops->error(feed.impl)) { /* the interface showed it; say it again */
		fail(o, "%s", feed.ops->error(feed.impl));
		rc = EXIT_FAILURE_RUN;
	}
	return rc;
}

/* Everything the run started stopped, its files closed; rc, or a failure where closing failed. */
static int end_run(const struct options *o, struct live_run *run, int rc)
{
	uint64_t t[4], late;

	t[0] = mono_ns();
	exporter_stop(exporter); /* before the poller it follows */
	web_config_free(&web);
	poller_stop(run->poller);
	t[1] = mono_ns();
	late = sym_child_provisional();
	sym_child_last_wait(LAST_TEXTS_WAIT_MS);
	for (size_t i = 0; i < run->n; i++)
		collector_stop(&run->cs[i]);
	t[2] = mono_ns();
	link_reaper_flush(true); /* the uprobes' slow release left to a child: quitting is quick */
	t[3] = mono_ns();
	if (verbose)
		fprintf(stderr, PROG ": stopping: poller %.1f ms, collectors %.1f ms, probes handed on %.1f ms\n",
			(t[1] - t[0]) / 1e6, (t[2] - t[1]) / 1e6, (t[3] - t[2]) / 1e6);
	free(run->cs);
	if (run->stats_fd >= 0)
		close(run->stats_fd);
	model_free(run->model);
	rc = close_stacks(o, rc);
	rc = close_trace(o, rc);
	close_symbolizer(sym_child_provisional() - late); /* after the last frames named */
	if (run->recorder && fclose(run->recorder) && rc == EXIT_OK) {
		fprintf(stderr, PROG ": closing '%s' failed: %s\n", o->record, strerror(errno));
		rc = EXIT_FAILURE_RUN;
	}
	if (run->out != stdout && fclose(run->out) && rc == EXIT_OK) {
		fprintf(stderr, PROG ": closing '%s' failed: %s\n", o->output, strerror(errno));
		rc = EXIT_FAILURE_RUN;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static struct live_run run = { .stats_fd = -1 }; /* static: the collectors keep its config */
	struct options o;
	int rc = EXIT_FAILURE_RUN;
	char err[256];

	began_ns = mono_ns();
	if (options_parse(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", err);
		return EXIT_USAGE;
	}
	if (o.help) {
		options_usage(stdout);
		return EXIT_OK;
	}
	if (o.version) {
		print_version();
		return EXIT_OK;
	}
	run.out = stdout;
	set_up_process(&o);
	if (set_roots(&o))
		return EXIT_FAILURE_RUN;
	if (o.listen && start_exporter(&o))
		return EXIT_FAILURE_RUN;
	if (o.replay) {
		/* a replay needs no privilege: with none, it reads only what the user may */
		if (privileges_drop_all()) {
			fail(&o, "cannot give up the capabilities a replay does not need");
			return EXIT_FAILURE_RUN;
		}
		rc = run_replay(&o, &run.out);
	} else if (!check_environment(&o)) {
		rc = run_live(&o, &run);
	}
	return end_run(&o, &run, rc);
}
