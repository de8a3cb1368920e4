// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/unit/cmocka_all.h"
#include <string.h>
#include "core/decimal.h"
#include "core/delay.h"
#include "src/options.h"
#include "symbols/stack_file.h"

static int parse(struct options *o, char *err, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	argv[argc++] = "gputop-bpf";
	va_start(ap, err);
	for (char *a = va_arg(ap, char *); a && argc < 15; a = va_arg(ap, char *))
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return options_parse(argc, argv, o, err, 256);
}

static void defaults(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, NULL), 0);
	assert_true(o.delay_s == 1.0);
	assert_int_equal(o.iterations, 0);
	assert_false(o.json || o.batch || o.list);
}

static void every_option(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, "-b", "-n", "3", "-d", "0.25", "-J", "-o", "out.json",
			       "-p", "42", "--list", "--all-irqs", "-v", NULL),
			 0);
	assert_true(o.batch && o.json && o.list && o.all_irqs && o.verbose);
	assert_int_equal(o.iterations, 3);
	assert_true(o.delay_s == 0.25);
	assert_string_equal(o.output, "out.json");
	assert_int_equal(o.pid, 42);
	assert_int_equal(parse(&o, err, "--batch", "--iterations=2", "--delay=2", "--json",
			       "--pid=7", "--output=x", NULL),
			 0);
	assert_true(o.batch && o.json && o.iterations == 2 && o.delay_s == 2.0 && o.pid == 7);
	assert_int_equal(parse(&o, err, "-h", NULL), 0);
	assert_true(o.help);
	assert_int_equal(parse(&o, err, "--version", NULL), 0);
	assert_true(o.version);
	assert_int_equal(parse(&o, err, "--sysfs", "fx/sys", "--procfs=fx/proc", NULL), 0);
	assert_string_equal(o.sysfs, "fx/sys");
	assert_string_equal(o.procfs, "fx/proc");
	assert_int_equal(parse(&o, err, "--stacks", "launches.folded", NULL), 0);
	assert_string_equal(o.stacks, "launches.folded");
}

static void bad_values_are_rejected_with_a_message(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, "-d", "-1", NULL), -1);
	assert_non_null(strstr(err, "invalid delay '-1'"));
	assert_int_equal(parse(&o, err, "-d", "abc", NULL), -1);
	assert_int_equal(parse(&o, err, "-d", "nan", NULL), -1);
	assert_int_equal(parse(&o, err, "-d", "0", NULL), -1);
	assert_int_equal(parse(&o, err, "-d", "1e9", NULL), -1);
	assert_int_equal(parse(&o, err, "-n", "abc", NULL), -1);
	assert_non_null(strstr(err, "invalid iteration count 'abc'"));
	assert_int_equal(parse(&o, err, "-n", "0", NULL), -1);
	assert_int_equal(parse(&o, err, "-n", "5x", NULL), -1);
	assert_int_equal(parse(&o, err, "-p", "-3", NULL), -1);
	assert_non_null(strstr(err, "invalid PID"));
	assert_int_equal(parse(&o, err, "-p", "99999999999", NULL), -1);
	assert_int_equal(parse(&o, err, "--bogus", NULL), -1);
	assert_non_null(strstr(err, "unknown option '--bogus'"));
	assert_int_equal(parse(&o, err, "-x", NULL), -1);
	assert_non_null(strstr(err, "unknown option '-x'"));
	assert_int_equal(parse(&o, err, "-d", NULL), -1);
	assert_non_null(strstr(err, "needs a value"));
	assert_int_equal(parse(&o, err, "stray", NULL), -1);
	assert_non_null(strstr(err, "unexpected argument 'stray'"));
	assert_int_equal(parse(&o, err, "-o", "", NULL), -1);
	assert_int_equal(parse(&o, err, "--sysfs", "", NULL), -1);
	assert_non_null(strstr(err, "needs a non-empty value"));
	assert_int_equal(parse(&o, err, "--replay", "r.jsonl", "--procfs", "p", NULL), -1);
	assert_non_null(strstr(err, "--procfs names where to read this machine's files"));
	assert_int_equal(parse(&o, err, "--stacks", "", NULL), -1);
	assert_int_equal(parse(&o, err, "--replay", "r.jsonl", "--stacks", "s", NULL), 0); /* the recording's tables */
	assert_int_equal(parse(&o, err, "--replay", "r.jsonl", "--stacks", "-", NULL), -1);
	assert_non_null(strstr(err, "with --replay give --stacks FILE"));
	assert_int_equal(parse(&o, err, "--stacks-weight", "jobs", NULL), -1); /* without --stacks */
	assert_int_equal(parse(&o, err, "--stacks", "s", "--stacks-weight", "time", NULL), -1);
	assert_non_null(strstr(err, "expected count, launches, jobs, gpu-time, queue-wait, calls, blocked, syncs or sync-time"));
	assert_int_equal(parse(&o, err, "--stacks", "s", "--sched-design", "map", NULL), -1);
	assert_int_equal(parse(&o, err, "--stacks", "s", "--sched-design", "map", "--stacks-weight",
			       "launches", NULL), 0);
	assert_int_equal(parse(&o, err, "--stacks", "s", "--sched-design", "map", "--stacks-weight",
			       "blocked", NULL), 0); /* calls only: no scheduler stacks */
	assert_int_equal(parse(&o, err, "--stacks", "s", "--stacks-weight", "gpu-time", NULL), 0);
	assert_int_equal(o.stacks_weight, STACK_WEIGHT_GPU_TIME);
}

