/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Plain data shared by nvidia.bpf.c and collectors/nvidia/nvidia.c: per process, the
 * CUDA driver API calls seen by uprobes on libcuda (launches, device memory,
 * time blocked in synchronisation) and the ioctls on NVIDIA's character
 * devices; and the Xid errors the driver reports.
 */
#ifndef GPUTOP_NVIDIA_H
#define GPUTOP_NVIDIA_H

#include <linux/types.h>
#include "call_stack.h"
#include "user_stack.h"
#include "core/hist_layout.h"

#define NV_MAX_PROCS 4096
#define NV_MAX_ALLOCS 262144 /* live device allocations remembered, for their frees */
#define NV_MAX_PENDING 16384 /* threads inside a probed call at once */
#define NV_MAJORS 4 /* character-device majors whose ioctls are counted */
#define NV_MAX_PROC_GPUS 8192 /* (process, CUDA device) counters */
#define NV_MAX_CTXS 8192 /* (process, CUDA context) -> device ordinal */
#define NV_MAX_THREADS 16384 /* threads whose current CUDA context is followed */
#define NV_CTX_STACK 8 /* contexts of a thread's stack kept (cuCtxPushCurrent) */
#define NV_DEV_UNKNOWN 0xffffffffu /* the device of a call made while its context was unknown */
#define NV_BUS_ID 32 /* bytes of a PCI bus id kept, NUL included */

/* What a probed function is: the attach cookie of its uprobe (and uretprobe). */
enum nv_call {
	NV_LAUNCH, /* cuLaunchKernel, cuLaunchCooperativeKernel (+ _ptsz): (CUfunction f, ...) */
	NV_LAUNCH_EX, /* cuLaunchKernelEx (+ _ptsz): (const CUlaunchConfig *, CUfunction f, ...) */
	NV_GRAPH_LAUNCH, /* cuGraphLaunch (+ _ptsz); the calls above are counted at entry, those below at return */
	NV_SYNC, /* cuCtxSynchronize(_v2), cuStreamSynchronize(_ptsz), cuEventSynchronize */
	NV_ALLOC, /* (CUdeviceptr *dptr, size_t bytes, ...): cuMemAlloc_v2, Managed, Async, FromPoolAsync */
	NV_ALLOC_PITCH, /* cuMemAllocPitch_v2(dptr, size_t *pitch, width, height, elem) */
	NV_CREATE, /* cuMemCreate(CUmemGenericAllocationHandle *h, size_t bytes, prop, flags) */
	NV_FREE, /* cuMemFree_v2, cuMemFreeAsync (dptr) */
	NV_RELEASE, /* cuMemRelease(handle) */
	NV_GET_KERNEL, /* (handle *out, owner, const char *name): cuLibraryGetKernel, cuModuleGetFunction */
	NV_KERNEL_FUNCTION, /* cuKernelGetFunction(CUfunction *out, CUkernel kernel): the kernel's name */
	/* the calling thread's current context, and the device of a context */
	NV_CTX_SET, /* cuCtxSetCurrent(CUcontext ctx): replaces the top of the stack (NULL pops) */
	NV_CTX_PUSH, /* cuCtxPushCurrent(_v2)(CUcontext ctx) */
	NV_CTX_POP, /* cuCtxPopCurrent(_v2)(CUcontext *out) */
	NV_CTX_DESTROY, /* cuCtxDestroy(_v2)(CUcontext ctx): forgotten; popped where current */
	NV_CTX_RETAIN, /* cuDevicePrimaryCtxRetain(CUcontext *out, CUdevice dev): not made current */
	NV_CTX_CREATE, /* cuCtxCreate(_v2)(CUcontext *out, unsigned flags, CUdevice dev): pushed */
	NV_CTX_CREATE_V3, /* cuCtxCreate_v3(out, CUexecAffinityParam *, int n, unsigned flags, CUdevice dev) */
	NV_CTX_CREATE_V4, /* cuCtxCreate_v4(out, CUctxCreateParams *, unsigned flags, CUdevice dev) */
	NV_CTX_GET_DEVICE, /* cuCtxGetDevice(CUdevice *out): the device of the current context */
	NV_BUS_ID_OF, /* cuDeviceGetPCIBusId(char *out, int len, CUdevice dev) */
	NV_CALLS,
};

