// SPDX-License-Identifier: GPL-2.0
/*
 * Test client for the mock GPU: submits jobs from this process and waits for them.
 *   mockgpu-submit RING COUNT DURATION_US [--dep RING] [--dep-us US] [--gap-us US] [--burst]
 *   mockgpu-submit --hold RING COUNT DURATION_US     (submit, then exit without waiting)
 * --burst pushes all COUNT jobs in one ioctl; otherwise one job per ioctl, --gap-us apart.
 * --rate R: COUNT jobs at a steady R jobs/s, in batches every millisecond (benchmarks).
 * --time: print "elapsed_s=S" at the end, from the first submission to the last job done.
 * --dep RING: before each job, a --dep-us job on RING, which the job then depends on.
 * Prints "pid=N ring=R jobs=N" first, so tests can match the process rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "mockgpu_uapi.h"

static const char *const ring_names[MOCKGPU_RINGS] = { "gfx_0.0.0", "comp_1.0.0", "sdma0" };

static unsigned int ring_index(const char *name)
{
	for (unsigned int i = 0; i < MOCKGPU_RINGS; i++)
		if (!strcmp(name, ring_names[i]))
			return i;
	fprintf(stderr, "mockgpu-submit: unknown ring '%s'\n", name);
	exit(2);
}

static void submit(int fd, unsigned int ring, unsigned int count, unsigned int us,
		   unsigned int dep)
{
	struct mockgpu_submit req = { .ring = ring, .count = count, .duration_us = us,
				      .dep_ring = dep };

	if (ioctl(fd, MOCKGPU_IOC_SUBMIT, &req)) {
		perror("mockgpu-submit: submit");
		exit(1);
	}
}

/* Submits count jobs at rate jobs/s, a batch per millisecond of CLOCK_MONOTONIC. */
static void submit_at_rate(int fd, unsigned int ring, unsigned int count, unsigned int us,
			   unsigned int rate)
{
	struct timespec next, t0, t1;
	unsigned long long due, sent = 0, tick = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	next = t0;
	while (sent < count) {
		tick++;
		due = (unsigned long long)rate * tick / 1000;
		if (due > count)
			due = count;
		if (due > sent) {
			submit(fd, ring, (unsigned int)(due - sent), us, MOCKGPU_NO_DEP);
			sent = due;
		}
		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("submitted=%llu seconds=%.3f\n", sent,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

static void sleep_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	unsigned int dep = MOCKGPU_NO_DEP, dep_us = 20000, gap_us = 0, rate = 0, ring, count, us;
	int burst = 0, hold = 0, timed = 0, fd, argi = 1;
	struct timespec t0, t1;

	if (argc > 1 && !strcmp(argv[1], "--hold")) {
		hold = 1;
		argi++;
	}
	if (argc < argi + 3) {
		fprintf(stderr, "usage: mockgpu-submit [--hold] RING COUNT DURATION_US [--dep RING] "
				"[--dep-us US] [--gap-us US] [--burst] [--rate JOBS_PER_S] [--time]\n");
		return 2;
	}
	ring = ring_index(argv[argi]);
	count = (unsigned int)strtoul(argv[argi + 1], NULL, 10);
	us = (unsigned int)strtoul(argv[argi + 2], NULL, 10);
	for (int i = argi + 3; i < argc; i++) {
		if (!strcmp(argv[i], "--burst"))
			burst = 1;
		else if (!strcmp(argv[i], "--time"))
			timed = 1;
		else if (!strcmp(argv[i], "--dep") && i + 1 < argc)
			dep = ring_index(argv[++i]);
		else if (!strcmp(argv[i], "--dep-us") && i + 1 < argc)
			dep_us = (unsigned int)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--rate") && i + 1 < argc)
			rate = (unsigned int)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--gap-us") && i + 1 < argc)
			gap_us = (unsigned int)strtoul(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "mockgpu-submit: bad argument '%s'\n", argv[i]);
			return 2;
		}
	}
	fd = open("/dev/mockgpu", O_RDWR);
	if (fd < 0) {
		perror("mockgpu-submit: /dev/mockgpu");
		return 1;
	}
	printf("pid=%d ring=%s jobs=%u\n", getpid(), ring_names[ring], count);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (rate) {
		submit_at_rate(fd, ring, count, us, rate);
	} else if (burst) {
		submit(fd, ring, count, us, MOCKGPU_NO_DEP);
	} else {
		for (unsigned int i = 0; i < count; i++) {
			if (dep != MOCKGPU_NO_DEP)
				submit(fd, dep, 1, dep_us, MOCKGPU_NO_DEP);
			submit(fd, ring, 1, us, dep);
			if (gap_us)
				sleep_us(gap_us);
		}
	}
	if (!hold && ioctl(fd, MOCKGPU_IOC_WAIT)) {
		perror("mockgpu-submit: wait");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (timed)
		printf("elapsed_s=%.6f\n",
		       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	close(fd);
	return 0;
}
