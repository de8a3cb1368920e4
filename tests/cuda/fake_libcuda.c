// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A stand-in for NVIDIA's libcuda.so.1 in the tests: the CUDA driver API entry
 * points gputop-bpf probes, with their real signatures, doing nothing a GPU
 * would (built with -fcf-protection: functions start with endbr64, as NVIDIA's do). Allocations hand out distinct fake device addresses (or handles);
 * frees succeed; a synchronisation sleeps FAKE_CUDA_SYNC_US microseconds
 * (default 1000), so the time blocked in it is known. Built with -fno-ipa-icf:
 * every function keeps an address of its own (but cuGraphLaunch_ptsz, an alias).
 * Two devices (FAKE_CUDA_DEVICES changes how many, up to 8), bus ids 0000:3B:00.0
 * and 0000:17:00.0 (the reverse of PCI order, as CUDA's default fastest-first
 * order may be); a primary context each, contexts created on either, and each
 * thread's stack of current contexts, as the real library keeps them.
 * cuInit loads the library CUDA_INJECTION64_PATH names and calls its InitializeInjection, once, as CUDA does.
 * A kernel launch calls the stand-in libcupti's launch hook where one is set (fake_cuda_launch_hook),
 * inside the launch call, as CUDA calls CUPTI's callbacks.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUmemGenericAllocationHandle;
typedef void *CUfunction, *CUstream, *CUevent, *CUgraphExec, *CUmemoryPool;
typedef int CUdevice;
typedef struct fake_ctx *CUcontext;

#define API __attribute__((visibility("default"), noinline))

static volatile unsigned long calls[40]; /* distinct bodies; and a counter to look at in a debugger */
static CUdeviceptr next_addr = 0x7f0000000000ULL;

static CUresult count(int which)
{
	calls[which]++;
	return 0;
}

static void (*launch_hook)(int cbid, int which);

/* Set by the stand-in libcupti when loaded (tests/cuda/fake_libcupti.c). */
API void fake_cuda_launch_hook(void (*hook)(int cbid, int which))
{
	launch_hook = hook;
}

/* A launch by launch function which (its CUPTI driver callback id cbid). */
static CUresult launched(int cbid, int which)
{
	if (launch_hook)
		launch_hook(cbid, which);
	return count(which);
}

static CUresult hand_out(CUdeviceptr *out, size_t bytes, int which)
{
	if (!out || !bytes)
		return 1; /* CUDA_ERROR_INVALID_VALUE */
	*out = next_addr;
	next_addr += (bytes + 0xfffff) & ~0xfffffULL; /* 1 MiB aligned, like the real allocator */
	return count(which);
}

static CUresult block(int which)
{
	const char *us = getenv("FAKE_CUDA_SYNC_US");
	long v = us ? atol(us) : 1000;
	struct timespec ts = { v / 1000000, (v % 1000000) * 1000 };

	nanosleep(&ts, NULL);
	return count(which);
}

API CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
			    unsigned by, unsigned bz, unsigned shm, CUstream s, void **p, void **e)
{
	(void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shm, (void)s;
	(void)p, (void)e;
	return launched(307, 0);
}

API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
				 unsigned by, unsigned bz, unsigned shm, CUstream s, void **p,
				 void **e)
{
	(void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shm, (void)s;
	(void)p, (void)e;
	return launched(442, 1);
}

API CUresult cuLaunchKernelEx(const void *config, CUfunction f, void **p, void **e)
{
	(void)config, (void)f, (void)p, (void)e;
	return launched(652, 2);
}

API CUresult cuLaunchKernelEx_ptsz(const void *config, CUfunction f, void **p, void **e)
{
	(void)config, (void)f, (void)p, (void)e;
	return launched(653, 3);
}

/*
 * Handles of kernels by name, distinct per call; a function of a kernel,
 * distinct from it. The name is read, as the real library looks it up (so its
 * page is present when the monitor reads it at the return).
 */
static uintptr_t next_handle = 0x10000;
static volatile size_t name_bytes;

static void look_up(const char *name)
{
	while (*name++)
		name_bytes++;
}

API CUresult cuModuleGetFunction(CUfunction *out, void *module, const char *name)
{
	(void)module;
	if (!out || !name)
		return 1;
	look_up(name);
	*out = (CUfunction)(next_handle += 0x100);
	return count(20);
}

API CUresult cuLibraryGetKernel(void **out, void *library, const char *name)
{
	(void)library;
	if (!out || !name)
		return 1;
	look_up(name);
	*out = (void *)(next_handle += 0x100);
	return count(21);
}

API CUresult cuKernelGetFunction(CUfunction *out, void *kernel)
{
	if (!out || !kernel)
		return 1;
	*out = (CUfunction)((uintptr_t)kernel + 0x10);
	return count(22);
}

API CUresult cuGraphLaunch(CUgraphExec g, CUstream s)
{
	(void)g, (void)s;
	return count(4);
}

/* One function, two names (as a library may alias a _ptsz variant): probed once, counted once per call. */
API CUresult cuGraphLaunch_ptsz(CUgraphExec g, CUstream s) __attribute__((alias("cuGraphLaunch")));

API CUresult cuCtxSynchronize(void)
{
	return block(5);
}

API CUresult cuStreamSynchronize(CUstream s)
{
	(void)s;
	return block(6);
}

API CUresult cuEventSynchronize(CUevent e)
{
	(void)e;
	return block(7);
}

API CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
	return hand_out(dptr, bytes, 8);
}

API CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream s)
{
	(void)s;
	return hand_out(dptr, bytes, 9);
}

API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned int flags)
{
	(void)flags;
	return hand_out(dptr, bytes, 10);
}

API CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,
				unsigned int elem)
{
	size_t p = (width + 511) & ~(size_t)511; /* rows padded to 512 bytes */

	(void)elem;
	if (!pitch)
		return 1;
	*pitch = p;
	return hand_out(dptr, p * height, 11);
}

API CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t bytes, const void *prop,
			 unsigned long long flags)
{
	(void)prop, (void)flags;
	return hand_out(handle, bytes, 12);
}

API CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	return dptr ? count(13) : 1;
}

API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s)
{
	(void)s;
	return dptr ? count(14) : 1;
}

API CUresult cuMemRelease(CUmemGenericAllocationHandle h)
{
	return h ? count(15) : 1;
}

/* ---- devices and contexts ---- */

#define MAX_DEVICES 8
#define STACK 16

struct fake_ctx {
	CUdevice dev;
	int primary;
};

static struct fake_ctx primaries[MAX_DEVICES];
static __thread CUcontext stack[STACK];
static __thread int depth;

static int devices(void)
{
	const char *n = getenv("FAKE_CUDA_DEVICES");
	int v = n ? atoi(n) : 2;

	return v < 0 ? 0 : v > MAX_DEVICES ? MAX_DEVICES : v;
}

/* As CUDA does at the first cuInit: the library CUDA_INJECTION64_PATH names loaded, its InitializeInjection called. */
static void inject(void)
{
	static int done;
	const char *path = getenv("CUDA_INJECTION64_PATH");
	void *h;
	int (*init)(void);

	if (done++ || !path || !*path)
		return;
	h = dlopen(path, RTLD_NOW);
	*(void **)&init = h ? dlsym(h, "InitializeInjection") : NULL;
	if (init)
		init();
	else
		fprintf(stderr, "fake libcuda: no InitializeInjection in %s\n", path);
}

API CUresult cuInit(unsigned int flags)
{
	(void)flags;
	inject();
	return count(16);
}

API CUresult cuDeviceGetCount(int *n)
{
	if (!n)
		return 1;
	*n = devices();
	return count(17);
}

API CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	if (!dev || ordinal < 0 || ordinal >= devices())
		return 101; /* CUDA_ERROR_INVALID_DEVICE */
	*dev = ordinal;
	return count(18);
}

/* Device d's bus: 0x3b, 0x17, then 0x40 onwards: not in PCI order. */
API CUresult cuDeviceGetPCIBusId(char *out, int len, CUdevice dev)
{
	static const unsigned int bus[MAX_DEVICES] = { 0x3b, 0x17, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45 };

	if (!out || len < 13 || dev < 0 || dev >= devices())
		return 1;
	snprintf(out, (size_t)len, "0000:%02X:00.0", bus[dev]);
	return count(19);
}

API CUresult cuDevicePrimaryCtxRetain(CUcontext *out, CUdevice dev)
{
	if (!out || dev < 0 || dev >= devices())
		return 1;
	primaries[dev].dev = dev;
	primaries[dev].primary = 1;
	*out = &primaries[dev];
	return count(23);
}

API CUresult cuCtxSetCurrent(CUcontext ctx)
{
	if (!ctx) {
		if (depth)
			depth--;
		return count(24);
	}
	if (!depth)
		depth = 1;
	stack[depth - 1] = ctx;
	return count(24);
}

API CUresult cuCtxGetCurrent(CUcontext *out)
{
	if (!out)
		return 1;
	*out = depth ? stack[depth - 1] : NULL;
	return count(25);
}

API CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	if (!ctx || depth >= STACK)
		return 1;
	stack[depth++] = ctx;
	return count(26);
}

API CUresult cuCtxPopCurrent_v2(CUcontext *out)
{
	if (!depth)
		return 201; /* CUDA_ERROR_INVALID_CONTEXT */
	depth--;
	if (out)
		*out = stack[depth];
	return count(27);
}

API CUresult cuCtxGetDevice(CUdevice *dev)
{
	if (!dev || !depth)
		return 201;
	*dev = stack[depth - 1]->dev;
	return count(28);
}

static CUresult create(CUcontext *out, CUdevice dev, int which)
{
	struct fake_ctx *c;

	if (!out || dev < 0 || dev >= devices() || depth >= STACK)
		return 1;
	c = calloc(1, sizeof(*c));
	if (!c)
		return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
	c->dev = dev;
	stack[depth++] = c;
	*out = c;
	return count(which);
}

API CUresult cuCtxCreate_v2(CUcontext *out, unsigned int flags, CUdevice dev)
{
	(void)flags;
	return create(out, dev, 29);
}

API CUresult cuCtxCreate_v3(CUcontext *out, void *affinity, int n, unsigned int flags, CUdevice dev)
{
	(void)affinity, (void)n, (void)flags;
	return create(out, dev, 30);
}

API CUresult cuCtxCreate_v4(CUcontext *out, void *params, unsigned int flags, CUdevice dev)
{
	(void)params, (void)flags;
	return create(out, dev, 31);
}

API CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	if (!ctx || ctx->primary)
		return 1;
	if (depth && stack[depth - 1] == ctx)
		depth--;
	free(ctx);
	return count(32);
}
