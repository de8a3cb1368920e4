/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A short list of processes (those that exited this tick, say): whether one is in it. */
#ifndef GPUTOP_PID_LIST_H
#define GPUTOP_PID_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool pid_listed(const uint32_t *pids, size_t n, uint32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

#endif
