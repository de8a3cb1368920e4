// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A CUDA driver API client of known behaviour, for the NVIDIA collector's tests
 * (with the stand-in libcuda, or the real one: it makes no kernel run).
 *
 *   cuda-client PROCS GATE DONE
 *
 * Forks PROCS processes. Process i (from 1) allocates 3 blocks of 1 MiB, waits
 * for the file GATE to exist (the monitor attaches meanwhile), then: 40*i
 * launches through each of cuLaunchKernel (kernel_a(), by cuModuleGetFunction),
 * _ptsz (ns::kernel_b(int), by its cuLibraryGetKernel kernel), cuLaunchKernelEx
 * (that kernel's cuKernelGetFunction function) and _ptsz (no handle); 3*i
 * graph launches (by two names of one function); allocations of several sizes and kinds, most freed; frees the
 * 3 blocks from before the gate; 6*i synchronisations from two threads; 25*i
 * ioctls on /dev/null. Each prints one JSON line of what it did, counted here
 * (the bytes it asked for, the pitch it got back, the time around its syncs),
 * then waits for DONE to exist so that the monitor still sees it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUmemGenericAllocationHandle;

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			unsigned bz, unsigned shm, void *s, void **p, void **e);
CUresult cuLaunchKernel_ptsz(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
			     unsigned by, unsigned bz, unsigned shm, void *s, void **p, void **e);
CUresult cuLaunchKernelEx(const void *config, void *f, void **p, void **e);
CUresult cuLaunchKernelEx_ptsz(const void *config, void *f, void **p, void **e);
CUresult cuGraphLaunch(void *g, void *s);
CUresult cuModuleGetFunction(void **f, void *module, const char *name);
CUresult cuLibraryGetKernel(void **k, void *library, const char *name);
CUresult cuKernelGetFunction(void **f, void *kernel);
CUresult cuGraphLaunch_ptsz(void *g, void *s);
CUresult cuCtxSynchronize(void);
CUresult cuStreamSynchronize(void *s);
CUresult cuEventSynchronize(void *e);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes);
CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, void *s);
CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned int flags);
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,
			    unsigned int elem);
CUresult cuMemCreate(CUmemGenericAllocationHandle *h, size_t bytes, const void *prop,
		     unsigned long long flags);
CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemFreeAsync(CUdeviceptr dptr, void *s);
CUresult cuMemRelease(CUmemGenericAllocationHandle h);

