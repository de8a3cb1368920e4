// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Intel GPUs' engine counters from the perf PMUs (collectors/sensors/
 * pmu_format.c, pmu_engines.c): format and event files parsed into configs as
 * perf(1) builds them, absent or unknown ones left unknown; the busy share of
 * two counters, unknown over no interval or when one went backwards; and, with
 * the privilege perf_event_open asks, real counters: PMU directories whose
 * type is the software PMU's (tests/fixtures/sysfs/make-trees.sh, pmu-sw) count
 * CPU 0's clock as the busy event, which over half a second must read 100 %;
 * without it, the source says why, once. No Intel GPU is needed.
 */
#include "tests/unit/cmocka_all.h"
#include "tests/unit/fixture_trees.h"
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/sysroot.h"
#include "collectors/kit/drm_cards.h"
#include "collectors/sensors/pmu_engines.h"
#include "collectors/sensors/pmu_format.h"
#include "collectors/sensors/sensors_tables.h"

static int setup(void **state)
{
	(void)state;
	return trees_make(true);
}

static void fields_and_names(void **state)
{
	struct pmu_field f;
	uint64_t config = 0;
	enum pmu_sample s;
	char name[16], bus[32];

	(void)state;
	assert_true(pmu_field_parse("config:12-19", &f));
	assert_int_equal(f.lo, 12);
	assert_int_equal(f.hi, 19);
	assert_true(pmu_field_parse("config:5", &f));
	assert_int_equal(f.lo, 5);
	assert_int_equal(f.hi, 5);
	assert_true(pmu_field_parse("config:60-63", &f));
	/* what this reader does not fill, and nonsense: unknown, never a guess */
	assert_false(pmu_field_parse("config1:0-3", &f));
	assert_false(pmu_field_parse("config:0-7,32-35", &f));
	assert_false(pmu_field_parse("config:20-12", &f));
	assert_false(pmu_field_parse("config:60-64", &f));
	assert_false(pmu_field_parse("config:", &f));
	assert_false(pmu_field_parse("config:-3", &f));
	assert_false(pmu_field_parse("", &f));
	f = (struct pmu_field){ 20, 27 };
	assert_true(pmu_field_put(&config, f, 0xff));
	assert_int_equal(config, 0xffULL << 20);
	assert_false(pmu_field_put(&config, f, 0x100)); /* does not fit: config unchanged */
	assert_int_equal(config, 0xffULL << 20);
	assert_true(pmu_field_put(&config, f, 2)); /* a field put again replaces its bits */
	assert_int_equal(config, 2ULL << 20);
	assert_int_equal(pmu_first_cpu("0"), 0);
	assert_int_equal(pmu_first_cpu("4-7"), 4);
	assert_int_equal(pmu_first_cpu("2,6"), 2);
	assert_int_equal(pmu_first_cpu(""), -1);
	assert_int_equal(pmu_first_cpu("cpu0"), -1);
	assert_true(pmu_engine_event("vecs1-sema", name, sizeof(name), &s));
	assert_string_equal(name, "vecs1");
	assert_int_equal(s, PMU_SEMA);
	assert_true(pmu_engine_event("rcs0-busy", name, sizeof(name), &s) && s == PMU_BUSY);
	assert_true(pmu_engine_event("ccs3-wait", name, sizeof(name), &s) && s == PMU_WAIT);
	assert_false(pmu_engine_event("rcs0-busy.unit", name, sizeof(name), &s));
	assert_false(pmu_engine_event("rcs0-busy-ticks", name, sizeof(name), &s));
	assert_false(pmu_engine_event("rc6-residency", name, sizeof(name), &s));
	assert_false(pmu_engine_event("actual-frequency", name, sizeof(name), &s));
	assert_false(pmu_engine_event("rcs-busy", name, sizeof(name), &s)); /* no instance */
	assert_false(pmu_engine_event("0-busy", name, sizeof(name), &s));
	assert_true(pmu_name_bus("i915_0000_03_00.0", "i915_", bus, sizeof(bus)));
	assert_string_equal(bus, "0000:03:00.0");
	assert_true(pmu_name_bus("xe_0000_00_02.0", "xe_", bus, sizeof(bus)));
	assert_string_equal(bus, "0000:00:02.0");
	assert_false(pmu_name_bus("i915", "i915_", bus, sizeof(bus)));
	assert_false(pmu_name_bus("xe_", "xe_", bus, sizeof(bus)));
	assert_false(pmu_name_bus("xe_foo", "xe_", bus, sizeof(bus)));
	assert_string_equal(pmu_engine_class("rcs0"), "3d");
	assert_string_equal(pmu_engine_class("bcs8"), "copy");
	assert_string_equal(pmu_engine_class("vcs1"), "video");
	assert_string_equal(pmu_engine_class("vecs0"), "video");
	assert_string_equal(pmu_engine_class("ccs2"), "compute");
	assert_string_equal(pmu_engine_class("gsccs0"), "other");
}

