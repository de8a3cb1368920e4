// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel names as small ids: each distinct name gets one (1 on), for the library's life, sent to the
 * monitor with gputop_cupti_name before the first record that uses it. names_resend has each sent
 * again, under the same id, before its next use, so that a monitor that comes later learns them:
 * a monitor's rows are kept by id, and an id never stands for another name. Names are told apart by a 64-bit hash of
 * their bytes (FNV-1a) and their length; (not by CUPTI's name pointers: a module unloaded and
 * another loaded may give a pointer a new name). Called with activity.c's lock held.
 */
#include <string.h>

#include "cupti/cupti_lib.h"

struct name_slot {
	uint64_t hash; /* 0: empty */
	uint32_t id;
	uint32_t sent; /* since the last names_resend */
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

void names_resend(void)
{
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		slots[i].sent = 0;
}

static void send(uint32_t id, const char *name, size_t len)
{
	gputop_cupti_name(id, name, len > GPUTOP_CUPTI_NAME_MAX ? GPUTOP_CUPTI_NAME_MAX : (uint32_t)len,
			  len > GPUTOP_CUPTI_NAME_MAX);
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
	if (!slots[i].hash) {
		if (used == GPUTOP_CUPTI_NAMES)
			return 0;
		slots[i].hash = h;
		slots[i].id = ++used;
	}
	if (!slots[i].sent) {
		send(slots[i].id, name, len);
		slots[i].sent = 1;
	}
	return slots[i].id;
}