struct tally {
	unsigned long launches, graphs, allocs, alloc_bytes, frees, freed_bytes, unknown_frees;
	unsigned long syncs, ioctls, failed;
	double sync_ns;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void wait_for(const char *file)
{
	while (access(file, F_OK))
		usleep(10000);
}

static int syncs_each;

static void *sync_thread(void *arg)
{
	struct tally *t = arg;

	for (int k = 0; k < syncs_each; k++) {
		double t0 = now_ns();
		CUresult r = k % 3 == 0 ? cuCtxSynchronize() :
			     k % 3 == 1 ? cuStreamSynchronize(NULL) :
					  cuEventSynchronize(NULL);

		t->sync_ns += now_ns() - t0;
		t->syncs += r == 0;
	}
	return NULL;
}

static void alloc(struct tally *t, CUresult r, size_t bytes)
{
	if (r) {
		t->failed++;
		return;
	}
	t->allocs++;
	t->alloc_bytes += bytes;
}

static void freed(struct tally *t, CUresult r, size_t bytes)
{
	if (!r) {
		t->frees++;
		t->freed_bytes += bytes;
	}
}

/*
 * Two call chains of known frames (built with frame pointers) for --stacks:
 * child -> phase_a -> cuLaunchKernel, _ptsz; child -> phase_b -> cuLaunchKernelEx, _ptsz.
 */
__attribute__((noinline)) static int phase_a(void *fa, void *kb)
{
	int n = !cuLaunchKernel(fa, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);

	n += !cuLaunchKernel_ptsz(kb, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);
	__asm__ volatile("" ::: "memory"); /* not a tail call: the frame stays */
	return n;
}

__attribute__((noinline)) static int phase_b(void *fb)
{
	int n = !cuLaunchKernelEx(NULL, fb, NULL, NULL);

	n += !cuLaunchKernelEx_ptsz(NULL, NULL, NULL, NULL);
	__asm__ volatile("" ::: "memory");
	return n;
}

static int child(int i, const char *gate, const char *done)
{
	struct tally t = { 0 }, th[2] = { { 0 } };
	CUdeviceptr pre[3], small[10], as[2], managed, pitched;
	CUmemGenericAllocationHandle h[2];
	pthread_t tid[2];
	void *fa = NULL, *kb = NULL, *fb = NULL;
	size_t pitch = 0;
	int fd;

	for (int k = 0; k < 3; k++)
		if (cuMemAlloc_v2(&pre[k], 1 << 20))
			return 1;
	wait_for(gate);
	/* kernel_a() by a function, ns::kernel_b(int) by its kernel and that kernel's function, one unnamed */
	if (cuModuleGetFunction(&fa, NULL, "_Z8kernel_av") || cuLibraryGetKernel(&kb, NULL, "_ZN2ns8kernel_bEi") ||
	    cuKernelGetFunction(&fb, kb))
		return 1;
	for (int k = 0; k < 40 * i; k++) {
		t.launches += phase_a(fa, kb);
		t.launches += phase_b(fb);
	}
	for (int k = 0; k < 3 * i; k++)
		t.graphs += !(k % 2 ? cuGraphLaunch_ptsz(NULL, NULL) : cuGraphLaunch(NULL, NULL));
	for (int k = 0; k < 10; k++)
		alloc(&t, cuMemAlloc_v2(&small[k], 4096 * (k + 1) + i), 4096 * (k + 1) + i);
	for (int k = 0; k < 2; k++)
		alloc(&t, cuMemAllocAsync(&as[k], 1000 * i + 7, NULL), 1000 * i + 7);
	alloc(&t, cuMemAllocManaged(&managed, 12345, 1), 12345);
	if (!cuMemAllocPitch_v2(&pitched, &pitch, 1000, 7, 4))
		alloc(&t, 0, pitch * 7);
	for (int k = 0; k < 2; k++)
		alloc(&t, cuMemCreate(&h[k], 2 << 20, NULL, 0), 2 << 20);
	alloc(&t, cuMemAlloc_v2(NULL, 0), 0); /* fails: counted as failed, not allocated */
	for (int k = 0; k < 8; k++) /* the last two small blocks stay allocated */
		freed(&t, cuMemFree_v2(small[k]), 4096 * (k + 1) + i);
	for (int k = 0; k < 2; k++)
		freed(&t, cuMemFreeAsync(as[k], NULL), 1000 * i + 7);
	freed(&t, cuMemFree_v2(pitched), pitch * 7);
	freed(&t, cuMemRelease(h[0]), 2 << 20);
	for (int k = 0; k < 3; k++)
		t.unknown_frees += !cuMemFree_v2(pre[k]);
	syncs_each = 3 * i;
	for (int k = 0; k < 2; k++)
		pthread_create(&tid[k], NULL, sync_thread, &th[k]);
	for (int k = 0; k < 2; k++) {
		pthread_join(tid[k], NULL);
		t.syncs += th[k].syncs;
		t.sync_ns += th[k].sync_ns;
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	for (int k = 0; fd >= 0 && k < 25 * i; k++) {
		int n;

		ioctl(fd, FIONREAD, &n);
		t.ioctls++;
	}
	if (fd >= 0)
		close(fd);
	printf("{\"pid\":%d,\"launches\":%lu,\"graph_launches\":%lu,\"allocs\":%lu,\"alloc_bytes\":%lu,"
	       "\"frees\":%lu,\"freed_bytes\":%lu,\"unknown_frees\":%lu,\"failed_allocs\":%lu,"
	       "\"syncs\":%lu,\"sync_ns\":%.0f,\"ioctls\":%lu}\n",
	       getpid(), t.launches, t.graphs, t.allocs, t.alloc_bytes, t.frees, t.freed_bytes,
	       t.unknown_frees, t.failed, t.syncs, t.sync_ns, t.ioctls);
	fflush(stdout);
	wait_for(done);
	return 0;
}

int main(int argc, char **argv)
{
	int procs = argc == 4 ? atoi(argv[1]) : 0, bad = 0, st;

	if (procs < 1 || procs > 64) {
		fprintf(stderr, "usage: cuda-client PROCS(1-64) GATE DONE\n");
		return 2;
	}
	for (int i = 1; i <= procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid)
			_exit(child(i, argv[2], argv[3]));
	}
	while (wait(&st) > 0 || errno == EINTR)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	return bad;
}
