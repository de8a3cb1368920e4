/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Engine busy per device from the kernel's perf PMUs of Intel GPUs
 * (<sysfs>/bus/event_source/devices), as intel_gpu_top reads them: i915's
 * <engine>-busy, -wait and -sema (ns) over the time the counters were enabled;
 * xe's engine-active-ticks over engine-total-ticks, per GT, class and logical
 * instance (the instances that open). System-wide counters: they see every
 * client, where fdinfo sees only the processes one may read. Opening them needs
 * CAP_PERFMON (or kernel.perf_event_paranoid <= 0); refused once, nothing more
 * is tried, and the collector's source says why.
 */
#ifndef GPUTOP_SENSORS_PMU_ENGINES_H
#define GPUTOP_SENSORS_PMU_ENGINES_H

#include <stddef.h>
#include "collectors/collector.h"
#include "collectors/kit/drm_cards.h"
#include "model/table.h"

struct pmu_engines;

/* NULL out of memory. */
struct pmu_engines *pmu_engines_new(void);
void pmu_engines_free(struct pmu_engines *p);
/*
 * The i915 and xe PMUs there now, each mapped to its card of cards (per-device
 * PMUs by the PCI address in their name; the single "i915" to the one i915 card
 * left); the counters of a PMU not seen before opened; those of one gone closed.
 */
void pmu_engines_scan(struct pmu_engines *p, const struct drm_card *cards, size_t n);
/* A row of sensors.engines per open engine: its shares since the last call (none at the first). */
void pmu_engines_rows(struct pmu_engines *p, struct table *t);
/* Engines with open counters. */
size_t pmu_engines_count(const struct pmu_engines *p);
/* What the scans found, as the collector's sources (--list, JSON), one per PMU: once, at its start. */
void pmu_engines_source(const struct pmu_engines *p, struct collector *c);

#endif
