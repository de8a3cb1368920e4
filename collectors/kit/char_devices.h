/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The character-device majors the kernel has given out, by driver name (/proc/devices). */
#ifndef GPUTOP_CHAR_DEVICES_H
#define GPUTOP_CHAR_DEVICES_H

#include <stddef.h>

struct char_major {
	unsigned int major;
	char name[64];
};

/* The character devices' majors, at most max of them; how many (0 when unreadable). */
size_t char_majors(struct char_major *out, size_t max);

#endif
