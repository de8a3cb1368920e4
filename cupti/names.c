// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel names as small ids: each distinct name gets one (1 on), sent to the monitor once with
 * gputop_cupti_name before the first record that uses it. names_forget starts over, so that a
 * monitor that comes later has every name sent again. Names are told apart by a 64-bit hash of
 * their bytes (FNV-1a) and their length; (not by CUPTI's name pointers: a module unloaded and
 * another loaded may give a pointer a new name). Called with activity.c's lock held.
 */
#include <string.h>

#include "cupti/cupti_lib.h"

struct name_slot {
	uint64_t hash; /* 0: empty */
	uint32_t id;
};

static struct name_slot slots[GPUTOP_CUPTI_NAMES * 2]; /* open addressing, at most half full */
static uint32_t used;

static uint64_t hash_of(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	h ^= len;
	return h ? h : 1;
}

void names_forget(void)
{
	memset(slots, 0, sizeof(slots));
	used = 0;
}

uint32_t name_id(const char *name)
{
	size_t len;
	uint64_t h;
	size_t mask = sizeof(slots) / sizeof(slots[0]) - 1, i;

	if (!name)
		return 0;
	len = strnlen(name, 1 << 16); /* whole names told apart, up to 64 KiB */
	h = hash_of(name, len);
	i = h & mask;
	while (slots[i].hash && slots[i].hash != h)
		i = (i + 1) & mask;
	if (slots[i].hash)
		return slots[i].id;
	if (used == GPUTOP_CUPTI_NAMES)
		return 0;
	slots[i].hash = h;
	slots[i].id = ++used;
	gputop_cupti_name(used, name, len > GPUTOP_CUPTI_NAME_MAX ? GPUTOP_CUPTI_NAME_MAX : (uint32_t)len,
			  len > GPUTOP_CUPTI_NAME_MAX);
	return used;
}
