// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A submitter with a known call chain per phase, for --stacks (tests/vm): each
 * job is one MOCKGPU_IOC_SUBMIT from
 *   main -> phase_a -> submit_a -> ioctl   (A_JOBS jobs of A_US on gfx_0.0.0)
 *   main -> phase_b -> submit_b -> ioctl   (B_JOBS jobs of B_US on comp_1.0.0)
 * Built twice: stack-submit -O2 -fno-omit-frame-pointer; stack-drm -O2
 * -fomit-frame-pointer -DWITH_LIBDRM, static against Debian's libdrm.a (built
 * without frame pointers), where submit_X -> drmIoctl -> ioctl.
 * each phase waiting for its jobs (MOCKGPU_IOC_WAIT, which pushes none).
 *   stack-submit A_JOBS A_US B_JOBS B_US
 * Prints "pid=P a_jobs=N a_us=U b_jobs=N b_us=U"; stays 0.5 s after its last job so that
 * the monitor has seen it (its mappings are read at its first jobs anyway).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "mockgpu_uapi.h"
#ifdef WITH_LIBDRM
#include <xf86drm.h>
#define SUBMIT(fd, req) drmIoctl(fd, MOCKGPU_IOC_SUBMIT, req)
#else
#define SUBMIT(fd, req) ioctl(fd, MOCKGPU_IOC_SUBMIT, req)
#endif

#define NOINLINE __attribute__((noinline, noclone))

static int fd;

static NOINLINE void submit_a(unsigned int us)
{
	struct mockgpu_submit req = { .ring = 0, .count = 1, .duration_us = us,
				      .dep_ring = MOCKGPU_NO_DEP };

	if (SUBMIT(fd, &req)) {
		perror("stack-submit: submit_a");
		exit(1);
	}
}

static NOINLINE void submit_b(unsigned int us)
{
	struct mockgpu_submit req = { .ring = 1, .count = 1, .duration_us = us,
				      .dep_ring = MOCKGPU_NO_DEP };

	if (SUBMIT(fd, &req)) {
		perror("stack-submit: submit_b");
		exit(1);
	}
}

static NOINLINE void wait_jobs(void)
{
	if (ioctl(fd, MOCKGPU_IOC_WAIT)) {
		perror("stack-submit: wait");
		exit(1);
	}
}

static NOINLINE void phase_a(long jobs, unsigned int us)
{
	for (long i = 0; i < jobs; i++)
		submit_a(us);
	wait_jobs();
	__asm__ volatile("" ::: "memory"); /* no tail call: phase_a stays on the stack of the wait */
}

static NOINLINE void phase_b(long jobs, unsigned int us)
{
	for (long i = 0; i < jobs; i++)
		submit_b(us);
	wait_jobs();
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

int main(int argc, char **argv)
{
	long a_jobs, b_jobs;
	unsigned int a_us, b_us;

	if (argc != 5) {
		fprintf(stderr, "usage: stack-submit A_JOBS A_US B_JOBS B_US\n");
		return 2;
	}
	a_jobs = atol(argv[1]), a_us = (unsigned int)atol(argv[2]);
	b_jobs = atol(argv[3]), b_us = (unsigned int)atol(argv[4]);
	fd = open("/dev/mockgpu", O_RDWR);
	if (fd < 0) {
		perror("stack-submit: /dev/mockgpu");
		return 1;
	}
	phase_a(a_jobs, a_us);
	phase_b(b_jobs, b_us);
	printf("pid=%d a_jobs=%ld a_us=%u b_jobs=%ld b_us=%u\n", getpid(), a_jobs, a_us, b_jobs, b_us);
	fflush(stdout);
	usleep(500000);
	return 0;
}
