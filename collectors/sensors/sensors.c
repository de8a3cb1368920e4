// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sensors collector: per GPU, what the drivers export in sysfs without any
 * privilege: hwmon (temperatures, power, cap, fan, clocks), amdgpu's busy
 * percentages, i915's and xe's GT clocks and idle residency. No BPF; read each
 * tick; the paths follow --sysfs. And the engines' busy shares from the perf
 * PMUs of i915 and xe where perf_event_open is allowed (pmu_engines.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/counter.h"
#include "core/sysroot.h"
#include "collectors/collector.h"
#include "collectors/kit/drm_cards.h"
#include "collectors/kit/sysfs_read.h"
#include "collectors/sensors/gpu_metrics.h"
#include "collectors/sensors/hwmon.h"
#include "collectors/sensors/pmu_engines.h"
#include "collectors/sensors/sensors_tables.h"

#define MAX_CARDS 64
#define MAX_GTS 4

/* What one card's counters were at the last read (energy, idle residency). */
struct card_state {
	char key[96]; /* card name and bus id: a card number reused by another device starts again */
	bool has_energy, has_idle, seen;
	uint64_t energy_uj, idle_ms;
};

struct sensors_priv {
	struct card_state cards[MAX_CARDS];
	struct drm_card found[MAX_CARDS];
	struct pmu_engines *pmu; /* the Intel GPUs' engine counters */
};

/* What one card's driver files say this tick, beside hwmon's. */
struct driver_reading {
	bool has_busy, has_mem_busy, has_gfx_mhz, has_idle;
	double busy_pct, mem_busy_pct, gfx_mhz;
	uint64_t idle_ms; /* summed over ngts GTs */
	unsigned int ngts;
};

/* gpu_metrics where the card has one: fills what hwmon and the busy files left unknown. */
static void read_gpu_metrics(const struct drm_card *c, struct cell *row)
{
	static const unsigned int col[GM_COUNT] = {
		[GM_TEMP] = SG_TEMP,	     [GM_HOTSPOT] = SG_TEMP_HOT, [GM_MEM_TEMP] = SG_TEMP_MEM,
		[GM_BUSY] = SG_BUSY,	     [GM_POWER] = SG_POWER,	 [GM_GFX_MHZ] = SG_GFX_MHZ,
		[GM_MEM_MHZ] = SG_MEM_MHZ, [GM_FAN] = SG_FAN,
	};
	char path[PATH_MAX], rev[32];
	uint8_t buf[4096];
	struct gpu_metrics gm;
	long n;

	if (snprintf(path, sizeof(path), "%s/gpu_metrics", c->devdir) >= (int)sizeof(path) ||
	    (n = sysfs_read_bytes(path, buf, sizeof(buf))) < 0 || !gpu_metrics_decode(buf, (size_t)n, &gm))
		return;
	snprintf(rev, sizeof(rev), "%sv%u.%u", gm.known ? "" : "unknown ", gm.format, gm.content);
	cell_set_str(row, SG_METRICS, rev);
	for (int f = 0; f < GM_COUNT; f++)
		if (gm.has[f] && !row[col[f]].known)
			cell_set_f64(row, col[f], gm.v[f]);
}

static void read_amdgpu(const struct drm_card *c, struct driver_reading *d)
{
	uint64_t v;

	if (sysfs_read_u64_at(&v, c->devdir, "gpu_busy_percent") && v <= 100)
		d->has_busy = true, d->busy_pct = (double)v;
	if (sysfs_read_u64_at(&v, c->devdir, "mem_busy_percent") && v <= 100)
		d->has_mem_busy = true, d->mem_busy_pct = (double)v;
}

/* i915: the card's gt_act_freq_mhz; each gt/gtN/rc6_residency_ms (older: power/rc6_residency_ms). */
static void read_i915(const struct drm_card *c, struct driver_reading *d)
{
	char card[PATH_MAX];
	uint64_t v;

	if (!sys_path(card, sizeof(card), "class/drm/%s", c->name))
		return;
	if (sysfs_read_u64_at(&v, card, "gt_act_freq_mhz"))
		d->has_gfx_mhz = true, d->gfx_mhz = (double)v;
	for (unsigned int gt = 0; gt < MAX_GTS; gt++)
		if (sysfs_read_u64_at(&v, card, "gt/gt%u/rc6_residency_ms", gt))
			d->idle_ms += v, d->ngts++;
	if (!d->ngts && sysfs_read_u64_at(&v, card, "power/rc6_residency_ms"))
		d->idle_ms = v, d->ngts = 1;
	d->has_idle = d->ngts > 0;
}

/* xe: device/tileT/gtG/freq0/act_freq (the first GT's) and .../gtidle/idle_residency_ms. */
static void read_xe(const struct drm_card *c, struct driver_reading *d)
{
	uint64_t v;

	for (unsigned int tile = 0; tile < MAX_GTS; tile++)
		for (unsigned int gt = 0; gt < MAX_GTS; gt++) {
			if (!d->has_gfx_mhz &&
			    sysfs_read_u64_at(&v, c->devdir, "tile%u/gt%u/freq0/act_freq", tile, gt))
				d->has_gfx_mhz = true, d->gfx_mhz = (double)v;
			if (sysfs_read_u64_at(&v, c->devdir, "tile%u/gt%u/gtidle/idle_residency_ms", tile, gt))
				d->idle_ms += v, d->ngts++;
		}
	d->has_idle = d->ngts > 0;
}

static struct card_state *state_for(struct sensors_priv *p, const struct drm_card *c)
{
	char key[sizeof(p->cards[0].key)];
	struct card_state *free_slot = NULL;

	snprintf(key, sizeof(key), "%s/%s", c->name, c->bus_id);
	for (size_t i = 0; i < MAX_CARDS; i++) {
		if (p->cards[i].key[0] && !strcmp(p->cards[i].key, key))
			return &p->cards[i];
		if (!p->cards[i].key[0] && !free_slot)
			free_slot = &p->cards[i];
	}
	if (free_slot)
		snprintf(free_slot->key, sizeof(free_slot->key), "%s", key);
	return free_slot;
}

/* Energy and idle residency: rates over the interval, from the last read (none at the first). */
static void set_counters(struct cell *row, struct card_state *s, const struct hwmon_reading *h,
			 const struct driver_reading *d, bool have_hwmon, double iv)
{
	if (have_hwmon && !h->has_power && h->has_energy && s->has_energy)
		cell_set_f64(row, SG_POWER, counter_rate(h->energy_uj, s->energy_uj, iv) / 1e6);
	if (d->has_idle && s->has_idle) {
		double pct = (double)counter_delta(d->idle_ms, s->idle_ms) / (iv * 1e3) / d->ngts * 100.0;

		cell_set_f64(row, SG_IDLE, pct > 100.0 ? 100.0 : pct); /* sampling: a little over */
	}
	s->has_energy = have_hwmon && h->has_energy;
	s->energy_uj = h->energy_uj;
	s->has_idle = d->has_idle;
	s->idle_ms = d->idle_ms;
}

static void card_row(struct sensors_priv *p, const struct drm_card *c, struct table *t, double iv)
{
	struct driver_reading d = { 0 };
	struct hwmon_reading h;
	bool have_hwmon = hwmon_read(c->devdir, &h);
	struct card_state *s = state_for(p, c);
	struct cell *row = table_row_add(t);

	if (!row)
		return;
	cell_set_str(row, SG_DEV, c->name);
	cell_set_str(row, SG_DRIVER, c->driver);
	cell_set_str(row, SG_BUS, c->bus_id);
	if (!strcmp(c->driver, "amdgpu"))
		read_amdgpu(c, &d);
	else if (!strcmp(c->driver, "i915"))
		read_i915(c, &d);
	else if (!strcmp(c->driver, "xe"))
		read_xe(c, &d);
	if (d.has_busy)
		cell_set_f64(row, SG_BUSY, d.busy_pct);
	if (d.has_mem_busy)
		cell_set_f64(row, SG_MEM_BUSY, d.mem_busy_pct);
	for (int k = 0; have_hwmon && k < HT_COUNT; k++)
		if (h.has_temp[k])
			cell_set_f64(row, SG_TEMP + (unsigned int)k, h.temp_c[k]);
	if (have_hwmon && h.has_power)
		cell_set_f64(row, SG_POWER, h.power_w);
	if (have_hwmon && h.has_cap)
		cell_set_f64(row, SG_POWER_CAP, h.cap_w);
	if (have_hwmon && h.has_freq[HF_GFX])
		cell_set_f64(row, SG_GFX_MHZ, h.freq_mhz[HF_GFX]);
	else if (d.has_gfx_mhz)
		cell_set_f64(row, SG_GFX_MHZ, d.gfx_mhz);
	if (have_hwmon && h.has_freq[HF_MEM])
		cell_set_f64(row, SG_MEM_MHZ, h.freq_mhz[HF_MEM]);
	if (have_hwmon && h.has_fan)
		cell_set_f64(row, SG_FAN, h.fan_rpm);
	if (s) {
		set_counters(row, s, &h, &d, have_hwmon, iv);
		s->seen = true;
	}
	if (!strcmp(c->driver, "amdgpu"))
		read_gpu_metrics(c, row);
}

static void sensors_probe(struct collector *c)
{
	struct sensors_priv *p = calloc(1, sizeof(struct sensors_priv));

	c->priv = p;
	if (p)
		p->pmu = pmu_engines_new();
	if (!p || !p->pmu)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

/* The engine counters open at the start, so that --list says once what they lack. */
static int sensors_attach(struct collector *c)
{
	struct sensors_priv *p = c->priv;

	pmu_engines_scan(p->pmu, p->found, drm_cards(p->found, MAX_CARDS));
	pmu_engines_source(p->pmu, c);
	return 0;
}

static int sensors_read(struct collector *c, struct model *m)
{
	struct sensors_priv *p = c->priv;
	size_t n = drm_cards(p->found, MAX_CARDS);
	struct table *t = model_table(m, &sensors_gpus);
	double iv = model_interval_s(m);

	for (size_t i = 0; i < MAX_CARDS; i++)
		p->cards[i].seen = false;
	for (size_t i = 0; t && i < n; i++)
		card_row(p, &p->found[i], t, iv);
	for (size_t i = 0; i < MAX_CARDS; i++)
		if (!p->cards[i].seen)
			memset(&p->cards[i], 0, sizeof(p->cards[i])); /* gone: forget its counters */
	pmu_engines_scan(p->pmu, p->found, n);
	pmu_engines_rows(p->pmu, model_table(m, &sensors_engines));
	snprintf(c->status.detail, sizeof(c->status.detail), "%zu card%s", n, n == 1 ? "" : "s");
	if (pmu_engines_count(p->pmu))
		snprintf(c->status.detail + strlen(c->status.detail), sizeof(c->status.detail) - strlen(c->status.detail),
			 ", %zu engines from perf", pmu_engines_count(p->pmu));
	return 0;
}

static void sensors_close(struct collector *c)
{
	struct sensors_priv *p = c->priv;

	if (p)
		pmu_engines_free(p->pmu);
	free(c->priv);
	c->priv = NULL;
}

static const struct collector_ops sensors_collector = {
	.name = "sensors",
	.order = 12,
	.unprivileged = true,
	.description = "GPU sensors from sysfs: temperatures, power, clocks, fan, busy and idle shares",
	.probe = sensors_probe,
	.attach = sensors_attach,
	.read = sensors_read,
	.close = sensors_close,
};
COLLECTOR_REGISTER(sensors_collector);
