/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A DRM client's usage as its file's fdinfo says it (the kernel's
 * Documentation/gpu/drm-usage-stats.rst): driver, PCI device, client id; per
 * memory region total / resident / shared / purgeable / active bytes; per
 * engine busy time in ns, or busy and total cycles. Pure parsing: no I/O.
 */
#ifndef GPUTOP_FDINFO_H
#define GPUTOP_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FDINFO_NAME 32
#define FDINFO_REGIONS 8
#define FDINFO_ENGINES 16

enum fdinfo_mem { MEM_TOTAL, MEM_RESIDENT, MEM_SHARED, MEM_PURGEABLE, MEM_ACTIVE, MEM_KINDS };

struct fdinfo_region {
	char name[FDINFO_NAME]; /* "vram", "gtt", "system0", "memory" ... */
	uint64_t bytes[MEM_KINDS];
	unsigned int known; /* bit k: bytes[k] was printed */
};

struct fdinfo_engine {
	char name[FDINFO_NAME]; /* "gfx", "render", "rcs", "fragment" ... */
	uint64_t ns; /* drm-engine-<e>: busy time */
	uint64_t cycles, total_cycles; /* drm-cycles-<e>, drm-total-cycles-<e> */
	unsigned int capacity; /* drm-engine-capacity-<e>, 1 when not printed */
	bool has_ns, has_cycles, has_total_cycles;
};

struct drm_fdinfo {
	char driver[FDINFO_NAME];
	char pdev[FDINFO_NAME]; /* "" when not a PCI device */
	uint64_t client_id;
	bool has_client_id;
	struct fdinfo_region regions[FDINFO_REGIONS];
	size_t nregions;
	struct fdinfo_engine engines[FDINFO_ENGINES];
	size_t nengines;
	unsigned int dropped; /* regions or engines past the limits, or values that would not parse */
};

/*
 * Parses fdinfo text (NUL-terminated). 0 when it is a DRM client's (it has
 * drm-driver), -1 otherwise. The deprecated drm-memory-<r> counts as resident
 * when drm-resident-<r> is absent. Sizes take the kernel's " KiB" / " MiB" units.
 */
int drm_fdinfo_parse(const char *text, struct drm_fdinfo *out);

#endif
