// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Load on mockdrm (tests/kmod/mockdrm.c) whose truth the memory collector is
 * checked against.
 *   drm-load run JOB_MS IDLE_MS SECONDS
 *     jobs of JOB_MS on the render engine, IDLE_MS apart, for SECONDS; prints
 *     "pid P jobs J busy_ns B wall_ns W": the time the job ioctls took, and the
 *     time from the first job's start to the last one's end.
 *   drm-load many PROCS FILES SECONDS
 *     PROCS processes, each with FILES mockdrm files holding one 64 KiB buffer:
 *     PROCS x FILES clients for SECONDS; prints "procs P clients C".
 *   drm-load ioctls N
 *     on one mockdrm file: N x DRM_IOCTL_GET_CAP (DRM_CAP_TIMESTAMP_MONOTONIC, which a
 *     render-only driver answers too) and N x
 *     DRM_IOCTL_MOCKDRM_RUN of 0 ns (refused, EINVAL); prints
 *     "pid P get_cap N run_einval N", or fails if any call did otherwise.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include "drm_card.h"
#include "../kmod/mockdrm_uapi.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int run(long job_ms, long idle_ms, long seconds)
{
	int fd = open_driver_card("mockdrm");
	uint64_t first = 0, last = 0, busy = 0, end;
	struct drm_mockdrm_run job = { .ns = (uint64_t)job_ms * 1000000ull };
	struct timespec idle = { idle_ms / 1000, (idle_ms % 1000) * 1000000L };
	long jobs = 0;

	if (fd < 0 || job_ms <= 0 || idle_ms < 0 || seconds <= 0) {
		fprintf(stderr, "drm-load: no mockdrm card, or bad arguments\n");
		return 1;
	}
	end = now_ns() + (uint64_t)seconds * 1000000000ull;
	while (now_ns() < end) {
		uint64_t t0 = now_ns();

		if (ioctl(fd, DRM_IOCTL_MOCKDRM_RUN, &job)) {
			perror("drm-load: DRM_IOCTL_MOCKDRM_RUN");
			return 1;
		}
		last = now_ns();
		if (!first)
			first = t0;
		busy += last - t0;
		jobs++;
		nanosleep(&idle, NULL);
	}
	printf("pid %d jobs %ld busy_ns %llu wall_ns %llu\n", getpid(), jobs, (unsigned long long)busy,
	       (unsigned long long)(last - first));
	return 0;
}

static void hold_files(long files, long seconds)
{
	for (long i = 0; i < files; i++) {
		int fd = open_driver_card("mockdrm");
		struct drm_mode_create_dumb d = { .height = 16, .width = 1024, .bpp = 32 };

		if (fd < 0 || ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &d)) {
			fprintf(stderr, "drm-load: file %ld: cannot open mockdrm or make a buffer\n", i);
			_exit(1);
		}
	}
	sleep((unsigned int)seconds);
	_exit(0);
}

static int many(long procs, long files, long seconds)
{
	int failed = 0, status;

	for (long p = 0; p < procs; p++)
		if (fork() == 0)
			hold_files(files, seconds);
	printf("procs %ld clients %ld\n", procs, procs * files);
	fflush(stdout);
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	return failed;
}

static int ioctls(long n)
{
	int fd = open_driver_card("mockdrm");
	struct drm_mockdrm_run bad = { .ns = 0 };

	if (fd < 0 || n <= 0) {
		fprintf(stderr, "drm-load: no mockdrm card, or bad arguments\n");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		struct drm_get_cap cap = { .capability = DRM_CAP_TIMESTAMP_MONOTONIC };

		if (ioctl(fd, DRM_IOCTL_GET_CAP, &cap)) {
			perror("drm-load: DRM_IOCTL_GET_CAP");
			return 1;
		}
		if (!ioctl(fd, DRM_IOCTL_MOCKDRM_RUN, &bad) || errno != EINVAL) {
			fprintf(stderr, "drm-load: a job of 0 ns was not refused with EINVAL\n");
			return 1;
		}
	}
	printf("pid %d get_cap %ld run_einval %ld\n", getpid(), n, n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "ioctls"))
		return ioctls(atol(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "run"))
		return run(atol(argv[2]), atol(argv[3]), atol(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "many"))
		return many(atol(argv[2]), atol(argv[3]), atol(argv[4]));
	fprintf(stderr, "usage: drm-load run JOB_MS IDLE_MS SECONDS | many PROCS FILES SECONDS | ioctls N\n");
	return 2;
}
