// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The memory collector's two ways of finding the open files of a character
 * device major, side by side: the BPF task-file iterator and the /proc walk.
 * Prints one JSON line: how many files each found, whether the (pid, fd) sets
 * are the same, and the best time of ROUNDS runs of each, in ms. With PIDFILE
 * (PIDs, one a line), the sets are compared on those processes only: the others
 * of the machine open and close files between the two takes.
 * Usage: fd-census MAJOR [ROUNDS [PIDFILE]]   (root; exit 1 when the sets differ)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "collectors/kit/fd_census.h"

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

/* Keeps the refs of the PIDs listed in path; the number kept. */
static size_t keep_listed(struct fd_ref *v, size_t n, const char *path)
{
	static uint32_t pids[65536];
	size_t np = 0, kept = 0;
	FILE *f = fopen(path, "r");
	unsigned int pid;

	if (!f) {
		perror(path);
		exit(2);
	}
	while (np < sizeof(pids) / sizeof(pids[0]) && fscanf(f, "%u", &pid) == 1)
		pids[np++] = pid;
	fclose(f);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < np; k++)
			if (v[i].pid == pids[k]) {
				v[kept++] = v[i];
				break;
			}
	return kept;
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
		fprintf(stderr, "usage: fd-census MAJOR [ROUNDS [PIDFILE]]\n");
		return 2;
	}
	it = fd_census_open(&major, 1, false);
	walk = fd_census_open(&major, 1, true);
	if (!it || !walk)
		return 1;
	tb = best(walk, rounds, &b, &nb, &cb);
	ta = best(it, rounds, &a, &na, &ca);
	if (argc > 3) {
		size_t ka = keep_listed(a, na, argv[3]), kb = keep_listed(b, nb, argv[3]);

		same = ka == kb && (!ka || !memcmp(a, b, ka * sizeof(*a)));
	} else {
		same = na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
	}
	printf("{\"iterator\":\"%s\",\"iterator_files\":%zu,\"iterator_ms\":%.3f,"
	       "\"walk_files\":%zu,\"walk_ms\":%.3f,\"same\":%s}\n",
	       fd_census_how(it), na, ta, nb, tb, same ? "true" : "false");
	fd_census_close(it);
	fd_census_close(walk);
	free(a);
	free(b);
	return same ? 0 : 1;
}
