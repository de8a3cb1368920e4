// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * launch_loop: the cost of one cuLaunchKernel under the monitor, --stacks on or
 * off (bench/stacks-cost.sh). Calls the stand-in libcuda's cuLaunchKernel
 * (tests/cuda/fake_libcuda.c) N times from a chain of three functions, both
 * built -O2 -fomit-frame-pointer (the DWARF path), and prints the mean
 * nanoseconds a call took, after waiting for the file GATE to exist.
 *   launch_loop N GATE
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		   unsigned shm, void *s, void **p, void **e);

__attribute__((noinline)) static int leaf(void *f)
{
	int r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);

	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline)) static int middle(void *f)
{
	int r = leaf(f);

	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline)) static long outer(long n)
{
	long failed = 0;

	for (long i = 0; i < n; i++)
		failed += middle((void *)0x1000) != 0;
	return failed;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	long n = argc > 2 ? atol(argv[1]) : 0;

	if (n <= 0) {
		fprintf(stderr, "usage: launch_loop N GATE\n");
		return 2;
	}
	while (access(argv[2], F_OK))
		usleep(10000);
	clock_gettime(CLOCK_MONOTONIC, &a);
	outer(n);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
