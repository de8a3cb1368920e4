// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A CUDA program for the companion library's tests (tests/cupti/run.sh), on the stand-in libcuda:
 *
 *   cupti-client run DONE    cuInit (which loads CUDA_INJECTION64_PATH), launches, waits for the
 *                            file DONE to exist, returns from main (the library's exit flush runs)
 *   cupti-client fork DONE   the same, forking once the file DONE.fork exists; the child waits for
 *                            DONE and exits through exit(); the parent waits for it, then returns
 *
 * Prints "ready PID" on stdout once cuInit has returned.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
CUresult cuInit(unsigned int flags);
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
			unsigned shm, void *s, void **p, void **e);

static void wait_for(const char *done)
{
	struct timespec ms10 = { 0, 10000000 };

	while (access(done, F_OK))
		nanosleep(&ms10, NULL);
}

int main(int argc, char **argv)
{
	pid_t child = -1;
	int st = 0;

	if (argc != 3 || (strcmp(argv[1], "run") && strcmp(argv[1], "fork"))) {
		fprintf(stderr, "usage: cupti-client run|fork DONE\n");
		return 2;
	}
	if (cuInit(0))
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (int i = 0; i < 100; i++)
		cuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
	if (!strcmp(argv[1], "fork")) {
		char gate[4096];

		snprintf(gate, sizeof(gate), "%s.fork", argv[2]);
		wait_for(gate);
		child = fork();
	}
	if (child == 0) {
		wait_for(argv[2]);
		printf("child %d\n", (int)getpid());
		fflush(stdout);
		return 0;
	}
	wait_for(argv[2]);
	if (child > 0 && (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st)))
		return 1;
	return 0;
}
