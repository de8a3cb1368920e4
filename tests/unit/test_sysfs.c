// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The collectors that read sysfs (sensors, kfd) on fixture trees
 * (tests/fixtures/sysfs/make-trees.sh, written as the kernel's printing code
 * writes the files): every value what the files say, in the column's unit;
 * counters over the interval (energy into watts, idle residency and SDMA time
 * into shares), a counter that went backwards as a restart; the hostile tree
 * read without a crash, its nonsense left unknown.
 */
#include "tests/unit/cmocka_all.h"
#include "tests/unit/fixture_trees.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/sysroot.h"
#include "collectors/collector.h"
#include "model/model.h"

#define SEC 1000000000ULL

static int setup(void **state)
{
	(void)state;
	return trees_make(false);
}

static const struct collector_ops *collector_ops(const char *name)
{
	size_t n;
	const struct collector_ops *const *reg = collector_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(reg[i]->name, name))
			return reg[i];
	fail_msg("no %s collector registered", name);
	return NULL;
}

/* A collector on a tree, tick by tick. */
struct run {
	struct collector c;
	struct model *m;
	struct snapshot *s;
	const char *table;
};

static void run_collector(struct run *r, const char *tree, const char *collector, const char *table)
{
	char dir[128];

	memset(r, 0, sizeof(*r));
	snprintf(dir, sizeof(dir), "%s/%s", root, tree);
	assert_int_equal(sysroot_set(SYSROOT_SYS, dir), 0);
	r->c.ops = collector_ops(collector);
	r->table = table;
	r->c.ops->probe(&r->c);
	assert_true(r->c.priv || r->c.info.state != COLLECTOR_ATTACHED);
	r->m = model_new(0);
	assert_non_null(r->m);
}

static const struct table *run_tick(struct run *r, uint64_t at_ns)
{
	snapshot_free(r->s);
	model_tick_begin(r->m, at_ns);
	assert_int_equal(r->c.ops->read(&r->c, r->m), 0);
	r->s = model_tick_end(r->m);
	assert_non_null(r->s);
	return snapshot_table(r->s, r->table);
}

static void run_end(struct run *r)
{
	snapshot_free(r->s);
	r->c.ops->close(&r->c);
	model_free(r->m);
}

static size_t row_of(const struct table *t, const char *dev)
{
	assert_non_null(t);
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(table_str(t, i, "dev"), dev))
			return i;
	fail_msg("no row for %s", dev);
	return 0;
}

#define NUM(t, row, key, want) assert_true(fabs(table_num(t, row, key) - (want)) < 1e-9)
#define UNKNOWN(t, row, key) assert_true(isnan(table_num(t, row, key)))

