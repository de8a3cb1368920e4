// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A CUDA driver API client of known behaviour, for the NVIDIA collector's tests
 * (with the stand-in libcuda, or the real one: it makes no kernel run).
 *
 *   cuda-client PROCS GATE DONE
 *
 * Forks PROCS processes. Process i (from 1) calls cuInit (with CUDA_INJECTION64_PATH), allocates 3 blocks of 1 MiB with no
 * context current, creates a context on device 1 and pops it, waits for the file
 * GATE to exist (the monitor attaches meanwhile), then asks for both devices'
 * bus ids and: 40*i launches through each of cuLaunchKernel (kernel_a(), by
 * cuModuleGetFunction) and _ptsz (ns::kernel_b(int), by its cuLibraryGetKernel
 * kernel) on device 0's primary context (cuCtxSetCurrent), and of
 * cuLaunchKernelEx (that kernel's cuKernelGetFunction function) and _ptsz (no
 * handle) on device 1's (cuCtxPushCurrent, then popped); 3*i graph launches (by
 * two names of one function) in a context created on device 1 (cuCtxCreate_v2,
 * destroyed after); allocations of several sizes and kinds, on device 0
 * (primary, then a cuCtxCreate_v3 context) and device 1 (cuCtxCreate_v4), most
 * freed while device 0 is current; frees the 3 blocks from before the gate;
 * 3*i synchronisations on device 0 from one thread, and from another i with no
 * context then 2*i in the context made before the gate (its device asked by
 * cuCtxGetDevice); 25*i ioctls on /dev/null. Each prints one JSON line of what
 * it did, counted here (the bytes it asked for, the pitch it got back, the time
 * around its syncs), in all and per device ("gpus": "0", "1", "unknown": calls
 * in no context), then waits for DONE to exist so that the monitor still sees it,
 * and CUDA_CLIENT_LINGER_MS milliseconds more where that is set.
 *
 *   cuda-client long GATE DONE
 *
 * Kernels of long names (long_names, below).
 *
 *   cuda-client map GATE DONE FILE OFFSET
 *
 * Launches from a frame inside a file it maps (mapped, below).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUmemGenericAllocationHandle;
typedef void *CUcontext;

CUresult cuInit(unsigned int flags);
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
CUresult cuDeviceGetCount(int *n);
CUresult cuDeviceGetPCIBusId(char *out, int len, int dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, int dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *ctx);
CUresult cuCtxGetDevice(int *dev);
CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned int flags, int dev);
CUresult cuCtxCreate_v3(CUcontext *ctx, void *affinity, int n, unsigned int flags, int dev);
CUresult cuCtxCreate_v4(CUcontext *ctx, void *params, unsigned int flags, int dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);

enum { DEV0, DEV1, UNKNOWN, NDEVS }; /* per device: ordinals 0 and 1, and calls in no context */
static const char *const dev_names[NDEVS] = { "0", "1", "unknown" };

struct dev_tally {
	unsigned long launches, graphs, allocs, alloc_bytes, frees, freed_bytes, syncs;
	double sync_ns;
};

