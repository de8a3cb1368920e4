// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "collectors/kit/map_walk.h"

long map_walk(int fd, size_t key_size, size_t value_size,
	      bool (*fn)(const void *key, void *value, void *arg), void *arg)
{
	unsigned char *key = malloc(key_size), *next = malloc(key_size), *doomed = NULL;
	void *value = value_size ? malloc(value_size) : NULL;
	size_t n = 0, cap = 0;
	long deleted = 0;
	bool first = true, failed = !key || !next || (value_size && !value);

	while (!failed && !bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, key_size);
		if (value && bpf_map_lookup_elem(fd, key, value))
			continue; /* deleted since */
		if (!fn(key, value, arg))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			unsigned char *d = realloc(doomed, ncap * key_size);

			if (!d) {
				failed = true;
				break;
			}
			doomed = d;
			cap = ncap;
		}
		memcpy(doomed + n++ * key_size, key, key_size);
	}
	/*
	 * Counted as deleted only where this delete took it: an entry its program deleted meanwhile (a
	 * call that returned after the walk read its key, its thread gone by the time fn looked) is
	 * not ours to count (cuda.sh: calls_never_returned 1 with every call counted, now and then).
	 */
	for (size_t i = 0; !failed && i < n; i++)
		deleted += !bpf_map_delete_elem(fd, doomed + i * key_size);
	free(doomed);
	free(key);
	free(next);
	free(value);
	return failed ? -1 : deleted;
}

static bool thread_gone(const void *key, void *value, void *arg)
{
	unsigned long long pid_tgid = *(const unsigned long long *)key;
	char task[64];

	(void)value;
	(void)arg;
	snprintf(task, sizeof(task), "/proc/%u/task/%u", (unsigned int)(pid_tgid >> 32),
		 (unsigned int)pid_tgid);
	return access(task, F_OK) && errno == ENOENT;
}

uint64_t map_sweep_gone_threads(int fd)
{
	long n = map_walk(fd, sizeof(unsigned long long), 0, thread_gone, NULL);

	return n > 0 ? (uint64_t)n : 0;
}
