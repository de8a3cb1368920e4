// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The memory collector's two ways of finding the open files of a character
 * device major, side by side: the BPF task-file iterator and the /proc walk.
 * Prints one JSON line: how many files each found, whether the (pid, fd) sets
 * are the same, and the best time of ROUNDS runs of each, in ms.
 * Usage: fd-census MAJOR [ROUNDS]   (root; exit 1 when the sets differ)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "collectors/memory/fd_census.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double best(struct fd_census *c, int rounds, struct fd_ref **v, size_t *n, size_t *cap)
{
	double b = 1e30;

	for (int i = 0; i < rounds; i++) {
		double t0 = now_ms();

		if (fd_census_take(c, v, n, cap))
			return -1;
		if (now_ms() - t0 < b)
			b = now_ms() - t0;
	}
	return b;
}

int main(int argc, char **argv)
{
	unsigned int major = argc > 1 ? (unsigned int)atoi(argv[1]) : 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	struct fd_census *it, *walk;
	struct fd_ref *a = NULL, *b = NULL;
	size_t na = 0, ca = 0, nb = 0, cb = 0;
	double ta, tb;
	int same;

	if (argc < 2 || rounds < 1) {
		fprintf(stderr, "usage: fd-census MAJOR [ROUNDS]\n");
		return 2;
	}
	it = fd_census_open(major, false);
	walk = fd_census_open(major, true);
	if (!it || !walk)
		return 1;
	tb = best(walk, rounds, &b, &nb, &cb);
	ta = best(it, rounds, &a, &na, &ca);
	same = na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
	printf("{\"iterator\":\"%s\",\"iterator_files\":%zu,\"iterator_ms\":%.3f,"
	       "\"walk_files\":%zu,\"walk_ms\":%.3f,\"same\":%s}\n",
	       fd_census_how(it), na, ta, nb, tb, same ? "true" : "false");
	fd_census_close(it);
	fd_census_close(walk);
	free(a);
	free(b);
	return same ? 0 : 1;
}