struct tally {
	unsigned long launches, graphs, allocs, alloc_bytes, frees, freed_bytes, unknown_frees;
	unsigned long syncs, ioctls, failed;
	double sync_ns, sync_max_ns; /* max: the longest single sync */
	struct dev_tally dev[NDEVS];
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

static int syncs_each; /* i */
static CUcontext primary0, made_before; /* device 0's primary context; one on device 1 from before the gate */

/* n synchronisations of the three kinds, counted for device d. */
static void syncs(struct tally *t, int n, int d)
{
	for (int k = 0; k < n; k++) {
		double t0 = now_ns(), ns;
		CUresult r = k % 3 == 0 ? cuCtxSynchronize() :
			     k % 3 == 1 ? cuStreamSynchronize(NULL) :
					  cuEventSynchronize(NULL);

		ns = now_ns() - t0;
		t->sync_ns += ns;
		if (ns > t->sync_max_ns)
			t->sync_max_ns = ns;
		t->syncs += r == 0;
		t->dev[d].sync_ns += ns;
		t->dev[d].syncs += r == 0;
	}
}

/* Thread 0: 3 i on device 0. */
static void *sync_thread_0(void *arg)
{
	if (!cuCtxSetCurrent(primary0))
		syncs(arg, 3 * syncs_each, DEV0);
	return NULL;
}

/* Thread 1: i in no context, then 2 i in the context made before the gate (device 1). */
static void *sync_thread_1(void *arg)
{
	int dev = -1;

	syncs(arg, syncs_each, UNKNOWN);
	if (!cuCtxSetCurrent(made_before) && !cuCtxGetDevice(&dev) && dev == 1)
		syncs(arg, 2 * syncs_each, DEV1);
	return NULL;
}

static void alloc(struct tally *t, CUresult r, size_t bytes, int d)
{
	if (r) {
		t->failed++;
		return;
	}
	t->allocs++;
	t->alloc_bytes += bytes;
	t->dev[d].allocs++;
	t->dev[d].alloc_bytes += bytes;
}

static void freed(struct tally *t, CUresult r, size_t bytes, int d)
{
	if (!r) {
		t->frees++;
		t->freed_bytes += bytes;
		t->dev[d].frees++;
		t->dev[d].freed_bytes += bytes;
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

/* Before the gate: 3 blocks of 1 MiB in no context; a context on device 1, made and popped. */
static int before_gate(CUdeviceptr *pre)
{
	if (getenv("CUDA_INJECTION64_PATH") && cuInit(0)) /* loads that library, as a CUDA program's cuInit does */
		return 1;
	for (int k = 0; k < 3; k++)
		if (cuMemAlloc_v2(&pre[k], 1 << 20))
			return 1;
	return cuCtxCreate_v2(&made_before, 0, 1) || cuCtxPopCurrent_v2(NULL);
}

/* Launches: 2 on device 0 (its primary context set current), 2 on device 1 (pushed, popped), 40 i times. */
__attribute__((always_inline)) static inline int launch(struct tally *t, int i, void *fa, void *kb, void *fb, CUcontext p1)
{
	for (int k = 0; k < 40 * i; k++) {
		int n;

		if (cuCtxSetCurrent(primary0))
			return 1;
		n = phase_a(fa, kb);
		t->launches += n;
		t->dev[DEV0].launches += n;
		if (cuCtxPushCurrent_v2(p1))
			return 1;
		n = phase_b(fb);
		t->launches += n;
		t->dev[DEV1].launches += n;
		if (cuCtxPopCurrent_v2(NULL))
			return 1;
	}
	return 0;
}

/* 3 i graph launches in a context created on device 1 (pushed), destroyed after (popped). */
static int graphs(struct tally *t, int i)
{
	CUcontext c;

	if (cuCtxCreate_v2(&c, 0, 1))
		return 1;
	for (int k = 0; k < 3 * i; k++) {
		int ok = !(k % 2 ? cuGraphLaunch_ptsz(NULL, NULL) : cuGraphLaunch(NULL, NULL));

		t->graphs += ok;
		t->dev[DEV1].graphs += ok;
	}
	return cuCtxDestroy_v2(c);
}

/* Allocations on both devices, most freed with device 0 current; the blocks from before the gate freed. */
static int memory(struct tally *t, int i, const CUdeviceptr *pre)
{
	CUdeviceptr small[10], as[2], managed, pitched;
	CUmemGenericAllocationHandle h[2];
	CUcontext c1, c0;
	size_t pitch = 0;

	for (int k = 0; k < 10; k++) /* device 0's primary context is current */
		alloc(t, cuMemAlloc_v2(&small[k], 4096 * (k + 1) + i), 4096 * (k + 1) + i, DEV0);
	if (cuCtxCreate_v4(&c1, NULL, 0, 1))
		return 1;
	for (int k = 0; k < 2; k++)
		alloc(t, cuMemAllocAsync(&as[k], 1000 * i + 7, NULL), 1000 * i + 7, DEV1);
	alloc(t, cuMemAllocManaged(&managed, 12345, 1), 12345, DEV1);
	if (cuCtxPopCurrent_v2(NULL) || cuCtxCreate_v3(&c0, NULL, 0, 0, 0))
		return 1;
	if (!cuMemAllocPitch_v2(&pitched, &pitch, 1000, 7, 4))
		alloc(t, 0, pitch * 7, DEV0);
	for (int k = 0; k < 2; k++)
		alloc(t, cuMemCreate(&h[k], 2 << 20, NULL, 0), 2 << 20, DEV0);
	alloc(t, cuMemAlloc_v2(NULL, 0), 0, DEV0); /* fails: counted as failed, not allocated */
	for (int k = 0; k < 8; k++) /* the last two small blocks stay allocated */
		freed(t, cuMemFree_v2(small[k]), 4096 * (k + 1) + i, DEV0);
	for (int k = 0; k < 2; k++) /* on device 1, freed with device 0 current */
		freed(t, cuMemFreeAsync(as[k], NULL), 1000 * i + 7, DEV1);
	freed(t, cuMemFree_v2(pitched), pitch * 7, DEV0);
	freed(t, cuMemRelease(h[0]), 2 << 20, DEV0);
	for (int k = 0; k < 3; k++)
		t->unknown_frees += !cuMemFree_v2(pre[k]);
	return 0;
}

static void print_tally(const struct tally *t, const char bus[2][16])
{
	printf("{\"pid\":%d,\"launches\":%lu,\"graph_launches\":%lu,\"allocs\":%lu,\"alloc_bytes\":%lu,"
	       "\"frees\":%lu,\"freed_bytes\":%lu,\"unknown_frees\":%lu,\"failed_allocs\":%lu,"
	       "\"syncs\":%lu,\"sync_ns\":%.0f,\"sync_max_ns\":%.0f,\"ioctls\":%lu,\"bus\":{\"0\":\"%s\",\"1\":\"%s\"},"
	       "\"gpus\":{",
	       getpid(), t->launches, t->graphs, t->allocs, t->alloc_bytes, t->frees, t->freed_bytes, t->unknown_frees,
	       t->failed, t->syncs, t->sync_ns, t->sync_max_ns, t->ioctls, bus[0], bus[1]);
	for (int d = 0; d < NDEVS; d++) {
		const struct dev_tally *g = &t->dev[d];

		printf("%s\"%s\":{\"launches\":%lu,\"graph_launches\":%lu,\"allocs\":%lu,\"alloc_bytes\":%lu,"
		       "\"frees\":%lu,\"freed_bytes\":%lu,\"syncs\":%lu,\"sync_ns\":%.0f}",
		       d ? "," : "", dev_names[d], g->launches, g->graphs, g->allocs, g->alloc_bytes, g->frees,
		       g->freed_bytes, g->syncs, g->sync_ns);
	}
	printf("}}\n");
	fflush(stdout);
}

static int child(int i, const char *gate, const char *done)
{
	struct tally t = { 0 }, th[2] = { { 0 } };
	CUdeviceptr pre[3];
	pthread_t tid[2];
	void *fa = NULL, *kb = NULL, *fb = NULL, *(*fn[2])(void *) = { sync_thread_0, sync_thread_1 };
	char bus[2][16];
	CUcontext p1;
	int fd, ndev = 0;

	if (before_gate(pre))
		return 1;
	wait_for(gate);
	/* kernel_a() by a function, ns::kernel_b(int) by its kernel and that kernel's function, one unnamed */
	if (cuModuleGetFunction(&fa, NULL, "_Z8kernel_av") || cuLibraryGetKernel(&kb, NULL, "_ZN2ns8kernel_bEi") ||
	    cuKernelGetFunction(&fb, kb))
		return 1;
	if (cuDeviceGetCount(&ndev) || ndev != 2 || cuDeviceGetPCIBusId(bus[0], sizeof(bus[0]), 0) ||
	    cuDeviceGetPCIBusId(bus[1], sizeof(bus[1]), 1) || cuDevicePrimaryCtxRetain(&primary0, 0) ||
	    cuDevicePrimaryCtxRetain(&p1, 1))
		return 1;
	if (launch(&t, i, fa, kb, fb, p1) || graphs(&t, i) || memory(&t, i, pre))
		return 1;
	syncs_each = i;
	for (int k = 0; k < 2; k++)
		pthread_create(&tid[k], NULL, fn[k], &th[k]);
	for (int k = 0; k < 2; k++) {
		pthread_join(tid[k], NULL);
		t.syncs += th[k].syncs;
		t.sync_ns += th[k].sync_ns;
		if (th[k].sync_max_ns > t.sync_max_ns)
			t.sync_max_ns = th[k].sync_max_ns;
		for (int d = 0; d < NDEVS; d++) {
			t.dev[d].syncs += th[k].dev[d].syncs;
			t.dev[d].sync_ns += th[k].dev[d].sync_ns;
		}
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	for (int k = 0; fd >= 0 && k < 25 * i; k++) {
		int n;

		ioctl(fd, FIONREAD, &n);
		t.ioctls++;
	}
	if (fd >= 0)
		close(fd);
	print_tally(&t, (const char(*)[16])bus);
	wait_for(done);
	if (getenv("CUDA_CLIENT_LINGER_MS"))
		usleep((useconds_t)atoi(getenv("CUDA_CLIENT_LINGER_MS")) * 1000);
	return 0;
}

/*
 * cuda-client long GATE DONE: one process (no fork), after GATE, names four
 * kernels by cuModuleGetFunction, "_Z<len><name>v" (demangled "<name>()"),
 * and launches kernel k (from 0) 5 + k times by cuLaunchKernel: two of 300
 * bytes sharing their first 296 (past the 255 a short cell keeps), two of
 * 5,000 sharing their first 4,996 (past the 4,095 bytes BPF copies). Prints
 * {"pid":..,"handles":["0x..",..]} and waits for DONE.
 */
static int long_names(const char *gate, const char *done)
{
	static const size_t len[4] = { 300, 300, 5000, 5000 };
	static char mangled[4][5100];
	void *f[4];

	wait_for(gate);
	for (int k = 0; k < 4; k++) {
		int n = snprintf(mangled[k], sizeof(mangled[k]), "_Z%zuk", len[k]);

		memset(mangled[k] + n, 'x', len[k] - 5);
		snprintf(mangled[k] + n + len[k] - 5, 6, "_%s", k % 2 ? "two" : "one");
		strcat(mangled[k], "v");
		if (cuModuleGetFunction(&f[k], NULL, mangled[k]))
			return 1;
		for (int i = 0; i < 5 + k; i++)
			if (cuLaunchKernel(f[k], 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL))
				return 1;
	}
	printf("{\"pid\":%d,\"handles\":[\"%p\",\"%p\",\"%p\",\"%p\"]}\n", (int)getpid(), f[0], f[1], f[2], f[3]);
	fflush(stdout);
	wait_for(done);
	return 0;
}

#define MAPPED_LAUNCHES 200

static void *mapped_fn;
static unsigned long mapped_launched;

__attribute__((noinline)) static void mapped_launch(void)
{
	mapped_launched += !cuLaunchKernel(mapped_fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
	__asm__ volatile("" ::: "memory"); /* not a tail call: the frame stays */
}

/*
 * cuda-client map GATE DONE FILE OFFSET: maps FILE (private, its whole pages, at least one), writes
 * at OFFSET a frame-pointer trampoline (endbr64; push %rbp; mov %rsp,%rbp; call *%rdi; pop %rbp;
 * ret: the file itself unchanged), makes the mapping read and execute only, prints
 * {"pid":..,"mapped":".."}; after GATE, MAPPED_LAUNCHES launches 5 ms apart, each called from the
 * trampoline, so that every launch's stack holds a return address in the file (OFFSET + 10);
 * prints {"pid":..,"launches":N} and waits for DONE.
 */
static int mapped(const char *gate, const char *done, const char *file, const char *offset)
{
	static const unsigned char tramp[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89, 0xe5, 0xff, 0xd7, 0x5d, 0xc3 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off = strtoul(offset, NULL, 0), len;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	void (*through)(void (*)(void));
	unsigned char *m;
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return 1;
	len = st.st_size ? ((size_t)st.st_size + page - 1) & ~(page - 1) : page;
	m = off + sizeof(tramp) <= len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (m == MAP_FAILED)
		return 1;
	memcpy(m + off, tramp, sizeof(tramp));
	if (mprotect(m, len, PROT_READ | PROT_EXEC))
		return 1;
	through = (void (*)(void (*)(void)))(m + off);
	printf("{\"pid\":%d,\"mapped\":\"%p\"}\n", (int)getpid(), (void *)m);
	fflush(stdout);
	wait_for(gate);
	if (cuModuleGetFunction(&mapped_fn, NULL, "_Z14hostile_kernelv"))
		return 1;
	for (int k = 0; k < MAPPED_LAUNCHES; k++) {
		through(mapped_launch);
		usleep(5000);
	}
	printf("{\"pid\":%d,\"launches\":%lu}\n", (int)getpid(), mapped_launched);
	fflush(stdout);
	wait_for(done);
	return 0;
}

int main(int argc, char **argv)
{
	int procs = argc == 4 ? atoi(argv[1]) : 0, bad = 0, st;

	if (argc == 4 && !strcmp(argv[1], "long"))
		return long_names(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "map"))
		return mapped(argv[2], argv[3], argv[4], argv[5]);

	if (procs < 1 || procs > 64) {
		fprintf(stderr, "usage: cuda-client PROCS(1-64) GATE DONE\n");
		return 2;
	}
	for (int i = 1; i <= procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) { /* with the CUPTI library, exit: its flush at exit runs */
			int rc = child(i, argv[2], argv[3]);

			if (getenv("CUDA_INJECTION64_PATH"))
				exit(rc);
			_exit(rc);
		}
	}
	while (wait(&st) > 0 || errno == EINTR)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	return bad;
}