enum nv_drop {
	NV_DROP_PROCS_FULL, /* process table full: the call is not counted */
	NV_DROP_ALLOCS_FULL, /* allocation table full: its free will count as unknown */
	NV_DROP_PENDING_FULL, /* too many threads in calls: the call is not counted */
	NV_DROP_NESTED, /* a probed call made inside another (not counted twice) */
	NV_DROP_RETURN_UNREAD, /* an allocation's result could not be read at return */
	NV_DROP_XID_LOST, /* Xid ring buffer full: the event is counted, not logged */
	NV_DROP_RETURN_MISSED, /* a call's return never came (its entry was found stale): not counted */
	NV_DROP_DELETE_FAILED, /* a finished call's entry could not be removed (map lock contention) */
	NV_DROP_NAMES_FULL, /* kernel name table full: launches of that kernel are counted without its name */
	NV_DROP_KERNELS_FULL, /* per-kernel launch table full: the launch counts for its process only */
	NV_DROP_NAME_UNREAD, /* a kernel's name could not be read at the return: launched without a name */
	NV_DROP_STACK_LOST, /* --stacks: a launch's user stack not taken (stack table full, no frames): [no stack] */
	NV_DROP_STACKS_FULL, /* --stacks: the (process, stack, kernel) table full: the launch not in the file */
	NV_DROP_SAMPLE_LOST, /* --stacks: a stack copy for the DWARF unwind lost (ring buffer full) */
	NV_DROP_PROC_GPUS_FULL, /* (process, device) table full: the call counts for its process only */
	NV_DROP_CTXS_FULL, /* context table full: the calls in that context count under the unknown device */
	NV_DROP_THREADS_FULL, /* thread table full: that thread's calls count under the unknown device */
	NV_DROP_CTX_STACK_DEEP, /* a context pushed deeper than NV_CTX_STACK: unknown while it is current */
	NV_DROP_BUS_IDS_FULL, /* bus id table full: that device's GPU stays unknown */
	NV_DROP_CAPTURE_FULL, /* capture ring buffer full: a launch or sync not in the trace */
	NV_DROP_SYNC_STACKS_FULL, /* --stacks: the (process, stack) sync table full: the sync not in the file */
	NV_DROP_SYNC_COPY_LOST, /* --stacks: a sync's stack copy for the DWARF unwind lost (ring buffer full) */
	NV_DROP_JOIN_NO_STACK, /* GPU time join: a launch's correlation id came with no launch stack taken in its thread */
	NV_DROP_JOIN_PENDING_FULL, /* GPU time join: the (process, correlation id) table full: that kernel not joined */
	NV_DROP_JOIN_UNMATCHED, /* GPU time join: a kernel record whose launch's stack is not known: on no stack */
	NV_DROP_JOIN_SUMS_FULL, /* GPU time join: the per-stack GPU time table full: that kernel on no stack */
	NV_DROP_JOIN_READ, /* GPU time join: a batch of the library's records could not be read */
	NV_DROP_MAX,
};

/* Per process (thread-group id); counters only grow. */
struct nv_proc {
	__u64 launches, graph_launches;
	__u64 allocs, alloc_bytes; /* successful allocations since attach */
	__u64 frees, freed_bytes; /* frees of allocations seen */
	__u64 unknown_frees; /* frees of memory allocated before we attached (size unknown) */
	__u64 failed_allocs; /* allocation calls that returned an error */
	__u64 syncs, sync_ns; /* completed synchronisation calls, time blocked in them */
	__u64 ioctls, ioctl_ns, ioctl_errors; /* on the character devices of nv_majors */
	__u64 uvm_ioctls; /* of which on nvidia-uvm */
	__u64 sync_hist[HIST_SLOTS];
	__u64 ioctl_hist[HIST_SLOTS];
	char comm[16]; /* the group leader's at its first event: a process gone before the read keeps its name */
	__u32 joined; /* the CUPTI library's launch probe fired in it: its launches' ids come (join_launch) */
	__u32 pad;
};

