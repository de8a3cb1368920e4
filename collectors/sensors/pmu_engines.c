// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/pci.h"
#include "core/sysroot.h"
#include "collectors/kit/sysfs_read.h"
#include "collectors/sensors/pmu_engines.h"
#include "collectors/sensors/pmu_format.h"
#include "collectors/sensors/sensors_tables.h"

#define MAX_PMUS 8
#define MAX_ENGINES 64
#define MAX_GTS 4
#define XE_CLASSES 5 /* DRM_XE_ENGINE_CLASS_RENDER ... _COMPUTE (xe_drm.h) */
#define XE_INSTANCES 16

/* One engine's counters: one perf group, read at once. */
struct engine {
	char name[16];
	int fd[PMU_SAMPLES]; /* fd[0] leads; i915: the samples by slot; xe: active, total ticks */
	unsigned int nfd;
	int slot[PMU_SAMPLES]; /* i915: each sample's place in the group, -1 absent */
	uint64_t last[1 + PMU_SAMPLES]; /* time enabled (ns), then the values, at the last read */
	bool have_last;
};

struct pmu {
	char name[64]; /* "i915", "i915_0000_03_00.0", "xe_0000_03_00.0" */
	char card[16]; /* the DRM card it counts for; "" when none is known */
	bool xe, seen, tried;
	bool stale; /* a read failed (the device went, or its PMU was registered again): open again */
	const char *why; /* what it lacks, when no engine opened */
	struct engine engines[MAX_ENGINES];
	size_t nengines;
};

struct pmu_engines {
	struct pmu pmus[MAX_PMUS];
	size_t npmus;
	int denied; /* errno of a refused perf_event_open: nothing more is opened */
	int failed; /* errno of the last other failure */
	bool intel_card; /* an i915 or xe card was seen */
};

struct pmu_engines *pmu_engines_new(void)
{
	return calloc(1, sizeof(struct pmu_engines));
}

static void engine_close(struct engine *e)
{
	for (unsigned int i = e->nfd; i-- > 0;)
		close(e->fd[i]);
	e->nfd = 0;
}

static void pmu_close(struct pmu *u)
{
	for (size_t i = 0; i < u->nengines; i++)
		engine_close(&u->engines[i]);
	u->nengines = 0;
}

void pmu_engines_free(struct pmu_engines *p)
{
	for (size_t i = 0; p && i < p->npmus; i++)
		pmu_close(&p->pmus[i]);
	free(p);
}

size_t pmu_engines_count(const struct pmu_engines *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->npmus; i++)
		n += p->pmus[i].nengines;
	return n;
}