/* -d and --duration: seconds as people write them; strtod's other forms ("0x10" as 16 s) refused, saying the form. */
static void seconds_are_plain_decimals(void **state)
{
	static const char *const bad[] = { "0x10", "0X1p4", "1e1", "1E1",  "inf", "nan",
					   "+1",   " 1",    "1 ",  "1..5", ".",	  "" };
	struct options o;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(decimal_text(bad[i]));
		assert_int_equal(parse(&o, err, "-d", bad[i], NULL), -1);
		if (!strstr(err, "invalid delay") || !strstr(err, DECIMAL_TEXT_FORM))
			fail_msg("-d '%s': '%s'", bad[i], err);
		assert_int_equal(parse(&o, err, "--trace=t", "--duration", bad[i], NULL), -1);
		if (!strstr(err, "invalid --duration") || !strstr(err, DECIMAL_TEXT_FORM))
			fail_msg("--duration '%s': '%s'", bad[i], err);
	}
	assert_int_equal(parse(&o, err, "-d", ".5", NULL), 0);
	assert_true(o.delay_s == 0.5);
	assert_int_equal(parse(&o, err, "-d", "2.", NULL), 0);
	assert_true(o.delay_s == 2.0);
	assert_int_equal(parse(&o, err, "-d", "16", NULL), 0);
	assert_true(o.delay_s == 16.0);
	assert_int_equal(parse(&o, err, "--trace=t", "--duration", "0.25", NULL), 0);
	assert_true(o.duration_s == 0.25);
}

/* --listen: a bad [ADDR:]PORT is a usage error found while parsing, not when the port is bound. */
static void listen_values(void **state)
{
	static const char *const good[] = { "9464", ":9464", "0.0.0.0:0", "localhost:9464", "[::1]:9464", "[::]:65535" };
	static const char *const bad[] = { "abc", "99999", "65536",    "+80",	    "-1",     " 80",
					   "",	  ":",	   "1.2.3:80", "[::1]9464", "host:80" };
	struct options o;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (parse(&o, err, "--listen", good[i], NULL))
			fail_msg("--listen '%s' refused: %s", good[i], err);
		assert_string_equal(o.listen, good[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&o, err, "--listen", bad[i], NULL), -1);
		if (!strstr(err, "invalid --listen") || !strstr(err, "[ADDRESS:]PORT"))
			fail_msg("--listen '%s': '%s'", bad[i], err);
	}
}

/* The +/- keys: the next step of the list either way, wherever the delay stands. */
/* --trace, --duration, --trace-max-mb: values, defaults, and what they need. */
static void trace_options(void **state)
{
	static const char *const bad[][3] = {
		{ "--duration", "5", "give --trace FILE too" },
		{ "--trace-max-mb", "8", "give --trace FILE too" },
		{ "--trace=t", "--duration=0", "invalid --duration '0'" },
		{ "--trace=t", "--duration=nan", "invalid --duration 'nan'" },
		{ "--trace=t", "--duration=1e9", "invalid --duration '1e9'" },
		{ "--trace=t", "--trace-max-mb=0", "invalid --trace-max-mb '0'" },
		{ "--trace=t", "--list", "cannot be used with --trace" },
		{ "--trace=", "-b", "needs a non-empty value" },
	};
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, "--trace", "t.pftrace", NULL), 0);
	assert_string_equal(o.trace, "t.pftrace");
	assert_true(o.duration_s == 0 && o.trace_max_mb == TRACE_MAX_MB_DEFAULT);
	assert_int_equal(
		parse(&o, err, "--trace=t", "--duration", "2.5", "--trace-max-mb", "8", NULL), 0);
	assert_true(o.duration_s == 2.5 && o.trace_max_mb == 8);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&o, err, bad[i][0], bad[i][1], NULL), -1);
		if (!strstr(err, bad[i][2]))
			fail_msg("%s %s: '%s' does not say '%s'", bad[i][0], bad[i][1], err,
				 bad[i][2]);
	}
}

static void delay_steps(void **state)
{
	double d;

	(void)state;
	assert_true(delay_step(1.0, 1) == 2.0);
	assert_true(delay_step(1.0, -1) == 0.5);
	assert_true(delay_step(0.3, 1) == 0.5); /* between steps: the next one up, not two */
	assert_true(delay_step(0.3, -1) == 0.25);
	assert_true(delay_step(60, 1) == 300); /* the list spans the range of -d */
	assert_true(delay_step(0.1, -1) == DELAY_MIN_S);
	assert_true(delay_step(DELAY_MAX_S, 1) == DELAY_MAX_S); /* the list's ends stay */
	assert_true(delay_step(DELAY_MAX_S, -1) == 900);
	assert_true(delay_step(DELAY_MIN_S, -1) == DELAY_MIN_S);
	assert_true(delay_step(0.07, -1) == DELAY_MIN_S); /* between steps: - reaches the end */
	assert_true(delay_nearest(0.517) == 0.5); /* a measured pace: the step it is near */
	assert_true(delay_nearest(0.47) == 0.5);
	assert_true(delay_nearest(7000) == DELAY_MAX_S);
	assert_int_equal(delay_parse("0.5", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(delay_parse("0.049", &d), -1);
	assert_int_equal(delay_parse("3600.01", &d), -1);
	assert_int_equal(delay_parse("1s", &d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delay_steps),
		cmocka_unit_test(defaults),
		cmocka_unit_test(every_option),
		cmocka_unit_test(bad_values_are_rejected_with_a_message),
		cmocka_unit_test(trace_options),
		cmocka_unit_test(listen_values),
		cmocka_unit_test(seconds_are_plain_decimals),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