/* The events' configs from the intel-pmu tree, as the kernel printed them; what is absent stays unknown. */
static void fixture_configs(void **state)
{
	char i915[128], dgfx[128], xe[128], old_xe[128];
	uint64_t c = 0;

	(void)state;
	snprintf(i915, sizeof(i915), "%s/intel-pmu/bus/event_source/devices/i915", root);
	snprintf(dgfx, sizeof(dgfx), "%s/intel-pmu/bus/event_source/devices/i915_0000_03_00.0",
		 root);
	snprintf(xe, sizeof(xe), "%s/intel-pmu/bus/event_source/devices/xe_0000_04_00.0", root);
	snprintf(old_xe, sizeof(old_xe), "%s/intel-pmu/bus/event_source/devices/xe_0000_05_00.0",
		 root);
	assert_true(pmu_event_config(i915, "rcs0-busy", &c));
	assert_int_equal(c, 0);
	assert_true(pmu_event_config(i915, "bcs0-busy", &c));
	assert_int_equal(c, 0x1000);
	assert_true(pmu_event_config(i915, "vcs1-busy", &c));
	assert_int_equal(c, 0x2010);
	assert_true(pmu_event_config(i915, "vecs0-sema", &c));
	assert_int_equal(c, 0x3002);
	assert_true(pmu_event_config(dgfx, "ccs0-wait", &c));
	assert_int_equal(c, 0x4001);
	c = 77;
	assert_false(pmu_event_config(i915, "vcs1-wait", &c)); /* absent */
	assert_false(pmu_event_config(i915, "../type", &c));
	assert_false(pmu_event_config(i915, "rcs0-busy.unit", &c)); /* "ns": no term */
	assert_int_equal(c, 77);
	/* xe: event=0x02, then gt 1, class 2 (video decode), instance 1 by its format fields */
	assert_true(pmu_event_config(xe, "engine-active-ticks", &c));
	assert_int_equal(c, 0x02);
	assert_true(pmu_term_put(xe, "gt", 1, &c));
	assert_true(pmu_term_put(xe, "engine_class", 2, &c));
	assert_true(pmu_term_put(xe, "engine_instance", 1, &c));
	assert_int_equal(c, 0x02ULL | 1ULL << 12 | 2ULL << 20 | 1ULL << 60);
	assert_false(pmu_term_put(xe, "engine_class", 256, &c)); /* past its 8 bits */
	assert_false(pmu_term_put(xe, "umask", 1, &c)); /* no such format */
	assert_false(pmu_term_put(xe, "../type", 1, &c));
	/* an xe PMU without engine activity: no events, no engine fields */
	assert_false(pmu_event_config(old_xe, "engine-active-ticks", &c));
	assert_false(pmu_term_put(old_xe, "engine_class", 0, &c));
	assert_true(pmu_event_config(old_xe, "gt-c6-residency", &c));
	assert_int_equal(c, 0x01);
}

static void busy_share(void **state)
{
	(void)state;
	assert_true(fabs(pmu_share_pct(250000000, 0, 500000000, 0) - 50.0) < 1e-9);
	assert_true(fabs(pmu_share_pct(1300, 1000, 2000, 1400) - 50.0) < 1e-9);
	assert_true(fabs(pmu_share_pct(1000, 1000, 2000, 1000)) < 1e-9); /* idle: 0, known */
	assert_true(fabs(pmu_share_pct(2100, 1000, 2000, 1000) - 100.0) <
		    1e-9); /* sampled over: 100 */
	assert_true(pmu_share_pct(1500, 1000, 1000, 1000) < 0); /* no interval */
	assert_true(pmu_share_pct(5, 1000, 2000, 1000) < 0); /* busy went backwards: unknown */
	assert_true(pmu_share_pct(1500, 1000, 900, 1000) < 0); /* the clock went backwards */
	assert_true(pmu_share_pct(5, UINT64_MAX, 2000, 1000) < 0); /* never 2^64 - n */
}

/* Whether this process may open a system-wide counter on CPU 0 (else the errno). */
static int perf_allowed(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a) };
	long fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static long row_of(const struct table *t, const char *dev, const char *engine)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(table_str(t, i, "dev"), dev) &&
		    !strcmp(table_str(t, i, "engine"), engine))
			return (long)i;
	fail_msg("no row %s/%s", dev, engine);
	return -1;
}

/*
 * The pmu-sw tree's PMUs scanned and read twice, wait_s apart: the second read's rows; NULL when
 * the tree's three cards are not found or the first read knew a share (no cmocka here: the
 * denied case runs it in a child).
 */
static struct table *two_reads(struct pmu_engines *p, double wait_s)
{
	struct drm_card cards[8];
	size_t n;
	struct table *t = table_new(&sensors_engines);
	char dir[128];
	bool ok = t != NULL;

	snprintf(dir, sizeof(dir), "%s/pmu-sw", root);
	if (!ok || sysroot_set(SYSROOT_SYS, dir) || (n = drm_cards(cards, 8)) != 3) {
		table_free(t);
		return NULL;
	}
	pmu_engines_scan(p, cards, n);
	pmu_engines_rows(p, t);
	for (size_t i = 0; i < t->nrows; i++) /* one read is no interval */
		ok &= isnan(table_num(t, i, "busy_pct")) != 0;
	table_free(t);
	usleep((useconds_t)(wait_s * 1e6));
	t = ok ? table_new(&sensors_engines) : NULL;
	if (t) {
		pmu_engines_scan(p, cards, n);
		pmu_engines_rows(p, t);
	}
	return t;
}