/* One counter of a system-wide PMU on cpu, in group (-1: a leader of its own); its fd, or -errno. */
static int open_counter(uint32_t type, uint64_t config, int cpu, int group)
{
	struct perf_event_attr a = {
		.type = type,
		.size = sizeof(a),
		.config = config,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED,
	};
	long fd = syscall(SYS_perf_event_open, &a, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* Adds counter config to e's group; false when it did not open. */
static bool engine_add(struct pmu_engines *p, struct engine *e, uint32_t type, uint64_t config,
		       int cpu)
{
	int fd = open_counter(type, config, cpu, e->nfd ? e->fd[0] : -1);

	if (fd == -EACCES || fd == -EPERM)
		p->denied = -fd; /* refused: nothing more is tried */
	else if (fd < 0)
		p->failed = -fd;
	if (fd < 0)
		return false;
	e->fd[e->nfd++] = fd;
	return true;
}

/* The PMU's type and the CPU to count on (its cpumask's first; 0 where it has none); false if none. */
static bool pmu_where(const char *dir, uint32_t *type, int *cpu)
{
	char mask[256];
	uint64_t t;

	if (!sysfs_read_u64_at(&t, dir, "type") || t > UINT32_MAX)
		return false;
	*type = (uint32_t)t;
	*cpu = sysfs_read_line_at(mask, sizeof(mask), dir, "cpumask") ? pmu_first_cpu(mask) : 0;
	return *cpu >= 0;
}

/* By class as xe numbers them (rcs, bcs, vcs, vecs, ccs, then others), then by name. */
static int engine_order(const void *a, const void *b)
{
	static const char *const classes[] = { "rcs", "bcs", "vcs", "vecs", "ccs" };
	const struct engine *x = a, *y = b;
	size_t cx = 0, cy = 0, n = sizeof(classes) / sizeof(classes[0]);

	while (cx < n &&
	       strncmp(x->name, classes[cx], strspn(x->name, "abcdefghijklmnopqrstuvwxyz")))
		cx++;
	while (cy < n &&
	       strncmp(y->name, classes[cy], strspn(y->name, "abcdefghijklmnopqrstuvwxyz")))
		cy++;
	return cx != cy ? (cx < cy ? -1 : 1) : strcmp(x->name, y->name);
}

/* i915: the engines with a <engine>-busy event, each with its -wait and -sema where they exist. */
static void open_i915(struct pmu_engines *p, struct pmu *u, const char *dir, uint32_t type, int cpu)
{
	static const char *const samples[PMU_SAMPLES] = { "busy", "wait", "sema" };
	char events[PATH_MAX], name[16], file[32];
	enum pmu_sample s;
	struct dirent *de;
	uint64_t config;
	DIR *d;

	if (snprintf(events, sizeof(events), "%s/events", dir) >= (int)sizeof(events) ||
	    !(d = opendir(events)))
		return;
	while (!p->denied && u->nengines < MAX_ENGINES && (de = readdir(d))) {
		struct engine *e = &u->engines[u->nengines];

		if (!pmu_engine_event(de->d_name, name, sizeof(name), &s) || s != PMU_BUSY)
			continue;
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", name);
		for (int k = 0; k < PMU_SAMPLES; k++) {
			e->slot[k] = -1;
			snprintf(file, sizeof(file), "%s-%s", name, samples[k]);
			/* busy leads the group: without it, no wait or sema */
			if ((k == PMU_BUSY || e->nfd) && pmu_event_config(dir, file, &config) &&
			    engine_add(p, e, type, config, cpu))
				e->slot[k] = (int)e->nfd - 1;
		}
		if (e->slot[PMU_BUSY] == 0)
			u->nengines++;
		else
			engine_close(e);
	}
	closedir(d);
	qsort(u->engines, u->nengines, sizeof(u->engines[0]), engine_order);
}

/* An xe card's GT ids (device/tileT/gtG: G counts across tiles), as bits; GT 0 where none is seen. */
static unsigned int xe_gts(const char *devdir)
{
	char path[PATH_MAX];
	unsigned int gts = 0;

	for (unsigned int tile = 0; tile < MAX_GTS; tile++)
		for (unsigned int gt = 0; gt < MAX_GTS; gt++) {
			int n = snprintf(path, sizeof(path), "%s/tile%u/gt%u", devdir, tile, gt);

			if (n < (int)sizeof(path) && !access(path, F_OK))
				gts |= 1u << gt;
		}
	return gts ? gts : 1;
}

/* An xe event's config with the engine's fields put by the PMU's formats; false if one is absent. */
static bool xe_config(const char *dir, uint64_t event, const unsigned int eng[3], uint64_t *config)
{
	*config = event;
	return pmu_term_put(dir, "gt", eng[0], config) &&
	       pmu_term_put(dir, "engine_class", eng[1], config) &&
	       pmu_term_put(dir, "engine_instance", eng[2], config);
}

/* "<class><instance>", with "-gt<N>" after it where another GT has that name already. */
static void xe_name(struct pmu *u, struct engine *e, const unsigned int eng[3])
{
	static const char *const names[XE_CLASSES] = { "rcs", "bcs", "vcs", "vecs", "ccs" };

	snprintf(e->name, sizeof(e->name), "%s%u", names[eng[1]], eng[2]);
	for (size_t i = 0; i < u->nengines; i++)
		if (!strcmp(u->engines[i].name, e->name))
			snprintf(e->name, sizeof(e->name), "%s%u-gt%u", names[eng[1]], eng[2],
				 eng[0]);
}

/*
 * One xe GT's engines of one class: its logical instances from 0 while their active and total
 * ticks (ev) open, as the instances are numbered without gaps. False when nothing more is tried.
 */
static bool open_xe_class(struct pmu_engines *p, struct pmu *u, const char *dir, uint32_t type,
			  int cpu, const uint64_t ev[2], unsigned int gt, unsigned int cls)
{
	for (unsigned int inst = 0; inst < XE_INSTANCES && u->nengines < MAX_ENGINES; inst++) {
		const unsigned int eng[3] = { gt, cls, inst };
		struct engine *e = &u->engines[u->nengines];
		uint64_t ca, ct;

		if (!xe_config(dir, ev[0], eng, &ca) || !xe_config(dir, ev[1], eng, &ct)) {
			u->why = "its format lacks gt, engine_class or engine_instance";
			return false;
		}
		memset(e, 0, sizeof(*e));
		if (!engine_add(p, e, type, ca, cpu) || !engine_add(p, e, type, ct, cpu)) {
			engine_close(e);
			return !p->denied;
		}
		xe_name(u, e, eng);
		u->nengines++;
	}
	return true;
}

/* xe: per GT of the card and engine class (DRM_XE_ENGINE_CLASS_*), the engines that open. */
static void open_xe(struct pmu_engines *p, struct pmu *u, const char *dir, uint32_t type, int cpu,
		    const struct drm_card *card)
{
	unsigned int gts = xe_gts(card->devdir);
	uint64_t ev[2];

	if (!pmu_event_config(dir, "engine-active-ticks", &ev[0]) ||
	    !pmu_event_config(dir, "engine-total-ticks", &ev[1])) {
		u->why = "no engine-active-ticks and engine-total-ticks events (an xe PMU without "
			 "engine activity)";
		return;
	}
	for (unsigned int gt = 0; gt < MAX_GTS; gt++)
		for (unsigned int cls = 0; (gts & 1u << gt) && cls < XE_CLASSES; cls++)
			if (!open_xe_class(p, u, dir, type, cpu, ev, gt, cls))
				return;
}

static void pmu_open(struct pmu_engines *p, struct pmu *u, const struct drm_card *card)
{
	char dir[PATH_MAX];
	uint32_t type;
	int cpu;

	u->tried = true;
	if (!sys_path(dir, sizeof(dir), "bus/event_source/devices/%s", u->name) ||
	    !pmu_where(dir, &type, &cpu)) {
		u->why = "no type or cpumask readable";
		return;
	}
	if (u->xe)
		open_xe(p, u, dir, type, cpu, card);
	else
		open_i915(p, u, dir, type, cpu);
}

/* Whether name is an i915 or xe PMU ("i915", "i915_<PCI address>", "xe_<PCI address>"). */
static bool intel_pmu(const char *name, bool *xe)
{
	char bus[64];

	*xe = !strncmp(name, "xe_", 3);
	return !strcmp(name, "i915") || pmu_name_bus(name, "i915_", bus, sizeof(bus)) ||
	       pmu_name_bus(name, "xe_", bus, sizeof(bus));
}

/* Whether a per-device i915 PMU names the card at bus_id. */
static bool has_own_pmu(const struct pmu_engines *p, const char *bus_id)
{
	char bus[64];

	for (size_t i = 0; i < p->npmus; i++)
		if (pmu_name_bus(p->pmus[i].name, "i915_", bus, sizeof(bus)) &&
		    pci_same(bus, bus_id))
			return true;
	return false;
}

/*
 * The card u counts for: the one of its driver at the PCI address in its name;
 * for the single "i915" PMU (integrated GPUs, older kernels), the one i915 card
 * no per-device PMU names. NULL when none, or which one is not known.
 */
static const struct drm_card *pmu_card(const struct pmu_engines *p, const struct pmu *u,
				       const struct drm_card *cards, size_t n)
{
	const struct drm_card *found = NULL;
	char bus[64];

	if (pmu_name_bus(u->name, u->xe ? "xe_" : "i915_", bus, sizeof(bus))) {
		for (size_t i = 0; i < n; i++)
			if (!strcmp(cards[i].driver, u->xe ? "xe" : "i915") &&
			    pci_same(cards[i].bus_id, bus))
				return &cards[i];
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cards[i].driver, "i915") || has_own_pmu(p, cards[i].bus_id))
			continue;
		if (found)
			return NULL; /* two: which one it counts is not known */
		found = &cards[i];
	}
	return found;
}

