// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collectors/memory/fdinfo.h"

static const char *const mem_keys[MEM_KINDS] = {
	[MEM_TOTAL] = "drm-total-", [MEM_RESIDENT] = "drm-resident-", [MEM_SHARED] = "drm-shared-",
	[MEM_PURGEABLE] = "drm-purgeable-", [MEM_ACTIVE] = "drm-active-",
};

/* A decimal number at v, then spaces: the number and where the rest starts; false on overflow. */
static bool parse_leading_u64(const char *v, uint64_t *out, const char **rest)
{
	unsigned long long n;
	char *end;

	errno = 0;
	if (*v < '0' || *v > '9')
		return false;
	n = strtoull(v, &end, 10);
	if (errno)
		return false;
	while (*end == ' ')
		end++;
	*out = n;
	*rest = end;
	return true;
}

/* "<uint>[ unit]": bytes; false on anything else or overflow. */
static bool parse_size(const char *v, uint64_t *out)
{
	static const struct {
		const char *name;
		unsigned int shift;
	} units[] = { { "", 0 }, { "B", 0 }, { "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 } };
	const char *unit;
	uint64_t n;

	if (!parse_leading_u64(v, &n, &unit))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(unit, units[i].name))
			continue;
		if (units[i].shift && n > (UINT64_MAX >> units[i].shift))
			return false;
		*out = n << units[i].shift;
		return true;
	}
	return false;
}

/* "<uint><suffix>", e.g. "1234 ns": false on anything else or overflow. */
static bool parse_u64(const char *v, const char *suffix, uint64_t *out)
{
	const char *rest;
	uint64_t n;

	if (!parse_leading_u64(v, &n, &rest) || strcmp(rest, suffix))
		return false;
	*out = n;
	return true;
}

/*
 * The element named name of an array of n (at most max) elements of size bytes
 * that start with their char name[FDINFO_NAME], added zeroed when missing; NULL
 * when full or the name too long.
 */
static void *named(void *base, size_t *n, size_t max, size_t size, const char *name)
{
	char *e;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((char *)base + i * size, name))
			return (char *)base + i * size;
	if (*n == max || strlen(name) >= FDINFO_NAME)
		return NULL;
	e = (char *)base + (*n)++ * size;
	memset(e, 0, size);
	snprintf(e, FDINFO_NAME, "%s", name);
	return e;
}

_Static_assert(offsetof(struct fdinfo_region, name) == 0 && offsetof(struct fdinfo_engine, name) == 0,
	       "named() finds elements by a name at their start");

static struct fdinfo_region *region(struct drm_fdinfo *f, const char *name)
{
	return named(f->regions, &f->nregions, FDINFO_REGIONS, sizeof(f->regions[0]), name);
}

static struct fdinfo_engine *engine(struct drm_fdinfo *f, const char *name)
{
	struct fdinfo_engine *e = named(f->engines, &f->nengines, FDINFO_ENGINES,
					sizeof(f->engines[0]), name);

	if (e && !e->capacity)
		e->capacity = 1;
	return e;
}

/* Prefix match: the rest of key after prefix, or NULL. */
static const char *after(const char *key, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(key, prefix, n) || !key[n] ? NULL : key + n;
}

static bool memory_key(struct drm_fdinfo *f, const char *key, const char *val)
{
	struct fdinfo_region *r;
	const char *name;
	uint64_t v;

	for (int k = 0; k < MEM_KINDS; k++) {
		/* drm-total-cycles-<e> is an engine's, not a region called "cycles-<e>" */
		if (!(name = after(key, mem_keys[k])) || !strncmp(name, "cycles-", 7))
			continue;
		if (!parse_size(val, &v) || !(r = region(f, name)))
			return false;
		r->bytes[k] = v;
		r->known |= 1u << k;
		return true;
	}
	if ((name = after(key, "drm-memory-"))) { /* deprecated: resident */
		if (!parse_size(val, &v) || !(r = region(f, name)))
			return false;
		if (!(r->known & (1u << MEM_RESIDENT)))
			r->bytes[MEM_RESIDENT] = v;
		r->known |= 1u << MEM_RESIDENT;
		return true;
	}
	return true; /* not a memory key */
}

static bool engine_key(struct drm_fdinfo *f, const char *key, const char *val)
{
	struct fdinfo_engine *e;
	const char *name;
	uint64_t v;

	if ((name = after(key, "drm-engine-capacity-"))) {
		if (!parse_u64(val, "", &v) || !v || v > 64 || !(e = engine(f, name)))
			return false;
		e->capacity = (unsigned int)v;
	} else if ((name = after(key, "drm-engine-"))) {
		if (!parse_u64(val, "ns", &v) || !(e = engine(f, name)))
			return false;
		e->ns = v;
		e->has_ns = true;
	} else if ((name = after(key, "drm-total-cycles-"))) {
		if (!parse_u64(val, "", &v) || !(e = engine(f, name)))
			return false;
		e->total_cycles = v;
		e->has_total_cycles = true;
	} else if ((name = after(key, "drm-cycles-"))) {
		if (!parse_u64(val, "", &v) || !(e = engine(f, name)))
			return false;
		e->cycles = v;
		e->has_cycles = true;
	}
	return true;
}

int drm_fdinfo_parse(const char *text, struct drm_fdinfo *f)
{
	const char *line = text;

	memset(f, 0, sizeof(*f));
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *colon;
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char key[96], val[96];
		size_t klen;

		colon = memchr(line, ':', len);
		if (colon && (klen = (size_t)(colon - line)) < sizeof(key) &&
		    len - klen - 1 < sizeof(val)) {
			const char *v = colon + 1;
			size_t vlen = len - klen - 1;

			memcpy(key, line, klen);
			key[klen] = '\0';
			while (vlen && (*v == '\t' || *v == ' '))
				v++, vlen--;
			memcpy(val, v, vlen);
			val[vlen] = '\0';
			while (vlen && (val[vlen - 1] == ' ' || val[vlen - 1] == '\r'))
				val[--vlen] = '\0';
			if (!strcmp(key, "drm-driver"))
				snprintf(f->driver, sizeof(f->driver), "%s", val);
			else if (!strcmp(key, "drm-pdev"))
				snprintf(f->pdev, sizeof(f->pdev), "%s", val);
			else if (!strcmp(key, "drm-client-id"))
				f->has_client_id = parse_u64(val, "", &f->client_id);
			else if (!strncmp(key, "drm-", 4) &&
				 !(memory_key(f, key, val) && engine_key(f, key, val)))
				f->dropped++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return f->driver[0] ? 0 : -1;
}