/* CPU 0's clock counts the wall time: busy ~100 % through the real perf_event_open and read. */
static void real_counters(void **state)
{
	struct pmu_engines *p = pmu_engines_new();
	struct collector c = { 0 };
	struct table *t;
	int err = perf_allowed();
	long r;

	(void)state;
	if (err) {
		print_message(
			"SKIP real_counters: perf_event_open on CPU 0 refused (%s): run as root, "
			"or with kernel.perf_event_paranoid <= 0\n",
			strerror(err));
		pmu_engines_free(p);
		skip();
	}
	assert_non_null(p);
	t = two_reads(p, 0.5);
	assert_non_null(t);
	/*
	 * card0 rcs0, bcs0 and vcs0 (the single i915 PMU: the i915 card no other PMU names), in
	 * class order whatever the directory's; card1 ccs0; card2 rcs0 (xe); card0's ccs0 did not open
	 */
	assert_int_equal(pmu_engines_count(p), 5);
	assert_int_equal(t->nrows, 5);
	r = row_of(t, "card0", "rcs0");
	assert_int_equal(row_of(t, "card0", "bcs0"), r + 1);
	assert_int_equal(row_of(t, "card0", "vcs0"), r + 2);
	assert_true(table_num(t, (size_t)r + 2, "busy_pct") > 95);
	assert_string_equal(table_str(t, (size_t)r + 1, "class"), "copy");
	assert_string_equal(table_str(t, (size_t)r + 2, "class"), "video");
	assert_true(table_num(t, (size_t)r, "busy_pct") > 95 &&
		    table_num(t, (size_t)r, "busy_pct") <= 100);
	assert_true(fabs(table_num(t, (size_t)r, "wait_pct")) <
		    1e-9); /* the dummy event: 0, known */
	assert_true(isnan(table_num(t, (size_t)r, "sema_pct"))); /* no rcs0-sema: unknown */
	assert_string_equal(table_str(t, (size_t)r, "class"), "3d");
	assert_string_equal(table_str(t, (size_t)r, "pmu"), "i915");
	r = row_of(t, "card1", "ccs0");
	assert_true(table_num(t, (size_t)r, "busy_pct") > 95);
	assert_string_equal(table_str(t, (size_t)r, "class"), "compute");
	r = row_of(t, "card2", "rcs0");
	assert_true(table_num(t, (size_t)r, "busy_pct") > 95); /* active over total ticks */
	assert_true(isnan(table_num(t, (size_t)r, "wait_pct"))); /* xe has none */
	assert_string_equal(table_str(t, (size_t)r, "pmu"), "xe_0000_04_00.0");
	pmu_engines_source(p, &c);
	assert_int_equal(c.info.ntracepoints, 3);
	for (size_t i = 0; i < c.info.ntracepoints; i++)
		assert_int_equal(c.info.tracepoints[i].state, TRACEPOINT_ATTACHED);
	collector_info_clear(&c.info);
	table_free(t);
	pmu_engines_free(p);
}

/* As nobody (no capability) where perf_event_paranoid > 0: refused once, said why, not tried again. */
static int denied_child(void)
{
	struct pmu_engines *p = pmu_engines_new();
	struct collector c = { 0 };
	struct table *t;

	if (!p || setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return 10;
	t = two_reads(p, 0.01);
	if (!t)
		return 14;
	if (t->nrows || pmu_engines_count(p))
		return 11;
	pmu_engines_source(p, &c);
	if (c.info.ntracepoints != 3)
		return 12;
	for (size_t i = 0; i < c.info.ntracepoints; i++) {
		const struct tracepoint_status *tp = &c.info.tracepoints[i];

		if (tp->state != TRACEPOINT_FAILED || !strstr(tp->note, "CAP_PERFMON") ||
		    !strstr(tp->note, "perf_event_paranoid <= 0 (it is "))
			return 13;
	}
	table_free(t);
	pmu_engines_free(p);
	return 0;
}

static void denied_says_why(void **state)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = -1, status = 0;
	pid_t pid;

	(void)state;
	if (!f || fscanf(f, "%d", &paranoid) != 1)
		paranoid = -1;
	if (f)
		fclose(f);
	if (geteuid() != 0 || paranoid < 1) {
		print_message("SKIP denied_says_why: needs root (to become nobody) and "
			      "kernel.perf_event_paranoid >= 1 (it is %d)\n",
			      paranoid);
		skip();
	}
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(denied_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_and_names), cmocka_unit_test(fixture_configs),
		cmocka_unit_test(busy_share),	    cmocka_unit_test(real_counters),
		cmocka_unit_test(denied_says_why),
	};

	return cmocka_run_group_tests(tests, setup, trees_remove);
}