/* The PMU called name, added when new; NULL when there is no room. */
static struct pmu *pmu_slot(struct pmu_engines *p, const char *name, bool xe)
{
	struct pmu *u;

	for (size_t i = 0; i < p->npmus; i++)
		if (!strcmp(p->pmus[i].name, name))
			return &p->pmus[i];
	if (p->npmus == MAX_PMUS || strlen(name) >= sizeof(u->name))
		return NULL;
	u = &p->pmus[p->npmus++];
	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", name);
	u->xe = xe;
	return u;
}

/* The PMUs not seen in this scan went (a driver unloaded): their counters close. */
static void forget_unseen(struct pmu_engines *p)
{
	size_t k = 0;

	for (size_t i = 0; i < p->npmus; i++) {
		if (!p->pmus[i].seen) {
			pmu_close(&p->pmus[i]);
			continue;
		}
		if (k != i)
			p->pmus[k] = p->pmus[i];
		k++;
	}
	p->npmus = k;
}

void pmu_engines_scan(struct pmu_engines *p, const struct drm_card *cards, size_t n)
{
	char dir[PATH_MAX];
	struct dirent *de;
	struct pmu *u;
	bool xe;
	DIR *d;

	p->intel_card = false;
	for (size_t i = 0; i < n; i++)
		p->intel_card |= !strcmp(cards[i].driver, "i915") || !strcmp(cards[i].driver, "xe");
	for (size_t i = 0; i < p->npmus; i++)
		p->pmus[i].seen = false;
	if (sys_path(dir, sizeof(dir), "bus/event_source/devices") && (d = opendir(dir))) {
		while ((de = readdir(d)))
			if (intel_pmu(de->d_name, &xe) && (u = pmu_slot(p, de->d_name, xe)))
				u->seen = true;
		closedir(d);
	}
	forget_unseen(p);
	for (size_t i = 0; i < p->npmus; i++) {
		const struct drm_card *card = pmu_card(p, &p->pmus[i], cards, n);

		u = &p->pmus[i];
		snprintf(u->card, sizeof(u->card), "%s", card ? card->name : "");
		if (u->stale) {
			pmu_close(u);
			u->stale = u->tried = false;
			u->why = NULL;
		}
		if (card && !u->tried && !p->denied)
			pmu_open(p, u, card);
	}
}

