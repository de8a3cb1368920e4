/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a perf PMU's sysfs directory (<sysfs>/bus/event_source/devices/<pmu>)
 * says of its events, as perf(1) reads it: events/<name> holds terms
 * ("config=0x1000", "event=0x02"), format/<term> the bits of the config a term
 * fills ("config:20-27"). An event, term or format that is absent, or one this
 * reader does not know (config1, split ranges), leaves the event unknown: no
 * config is guessed. And the share of two counters over an interval.
 */
#ifndef GPUTOP_SENSORS_PMU_FORMAT_H
#define GPUTOP_SENSORS_PMU_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bits lo..hi (inclusive) of attr.config. */
struct pmu_field {
	unsigned int lo, hi;
};

/* i915's per-engine samples, each an event "<engine>-<sample>" counting ns. */
enum pmu_sample { PMU_BUSY, PMU_WAIT, PMU_SEMA, PMU_SAMPLES };

/* A format file's text ("config:12-19", "config:5"); false for anything else. */
bool pmu_field_parse(const char *text, struct pmu_field *f);
/* v into config's field f; false when v does not fit in it. */
bool pmu_field_put(uint64_t *config, struct pmu_field f, uint64_t v);
/* The format called term of the PMU in dir, put into config with value v; false if absent or unknown. */
bool pmu_term_put(const char *dir, const char *term, uint64_t v, uint64_t *config);
/* events/<event> of the PMU in dir as a config (terms by their formats; "config=" as is), or false. */
bool pmu_event_config(const char *dir, const char *event, uint64_t *config);
/* The first CPU of a cpumask file's text ("0", "0-7", "2,4"); -1 when none. */
int pmu_first_cpu(const char *text);
/*
 * An i915 event file's name "<engine>-<sample>" ("rcs0-busy", "vecs1-sema"):
 * the engine (letters, then digits) into engine and its sample; false for any
 * other name ("rcs0-busy.unit", "rc6-residency", "rcs0-busy-ticks").
 */
bool pmu_engine_event(const char *file, char *engine, size_t size, enum pmu_sample *sample);
/* The PCI address in a per-device PMU's name after prefix ("xe_0000_03_00.0"); false when none. */
bool pmu_name_bus(const char *pmu, const char *prefix, char *bus, size_t size);
/* An engine's class by its name, in memory.device_engines' words: 3d, compute, copy, video, other. */
const char *pmu_engine_class(const char *engine);
/*
 * What num gained over what den gained between two reads, in percent, at most
 * 100; -1 (unknown) when den gained nothing or either went backwards.
 */
double pmu_share_pct(uint64_t num_now, uint64_t num_before, uint64_t den_now, uint64_t den_before);

#endif
