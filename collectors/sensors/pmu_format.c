// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/pci.h"
#include "collectors/kit/sysfs_read.h"
#include "collectors/sensors/pmu_format.h"

/* A whole decimal or 0x-hex number, nothing after it; false otherwise. */
static bool parse_u64(const char *s, uint64_t *v)
{
	bool hex = !strncmp(s, "0x", 2);
	const char *digits = hex ? s + 2 : s;
	unsigned long long n;
	char *end;

	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return false;
	errno = 0;
	n = strtoull(digits, &end, hex ? 16 : 10);
	if (errno || *end)
		return false;
	*v = n;
	return true;
}

/* A decimal number at *s, *s moved past it; false when none. */
static bool parse_bit(const char **s, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*v = strtoul(*s, &end, 10);
	*s = end;
	return !errno;
}

bool pmu_field_parse(const char *text, struct pmu_field *f)
{
	unsigned long lo, hi;

	if (strncmp(text, "config:", 7))
		return false; /* config1:, config2: ... this reader does not fill */
	text += 7;
	if (!parse_bit(&text, &lo))
		return false;
	hi = lo;
	if (*text == '-' && (text++, !parse_bit(&text, &hi)))
		return false;
	if (*text || lo > hi || hi > 63)
		return false; /* "0-7,32-35" (split ranges) fails here too */
	f->lo = (unsigned int)lo;
	f->hi = (unsigned int)hi;
	return true;
}

bool pmu_field_put(uint64_t *config, struct pmu_field f, uint64_t v)
{
	unsigned int width = f.hi - f.lo + 1;
	uint64_t mask = width >= 64 ? UINT64_MAX : (1ULL << width) - 1;

	if (f.lo > f.hi || f.hi > 63 || (v & ~mask))
		return false;
	*config = (*config & ~(mask << f.lo)) | (v << f.lo);
	return true;
}

/* A term's name: lower-case letters, digits and '_' (never a path). */
static bool term_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

bool pmu_term_put(const char *dir, const char *term, uint64_t v, uint64_t *config)
{
	char text[64];
	struct pmu_field f;

	if (!strcmp(term, "config")) {
		*config = v; /* the raw config: i915's "config=0x1000" */
		return true;
	}
	return term_name(term) && sysfs_read_line_at(text, sizeof(text), dir, "format/%s", term) &&
	       pmu_field_parse(text, &f) && pmu_field_put(config, f, v);
}

/* One "name=value" (or "name": 1) of an event's text, put into config. */
static bool put_term(const char *dir, char *term, uint64_t *config)
{
	char *eq = strchr(term, '=');
	uint64_t v = 1;

	if (eq) {
		*eq = 0;
		if (!parse_u64(eq + 1, &v))
			return false;
	}
	return pmu_term_put(dir, term, v, config);
}

bool pmu_event_config(const char *dir, const char *event, uint64_t *config)
{
	char text[256], *save = NULL, *term;
	uint64_t c = 0;
	bool any = false;

	if (strchr(event, '/') || event[0] == '.' ||
	    !sysfs_read_line_at(text, sizeof(text), dir, "events/%s", event))
		return false;
	for (term = strtok_r(text, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		if (!put_term(dir, term, &c))
			return false;
		any = true;
	}
	if (!any)
		return false;
	*config = c;
	return true;
}

int pmu_first_cpu(const char *text)
{
	long n = 0;
	int digits = 0;

	for (; *text >= '0' && *text <= '9' && digits < 7; text++, digits++)
		n = n * 10 + (*text - '0');
	return digits && digits < 7 && (!*text || strchr(",-\n", *text)) ? (int)n : -1;
}

bool pmu_engine_event(const char *file, char *engine, size_t size, enum pmu_sample *sample)
{
	static const char *const names[PMU_SAMPLES] = { "busy", "wait", "sema" };
	const char *dash = strrchr(file, '-'), *p = file;
	size_t n = dash ? (size_t)(dash - file) : 0;

	if (!dash || n == 0 || n >= size)
		return false;
	while (p < dash && *p >= 'a' && *p <= 'z')
		p++;
	if (p == file || p == dash)
		return false; /* no letters, or no instance number */
	for (; p < dash; p++)
		if (*p < '0' || *p > '9')
			return false;
	for (int s = 0; s < PMU_SAMPLES; s++)
		if (!strcmp(dash + 1, names[s])) {
			memcpy(engine, file, n);
			engine[n] = 0;
			*sample = (enum pmu_sample)s;
			return true;
		}
	return false;
}

bool pmu_name_bus(const char *pmu, const char *prefix, char *bus, size_t size)
{
	size_t n = strlen(prefix);

	if (strncmp(pmu, prefix, n) || !pmu[n] || strlen(pmu + n) >= size)
		return false;
	snprintf(bus, size, "%s", pmu + n);
	for (char *c = bus; *c; c++)
		if (*c == '_')
			*c = ':'; /* the kernel put '_' for ':', which perf reserves */
	return pci_same(bus, bus);
}

const char *pmu_engine_class(const char *engine)
{
	static const struct {
		const char *prefix, *class;
	} classes[] = {
		{ "rcs", "3d" },    { "ccs", "compute" }, { "bcs", "copy" },
		{ "vcs", "video" }, { "vecs", "video" },
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strncmp(engine, classes[i].prefix, strlen(classes[i].prefix)))
			return classes[i].class;
	return "other";
}

double pmu_share_pct(uint64_t num_now, uint64_t num_before, uint64_t den_now, uint64_t den_before)
{
	double pct;

	if (den_now <= den_before || num_now < num_before)
		return -1;
	pct = (double)(num_now - num_before) / (double)(den_now - den_before) * 100.0;
	return pct > 100.0 ? 100.0 : pct; /* sampled apart: a little over at times */
}
