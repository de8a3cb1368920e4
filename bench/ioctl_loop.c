// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ioctl_loop: the time of one ioctl that no GPU collector watches (FIONREAD on
 * a pipe), over N calls, best of ROUNDS: what the calls and NVIDIA collectors'
 * ioctl programs add to every other ioctl of the machine (bench/calls-idle.sh).
 * With FILE, FIONREAD on FILE instead, its errors ignored (/dev/null, watched
 * by a test build: bench/calls-stacks.sh).
 *   ioctl_loop [N] [ROUNDS] [FILE]   prints ns per ioctl
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000, rounds = argc > 2 ? atol(argv[2]) : 5;
	double best = 0;
	int fds[2], avail;
	bool file = argc > 3;

	if (file)
		fds[0] = open(argv[3], O_RDONLY | O_CLOEXEC);
	if (n < 1 || rounds < 1 || (file ? fds[0] < 0 : pipe(fds) != 0)) {
		fprintf(stderr, "usage: ioctl_loop [N] [ROUNDS] [FILE]\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
		double t0 = now_ns(), per;

		for (long i = 0; i < n; i++)
			if (ioctl(fds[0], FIONREAD, &avail) && !file)
				return 1;
		per = (now_ns() - t0) / (double)n;
		if (!r || per < best)
			best = per;
	}
	printf("%.1f\n", best);
	return 0;
}