/*
 * Per process and CUDA device ordinal (the process's own numbering: after
 * CUDA_VISIBLE_DEVICES, in CUDA_DEVICE_ORDER), NV_DEV_UNKNOWN for calls made
 * while the thread's context or that context's device was unknown.
 */
struct nv_gpu_key {
	__u32 tgid;
	__u32 dev;
};

struct nv_proc_gpu {
	__u64 launches, graph_launches;
	__u64 allocs, alloc_bytes; /* allocated while a context of the device was current */
	__u64 frees, freed_bytes; /* frees of those, by the device they were allocated on */
	__u64 syncs, sync_ns; /* synchronisation while a context of the device was current */
};

/* A context of a process: its device is the value (a __u32 ordinal). */
struct nv_ctx_key {
	__u32 tgid, pad; /* tgid first, as in nv_gpu_key */
	__u64 ctx;
};

/* A thread's stack of current contexts (cuCtxPushCurrent); depth may pass NV_CTX_STACK, unkept. */
struct nv_thread {
	__u64 ctx[NV_CTX_STACK]; /* 0: none known */
	__u32 depth, pad;
};

/* A device's PCI bus id as the process asked for it (cuDeviceGetPCIBusId): "0000:3B:00.0". */
struct nv_bus_id {
	char id[NV_BUS_ID];
};

/* A live allocation's size and the device it was made on (the value of allocs). */
struct nv_alloc {
	__u64 size;
	__u32 dev, pad;
};

/* A live allocation: process and device pointer (or handle, kind NV_CREATE). */
struct nv_alloc_key {
	__u64 addr;
	__u32 tgid;
	__u32 kind; /* NV_ALLOC for pointers, NV_CREATE for handles */
};

/* A thread inside a probed call (or an ioctl), waiting for its return. */
struct nv_pending {
	__u64 start_ns;
	__u64 out; /* user address the call writes its result to (pointer, handle); NV_CTX_SET, PUSH, DESTROY: the context */
	__u64 size; /* bytes asked for; rows for a pitched allocation; the device argument (NV_CTX_*, NV_BUS_ID_OF) */
	__u64 pitch_out; /* pitched allocation: where the pitch is written */
	__u64 sp; /* stack pointer at entry: a deeper call is nested, one as deep or shallower is later */
	__u64 name; /* NV_GET_KERNEL: the user address of the name asked for; NV_KERNEL_FUNCTION: the CUkernel */
	__u32 call; /* enum nv_call */
	__u32 depth; /* probed calls made inside this one, not counted */
	__u64 caller; /* --stacks, a sync: the return address at the top of the stack at entry */
	__s32 stack_id; /* --stacks, a sync: its user stack at entry (-1: none taken) */
	__u32 pad;
};

#define NV_MAX_KERNEL_NAMES 8192 /* kernel names remembered, all processes */
#define NV_MAX_KERNELS 32768 /* (process, device, kernel) launch counters */
#define NV_KERNEL_NAME 4096 /* bytes of a (mangled) kernel name kept, NUL included (C++ templates run to KiB) */

/*
 * A GPU kernel of a process: the handle it launches it by (a CUfunction, or a
 * CUkernel, which cuLaunchKernel also takes), and in kernel_launches the device
 * the launch went to (as nv_gpu_key's dev; 0 in kernel_names): the one count of
 * launches that nvidia.processes, nvidia.process_gpus and nvidia.kernels all sum,
 * so that a snapshot's three agree.
 */
struct nv_kernel_key {
	__u64 handle;
	__u32 tgid, dev;
};

struct nv_kernel_name {
	char name[NV_KERNEL_NAME];
	__u32 cut; /* the name was longer: name holds its first NV_KERNEL_NAME - 1 bytes */
	__u32 pad;
};