static void set_pct(struct cell *row, unsigned int col, double pct)
{
	if (pct >= 0)
		cell_set_f64(row, col, pct);
}

/* i915: each sample's ns over the ns the group was enabled; xe: active ticks over total ticks. */
static void set_shares(struct cell *row, bool xe, const struct engine *e, const uint64_t *now)
{
	static const unsigned int col[PMU_SAMPLES] = { SE_BUSY, SE_WAIT, SE_SEMA };
	const uint64_t *was = e->last;

	if (xe) {
		set_pct(row, SE_BUSY, pmu_share_pct(now[1], was[1], now[2], was[2]));
		return;
	}
	for (int k = 0; k < PMU_SAMPLES; k++)
		if (e->slot[k] >= 0)
			set_pct(row, col[k],
				pmu_share_pct(now[1 + e->slot[k]], was[1 + e->slot[k]], now[0],
					      was[0]));
}

static void engine_row(struct pmu *u, struct engine *e, struct table *t)
{
	uint64_t buf[2 + PMU_SAMPLES], now[1 + PMU_SAMPLES] = { 0 };
	ssize_t got = read(e->fd[0], buf, sizeof(buf));
	struct cell *row = table_row_add(t);

	if (!row)
		return;
	cell_set_str(row, SE_DEV, u->card);
	cell_set_str(row, SE_ENGINE, e->name);
	cell_set_str(row, SE_CLASS, pmu_engine_class(e->name));
	cell_set_str(row, SE_PMU, u->name);
	if (got != (ssize_t)((2 + e->nfd) * sizeof(uint64_t)) || buf[0] != e->nfd) {
		u->stale = true; /* a read that failed: the next scan opens them again */
		return;
	}
	now[0] = buf[1];
	memcpy(now + 1, buf + 2, e->nfd * sizeof(uint64_t));
	if (e->have_last)
		set_shares(row, u->xe, e, now);
	memcpy(e->last, now, sizeof(e->last));
	e->have_last = true;
}

void pmu_engines_rows(struct pmu_engines *p, struct table *t)
{
	for (size_t i = 0; t && i < p->npmus; i++)
		for (size_t k = 0; p->pmus[i].card[0] && k < p->pmus[i].nengines; k++)
			engine_row(&p->pmus[i], &p->pmus[i].engines[k], t);
}

/* Why a PMU has no engine open, into note. */
static enum tracepoint_state pmu_why(const struct pmu_engines *p, const struct pmu *u, char *note,
				     size_t size)
{
	char path[PATH_MAX];
	int64_t paranoid = 0;

	if (p->denied) {
		char is[32] = "";

		if (proc_path(path, sizeof(path), "sys/kernel/perf_event_paranoid") &&
		    sysfs_read_s64(path, &paranoid))
			snprintf(is, sizeof(is), " (it is %lld)", (long long)paranoid);
		snprintf(note, size,
			 "perf_event_open: %s: it needs CAP_PERFMON or kernel.perf_event_paranoid "
			 "<= 0%s",
			 strerror(p->denied), is);
		return TRACEPOINT_FAILED;
	}
	if (!u->card[0])
		snprintf(note, size, "which DRM card it counts for is not known");
	else if (u->why)
		snprintf(note, size, "%s", u->why);
	else
		snprintf(note, size, "no engine counter opened: %s%s",
			 p->failed ? "perf_event_open: " : "",
			 p->failed ? strerror(p->failed) : "no <engine>-busy event");
	return TRACEPOINT_MISSING;
}

void pmu_engines_source(const struct pmu_engines *p, struct collector *c)
{
	char note[128];

	if (!p->npmus && p->intel_card)
		collector_add_tracepoint(
			c, "perf", "i915/xe PMU", TRACEPOINT_MISSING,
			"none in bus/event_source/devices: engine busy from fdinfo alone");
	for (size_t i = 0; i < p->npmus; i++) {
		const struct pmu *u = &p->pmus[i];
		enum tracepoint_state st = TRACEPOINT_ATTACHED;

		if (u->nengines)
			snprintf(note, sizeof(note), "%zu engine%s of %s", u->nengines,
				 u->nengines == 1 ? "" : "s", u->card);
		else
			st = pmu_why(p, u, note, sizeof(note));
		collector_add_tracepoint(c, "perf", u->name, st, note);
	}
}