static void put(const char *tree, const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", root, tree, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void run_start(struct run *r, const char *tree)
{
	run_collector(r, tree, "sensors", "sensors.gpus");
}

static void amdgpu_dgpu(void **state)
{
	struct run r;
	const struct table *t;
	size_t i;

	(void)state;
	run_start(&r, "mixed");
	t = run_tick(&r, SEC);
	assert_int_equal(t->nrows, 4); /* card0..card3; not card0-DP-1, not renderD128 */
	i = row_of(t, "card0");
	assert_string_equal(table_str(t, i, "driver"), "amdgpu");
	assert_string_equal(table_str(t, i, "bus_id"), "0000:03:00.0");
	NUM(t, i, "busy_pct", 42);
	NUM(t, i, "mem_busy_pct", 7);
	NUM(t, i, "temp_c", 45.0); /* millidegrees */
	NUM(t, i, "temp_hotspot_c", 52.0);
	NUM(t, i, "temp_mem_c", 60.0);
	NUM(t, i, "power_w", 123.0); /* microwatts */
	NUM(t, i, "power_cap_w", 250.0);
	NUM(t, i, "fan_rpm", 1200);
	NUM(t, i, "gfx_mhz", 1850.0); /* Hz */
	NUM(t, i, "mem_mhz", 1000.0);
	UNKNOWN(t, i, "idle_pct");
	i = row_of(t, "card3"); /* a faux device: its own name, not faux_driver's; its link's target's */
	assert_string_equal(table_str(t, i, "driver"), "vkms");
	assert_string_equal(table_str(t, i, "bus_id"), "vkms");
	UNKNOWN(t, i, "temp_c");
	UNKNOWN(t, i, "power_w");
	UNKNOWN(t, i, "busy_pct");
	run_end(&r);
}

/* i915 and xe: clocks at once; idle shares and energy-made watts from the second tick. */
static void intel_counters(void **state)
{
	struct run r;
	const struct table *t;
	size_t i;

	(void)state;
	run_start(&r, "mixed");
	t = run_tick(&r, SEC);
	i = row_of(t, "card1");
	NUM(t, i, "gfx_mhz", 1300);
	UNKNOWN(t, i, "idle_pct"); /* one reading is no interval */
	UNKNOWN(t, i, "temp_c"); /* an iGPU: no hwmon */
	i = row_of(t, "card2");
	NUM(t, i, "gfx_mhz", 2100); /* tile0/gt0's */
	NUM(t, i, "power_cap_w", 190);
	NUM(t, i, "temp_c", 55); /* pkg */
	NUM(t, i, "temp_mem_c", 61); /* vram */
	UNKNOWN(t, i, "power_w");
	/* two seconds later: 1500 ms more RC6; gt0 1000 ms and gt1 2000 ms more idle; 90 J */
	put("mixed", "class/drm/card1/gt/gt0/rc6_residency_ms", "101500\n");
	put("mixed", "devices/pci0000:00/0000:04:00.0/tile0/gt0/gtidle/idle_residency_ms", "6000\n");
	put("mixed", "devices/pci0000:00/0000:04:00.0/tile0/gt1/gtidle/idle_residency_ms", "9000\n");
	put("mixed", "devices/pci0000:00/0000:04:00.0/hwmon/hwmon4/energy1_input", "1090000000\n");
	t = run_tick(&r, 3 * SEC);
	NUM(t, row_of(t, "card1"), "idle_pct", 75.0);
	NUM(t, row_of(t, "card2"), "idle_pct", 75.0); /* (1000 + 2000) / 2 GTs / 2000 ms */
	NUM(t, row_of(t, "card2"), "power_w", 45.0);
	/* the driver reloaded: counters from zero, a restart, not 2^64 */
	put("mixed", "class/drm/card1/gt/gt0/rc6_residency_ms", "500\n");
	put("mixed", "devices/pci0000:00/0000:04:00.0/hwmon/hwmon4/energy1_input", "7000000\n");
	t = run_tick(&r, 4 * SEC);
	NUM(t, row_of(t, "card1"), "idle_pct", 50.0);
	NUM(t, row_of(t, "card2"), "power_w", 7.0);
	/* more idle than time (sampling): at most the whole interval */
	put("mixed", "class/drm/card1/gt/gt0/rc6_residency_ms", "2000\n");
	t = run_tick(&r, 5 * SEC);
	NUM(t, row_of(t, "card1"), "idle_pct", 100.0);
	run_end(&r);
}

static void amdgpu_apu(void **state)
{
	struct run r;
	const struct table *t;

	(void)state;
	run_start(&r, "amdgpu-apu");
	t = run_tick(&r, SEC);
	assert_int_equal(t->nrows, 1);
	NUM(t, 0, "power_w", 9.0); /* power1_input where there is no power1_average */
	NUM(t, 0, "temp_c", 38.0);
	NUM(t, 0, "gfx_mhz", 800.0);
	NUM(t, 0, "busy_pct", 3.0);
	UNKNOWN(t, 0, "fan_rpm");
	UNKNOWN(t, 0, "mem_mhz");
	UNKNOWN(t, 0, "power_cap_w");
	UNKNOWN(t, 0, "temp_hotspot_c");
	run_end(&r);
}

/* gpu_metrics where there is no hwmon: each known layout in its units, the others unknown. */
static void amdgpu_gpu_metrics(void **state)
{
	struct run r;
	const struct table *t;
	size_t i;

	(void)state;
	run_start(&r, "amdgpu-metrics");
	t = run_tick(&r, SEC);
	assert_int_equal(t->nrows, 4);
	i = row_of(t, "card0"); /* v1.3: whole degrees, percent, watts */
	assert_string_equal(table_str(t, i, "gpu_metrics"), "v1.3");
	NUM(t, i, "temp_c", 61);
	NUM(t, i, "temp_hotspot_c", 70);
	NUM(t, i, "temp_mem_c", 80);
	NUM(t, i, "busy_pct", 55);
	NUM(t, i, "power_w", 210);
	NUM(t, i, "gfx_mhz", 2400);
	NUM(t, i, "mem_mhz", 1250);
	UNKNOWN(t, i, "fan_rpm"); /* 0xffff: the firmware left it unset */
	i = row_of(t, "card1"); /* v2.1: centi-degrees, centi-percent, milliwatts */
	assert_string_equal(table_str(t, i, "gpu_metrics"), "v2.1");
	NUM(t, i, "temp_c", 45.5);
	NUM(t, i, "busy_pct", 12.34);
	NUM(t, i, "power_w", 15.5);
	NUM(t, i, "gfx_mhz", 1800);
	UNKNOWN(t, i, "mem_mhz");
	UNKNOWN(t, i, "temp_hotspot_c"); /* not in v2 */
	i = row_of(t, "card2"); /* a revision the kernel we know does not define: said, not read */
	assert_string_equal(table_str(t, i, "gpu_metrics"), "unknown v1.9");
	UNKNOWN(t, i, "temp_c");
	i = row_of(t, "card3"); /* 40 bytes of a table whose header says 120 */
	assert_string_equal(table_str(t, i, "gpu_metrics"), "");
	UNKNOWN(t, i, "temp_c");
	run_end(&r);
}

/* Nonsense reads as unknown; loops, FIFOs and directories neither hang nor crash. */
static void hostile(void **state)
{
	struct run r;
	const struct table *t;
	size_t i;

	(void)state;
	run_start(&r, "hostile");
	t = run_tick(&r, SEC);
	assert_int_equal(t->nrows, 3);
	i = row_of(t, "card0");
	UNKNOWN(t, i, "busy_pct"); /* "forty-two" */
	UNKNOWN(t, i, "mem_busy_pct"); /* 250 % */
	UNKNOWN(t, i, "temp_c"); /* past 64 bits */
	UNKNOWN(t, i, "temp_hotspot_c"); /* a symlink loop */
	UNKNOWN(t, i, "temp_mem_c"); /* a FIFO: read without waiting */
	UNKNOWN(t, i, "power_w"); /* negative */
	UNKNOWN(t, i, "power_cap_w"); /* two lines */
	UNKNOWN(t, i, "fan_rpm"); /* a directory */
	UNKNOWN(t, i, "gfx_mhz"); /* its label too long to be sclk */
	i = row_of(t, "card1"); /* the device link points nowhere */
	assert_string_equal(table_str(t, i, "bus_id"), "nowhere");
	UNKNOWN(t, i, "temp_c");
	i = row_of(t, "card2"); /* no driver; hwmon a symlink loop */
	assert_string_equal(table_str(t, i, "driver"), "");
	UNKNOWN(t, i, "temp_c");
	run_end(&r);
}

/* A ROCm process on card0's GPU: its VRAM, CUs and queues at once, SDMA and evictions over an interval. */
static void kfd_process(void **state)
{
	struct run r;
	const struct table *t;

	(void)state;
	run_collector(&r, "mixed", "kfd", "kfd.processes");
	t = run_tick(&r, SEC);
	assert_int_equal(t->nrows, 1);
	NUM(t, 0, "pid", 4242);
	NUM(t, 0, "gpu_id", 53417);
	assert_string_equal(table_str(t, 0, "dev"), "0000:03:00.0"); /* location_id 768 = 03:00.0 */
	NUM(t, 0, "vram_bytes", 1073741824.0);
	NUM(t, 0, "cu_occupancy", 12);
	NUM(t, 0, "queues", 2);
	UNKNOWN(t, 0, "sdma_pct");
	put("mixed", "class/kfd/kfd/proc/4242/sdma_53417", "505000\n"); /* 0.5 s of SDMA in 2 s */
	put("mixed", "class/kfd/kfd/proc/4242/stats_53417/evicted_ms", "100\n");
	t = run_tick(&r, 3 * SEC);
	NUM(t, 0, "sdma_pct", 25.0);
	NUM(t, 0, "evicted_pct", 5.0);
	put("mixed", "class/kfd/kfd/proc/4242/sdma_53417", "1000\n"); /* the process was made again */
	t = run_tick(&r, 4 * SEC);
	NUM(t, 0, "sdma_pct", 0.1);
	run_end(&r);
	run_collector(&r, "hostile", "kfd", "kfd.processes");
	t = run_tick(&r, SEC);
	assert_int_equal(t->nrows, 1); /* 78; not "abc", not 77's "lots" */
	NUM(t, 0, "pid", 78);
	assert_string_equal(table_str(t, 0, "dev"), ""); /* a location past 16 bits: no address */
	run_end(&r);
	run_collector(&r, "amdgpu-apu", "kfd", "kfd.processes"); /* no KFD: unavailable, says why */
	assert_int_equal(r.c.info.state, COLLECTOR_UNAVAILABLE);
	assert_non_null(strstr(r.c.info.reason, "amdkfd driver is not loaded"));
	model_free(r.m);
}

/* No sysfs at all: no rows, no failure. */
/* nvidia-drm makes an NVIDIA GPU a DRM card too: one GPU, one device (nvidia0), in PCI order. */
static void nvidia_drm_card_listed_once(void **state)
{
	char dir[128];
	struct collector c = { .ops = collector_ops("devices") };
	struct model *m = model_new(0);
	struct snapshot *s;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/nvidia-proc", root);
	assert_int_equal(sysroot_set(SYSROOT_PROC, dir), 0);
	snprintf(dir, sizeof(dir), "%s/nvidia", root);
	assert_int_equal(sysroot_set(SYSROOT_SYS, dir), 0);
	c.ops->probe(&c);
	assert_int_equal(c.info.state, COLLECTOR_ATTACHED);
	model_tick_begin(m, SEC);
	assert_int_equal(c.ops->read(&c, m), 0);
	s = model_tick_end(m);
	assert_non_null(s);
	assert_int_equal(s->ndevices, 2);
	assert_string_equal(s->devices[0].name, "nvidia0");
	assert_string_equal(s->devices[0].bus_id, "0000:65:00.0");
	assert_string_equal(s->devices[1].name, "nvidia1");
	assert_string_equal(s->devices[1].bus_id, "0000:b3:00.0");
	snapshot_free(s);
	if (c.ops->close)
		c.ops->close(&c);
	model_free(m);
	sysroot_set(SYSROOT_PROC, NULL);
}

static void no_tree(void **state)
{
	struct run r;

	(void)state;
	run_start(&r, "does-not-exist");
	assert_int_equal(run_tick(&r, SEC)->nrows, 0);
	run_end(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(amdgpu_dgpu), cmocka_unit_test(intel_counters),
		cmocka_unit_test(amdgpu_apu), cmocka_unit_test(hostile), cmocka_unit_test(no_tree),
		cmocka_unit_test(kfd_process), cmocka_unit_test(amdgpu_gpu_metrics),
		cmocka_unit_test(nvidia_drm_card_listed_once),
	};

	return cmocka_run_group_tests(tests, setup, trees_remove);
}