#define NV_MAX_STACKS 16384 /* --stacks: distinct user stacks of launches kept */
#define NV_MAX_STACK_KEYS 65536 /* --stacks: (process, stack, kernel) launch counters */
#define NV_STACK_DEPTH 127 /* frames a stack keeps (the kernel's PERF_MAX_STACK_DEPTH) */
#define NV_MAX_SYNC_STACKS 16384 /* --stacks: (process, stack) sync sums (struct call_stack_key) */

/* --stacks: launches of one kernel handle by one process from one user stack (-1: none taken). */
struct nv_stack_key {
	__u64 handle;
	__u64 caller; /* the return address at the top of the stack: the probed function's caller */
	__u32 tgid;
	__s32 stack_id;
};

/*
 * --stacks: a launch's stack copied for the DWARF unwind (user_stack.h), with
 * the key its launch was counted under. Taken at each key's first launch and
 * otherwise as user_stack.h's sampling rule allows.
 */

/*
 * --stacks with the CUPTI companion library (docs/gpu-time.md): each kernel's GPU time joined to its
 * launch's stack key by CUPTI's correlation id. A launch's key waits in its thread until the
 * library's gputop_cupti_launch gives its id, then under (process, id) until the kernel's record.
 */
#define NV_MAX_JOIN_PENDING 131072 /* launches whose kernel's record has not come yet */
struct nv_join_key {
	__u32 tgid;
	__u32 correlation;
};

/*
 * A thread's last launch, until the library's probe gives its correlation id (join_launch): with
 * --stacks its stack key, to join; in a capture of a joined process, its capture record, written
 * then with the id (the trace's flow to its kernel), or at the thread's next launch without.
 */
struct nv_launch_last {
	struct nv_stack_key key; /* stack_id -1: none taken */
	__u64 ts; /* its entry, CLOCK_MONOTONIC */
	__u64 handle;
	__u32 join; /* key is to be joined */
	__u32 capture; /* its capture record waits */
};

/* The kernels of one launch stack key: their count, GPU time, and queued -> start time summed. */
struct nv_stack_gpu {
	__u64 kernels;
	__u64 gpu_ns;
	__u64 queued; /* kernels with a queued time */
	__u64 queue_ns;
};

struct nv_stack_sample {
	struct nv_stack_key key;
	struct user_stack stack; /* last: only its used bytes are sent */
};

#define NV_XID_DEV 32
#define NV_XID_MSG 192

/* One nvidia:nvidia_dev_xid event, to user space through a ring buffer. */
struct nv_xid {
	__u64 ns; /* CLOCK_MONOTONIC */
	__u32 pid; /* the process running when the driver reported it */
	__u32 code;
	char comm[16];
	char dev[NV_XID_DEV]; /* PCI address */
	char msg[NV_XID_MSG];
};

/*
 * The capture's ring buffer (--trace): 2 MiB, at 88 + 8 bytes a record about 21,800 calls
 * between two drains (collectors/kit/capture_rb.h).
 */
#define NV_CAPTURE_RB_BYTES (2U << 20)

enum nv_rec_kind {
	NV_REC_LAUNCH, /* a kernel launch (handle) */
	NV_REC_GRAPH_LAUNCH, /* a graph launch */
	NV_REC_SYNC, /* a synchronisation, from its entry to its return */
};

/* One CUDA call of a capture, written only while one runs (capture_on). */
struct nv_rec {
	__u64 start_ns, end_ns; /* CLOCK_MONOTONIC; a launch: its entry, both */
	__u64 handle; /* launch: the kernel's handle (kernel_names) */
	__u64 caller; /* launch, --stacks: its nv_stack_key's caller */
	__u32 tgid, tid;
	__u32 kind; /* enum nv_rec_kind */
	__s32 stack_id; /* launch, --stacks: its nv_stack_key's stack_id; -1: none */
	char thread[16]; /* the thread's comm */
	char comm[16]; /* its group leader's */
	__u32 correlation; /* launch: CUPTI's correlation id (the GPU time join's), 0: unknown */
	__u32 pad;
};

#endif
