// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA: what the CUDA driver API and the NVIDIA driver's devices see, per
 * process. The driver lives outside DRM and (on the kernels we measured) allows
 * no function probes, so this reads:
 *  - uprobes on libcuda's exported entry points, attached by user space with a
 *    cookie saying what the function is (enum nv_call): launches counted at
 *    entry; allocations, frees and synchronisation timed to their uretprobe;
 *  - syscalls:sys_enter_ioctl / sys_exit_ioctl, counting only file descriptors
 *    whose character device has one of nv_majors (nvidia 195, nvidia-uvm);
 *  - nvidia:nvidia_dev_xid, each event to user space through a ring buffer.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <asm/ptrace.h> /* struct pt_regs, for the uprobes' arguments */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "common.bpf.h"
#include "nvidia.h"
#include "fd_table.bpf.h"
#include "syscall_ioctl.bpf.h"
#include "user_stack.bpf.h"
#include "core/cupti_abi.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load: majors whose ioctls count; [1] is nvidia-uvm. 0: unused. */
const volatile __u32 nv_majors[NV_MAJORS];
const volatile __u32 self_tgid; /* the monitor's: its own (NVML's) ioctls are not counted */

__u64 drops[NV_DROP_MAX];
__u32 capture_on; /* user space's: a capture runs, launches and syncs go to capture_rb */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, NV_CAPTURE_RB_BYTES);
} capture_rb SEC(".maps");

/*
 * The call into the capture's ring buffer while one runs; a launch's stack key (--stacks) or NULL,
 * and its correlation id (0: unknown).
 */
static __always_inline void capture(__u32 kind, __u64 id, __u64 start, __u64 end, __u64 handle,
				    const struct nv_stack_key *k, __u32 correlation)
{
	struct nv_rec *r = capture_reserve(&capture_rb, sizeof(*r), &capture_on,
					   &drops[NV_DROP_CAPTURE_FULL]);
	struct task_struct *task;

	if (!r)
		return;
	r->start_ns = start;
	r->end_ns = end;
	r->handle = handle;
	r->tgid = id >> 32;
	r->tid = (__u32)id;
	r->kind = kind;
	r->stack_id = k ? k->stack_id : -1;
	r->caller = k ? k->caller : 0;
	r->correlation = correlation;
	r->pad = 0;
	bpf_get_current_comm(r->thread, sizeof(r->thread));
	task = (struct task_struct *)bpf_get_current_task();
	BPF_CORE_READ_STR_INTO(&r->comm, task, group_leader, comm);
	capture_submit(&capture_rb, r);
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_PROCS);
	__type(key, __u32);
	__type(value, struct nv_proc);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_ALLOCS);
	__type(key, struct nv_alloc_key);
	__type(value, struct nv_alloc);
} allocs SEC(".maps");

/*
 * Threads inside a probed libcuda call. Not an LRU map: an LRU map may evict a
 * live entry to make room before it is full (its free lists are per CPU), and
 * a call's entry must stay until its return. A thread that exited inside a
 * call is removed by user space (calls_never_returned).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_PENDING);
	__type(key, __u64);
	__type(value, struct nv_pending);
} calls SEC(".maps");

/* Threads inside an ioctl on an NVIDIA device: entry time, and 1 when on nvidia-uvm. */
struct ioctl_start {
	__u64 ns;
	__u32 uvm, pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH); /* as calls */
	__uint(max_entries, NV_MAX_PENDING);
	__type(key, __u64);
	__type(value, struct ioctl_start);
} ioctls SEC(".maps");

/*
 * Entries of ioctls, never fewer: the entry adds one after its insert, the exit
 * takes one off after its delete, user space takes off those it sweeps (threads
 * that exited inside an ioctl). At 0 the exit of every other ioctl of the
 * machine returns before its lookup. An entry overwritten (a thread id reused)
 * leaves it one too high: a lookup more per ioctl, never a missed exit.
 */
__u64 ioctls_open;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} xids SEC(".maps");

/* Kernel names by handle (CUkernel and CUfunction alike), from the calls that make handles of names. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_KERNEL_NAMES);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* 4 KiB a name: memory for the names there are, not 8192 */
	__type(key, struct nv_kernel_key);
	__type(value, struct nv_kernel_name);
} kernel_names SEC(".maps");

/* Launches per process, device and kernel handle. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_KERNELS);
	__type(key, struct nv_kernel_key);
	__type(value, __u64);
} kernel_launches SEC(".maps");

/*
 * User space's: --stacks, or started live (the interface's c key): launches'
 * stacks taken (off, a launch costs one load more); copy_stacks: their user
 * stacks copied too, for the DWARF unwind (--stacks only: the ring is sized at load).
 */
__u32 capture_stacks, copy_stacks;

/* --stacks: the user stacks of launches, by id (frame pointers, as the kernel walks them). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, NV_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, NV_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* --stacks: launches per process, user stack and kernel handle. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_STACK_KEYS);
	__type(key, struct nv_stack_key);
	__type(value, __u64);
} launch_stacks SEC(".maps");

/*
 * User space's: the GPU time join is attached (the library's launch and records probes): with
 * --stacks or in a capture, each launch waits in launch_last for its correlation id.
 */
__u32 join_on;

/* The GPU time join: a thread's last launch, until the library's probe gives its id. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, NV_MAX_THREADS);
	__type(key, __u32);
	__type(value, struct nv_launch_last);
} launch_last SEC(".maps");

/* The GPU time join: a launch's stack key by (process, correlation id), until its kernel's record. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, NV_MAX_JOIN_PENDING);
	__type(key, struct nv_join_key);
	__type(value, struct nv_stack_key);
} join_pending SEC(".maps");

/* The GPU time join: per launch stack key, its kernels' GPU time (the weight of launch_stacks' key). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_STACK_KEYS);
	__type(key, struct nv_stack_key);
	__type(value, struct nv_stack_gpu);
} stack_gpu SEC(".maps");

/* --stacks-weight syncs, sync-time: set before load; off, a sync costs nothing more (the map: one entry). */
const volatile bool capture_sync_stacks;

/* --stacks: syncs and their time per (process, user stack at entry, caller). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, NV_MAX_SYNC_STACKS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct call_stack_key);
	__type(value, struct call_stack_sum);
} sync_stacks SEC(".maps");

/* --stacks: stack copies for the DWARF unwind (sized at load: USER_STACK_SAMPLE_RING with --stacks). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

/* Where a stack copy is made before it goes into samples (too large for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nv_stack_sample);
} sample_scratch SEC(".maps");

/* --stacks-weight syncs, sync-time: syncs' stack copies (sized at load: USER_STACK_SAMPLE_RING then). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} sync_samples SEC(".maps");

/* Where a sync's stack copy is made before it goes into sync_samples. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct call_stack_sample);
} sync_scratch SEC(".maps");

/* Where a name is read before it goes into kernel_names (too large for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nv_kernel_name);
} name_scratch SEC(".maps");

/* A zeroed value to create entries from: never written. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nv_proc);
} zero_proc SEC(".maps");

static __always_inline struct nv_proc *proc_of(__u32 tgid)
{
	__u32 z = 0;
	const struct nv_proc *init = bpf_map_lookup_elem(&zero_proc, &z);
	struct nv_proc *p;

	if (!init)
		return NULL;
	p = lookup_or_init(&procs, &tgid, init);
	if (!p) {
		drop_count(drops, NV_DROP_PROCS_FULL, NV_DROP_MAX);
	} else if (!p->comm[0]) {
		struct task_struct *task = (struct task_struct *)bpf_get_current_task();

		BPF_CORE_READ_STR_INTO(&p->comm, task, group_leader, comm);
	}
	return p;
}

#include "cuda_ctx.bpf.h"

/* ---- libcuda uprobes ---- */

/* One more launch of kernel handle by process tgid on device dev. */
static __always_inline void kernel_launched(__u32 tgid, __u32 dev, __u64 handle)
{
	struct nv_kernel_key k = { .handle = handle, .tgid = tgid, .dev = dev };
	__u64 zero = 0, *n = lookup_or_init(&kernel_launches, &k, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
	else
		drop_count(drops, NV_DROP_KERNELS_FULL, NV_DROP_MAX);
}

/* --stacks: the launch's registers and user stack copied for the DWARF unwind, under its key. */
static __always_inline void stack_sample(struct pt_regs *regs, const struct nv_stack_key *k, bool first)
{
	__u32 z = 0;
	struct nv_stack_sample *s = bpf_map_lookup_elem(&sample_scratch, &z);

	if (!s)
		return;
	s->key = *k;
	if (user_stack_send(&samples, s, offsetof(struct nv_stack_sample, stack), regs, first))
		drop_count(drops, NV_DROP_SAMPLE_LOST, NV_DROP_MAX);
}

/* --stacks: one more launch of handle from the calling thread's user stack, counted under *key. */
static __always_inline void stack_launched(void *ctx, __u32 tgid, __u64 handle,
					   struct nv_stack_key *key)
{
	struct nv_stack_key k = { .handle = handle, .tgid = tgid };
	__u64 zero = 0, *n;
	bool first;

	/*
	 * At a function's entry its caller's frame is not yet on the frame-pointer
	 * chain the kernel walks (no push %rbp yet): its return address is at the
	 * top of the stack, read here and put back in user space.
	 */
	bpf_probe_read_user(&k.caller, sizeof(k.caller), (void *)PT_REGS_SP((struct pt_regs *)ctx));
	k.stack_id = (__s32)bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	if (k.stack_id < 0) {
		k.stack_id = -1;
		drop_count(drops, NV_DROP_STACK_LOST, NV_DROP_MAX);
	}
	*key = k;
	n = lookup_or_init(&launch_stacks, &k, &zero);
	if (!n) {
		drop_count(drops, NV_DROP_STACKS_FULL, NV_DROP_MAX);
		return;
	}
	first = __sync_fetch_and_add(n, 1) == 0;
	/* each key's first launch always (the budget spent if there is one), the rest as the budget allows */
	if (copy_stacks && (user_stack_sample_allowed(&samples) || first))
		stack_sample(ctx, &k, first);
}

/* A capture record of a launch that waited in launch_last, with its correlation id (0: unknown). */
static __always_inline void capture_waited(__u64 id, const struct nv_launch_last *l, __u32 correlation)
{
	capture(NV_REC_LAUNCH, id, l->ts, l->ts, l->handle, l->join ? &l->key : NULL, correlation);
}

/*
 * The GPU time join attached: the launch waits in its thread for its correlation id, its stack key
 * (k, --stacks) to be joined, and its capture record (in a capture of a process whose ids come) to
 * be written with it; one that waited before and never got it is written now, without. True when
 * its capture record waits.
 */
static __always_inline bool launch_waits(__u64 id, const struct nv_proc *p, __u64 handle, const struct nv_stack_key *k)
{
	__u32 tid = (__u32)id;
	struct nv_launch_last l = {
		.ts = bpf_ktime_get_ns(), .handle = handle, .join = k != NULL, .capture = capture_on && p->joined
	};
	struct nv_launch_last *before = bpf_map_lookup_elem(&launch_last, &tid);

	if (before && before->capture)
		capture_waited(id, before, 0);
	if (k)
		l.key = *k;
	else
		l.key.stack_id = -1;
	if (bpf_map_update_elem(&launch_last, &tid, &l, BPF_ANY))
		return false; /* a LRU map: only without memory */
	return l.capture;
}

SEC("uprobe")
int BPF_KPROBE(cuda_launch, __u64 a1, __u64 a2)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, dev = current_dev(id);
	struct nv_proc *p = proc_of(tgid);
	struct nv_proc_gpu *g = gpu_of(tgid, dev);
	__u64 call = bpf_get_attach_cookie(ctx);
	__u64 handle = call == NV_LAUNCH_EX ? a2 : a1;
	struct nv_stack_key k = { .stack_id = -1 };

	if (!p)
		return 0;
	if (call == NV_GRAPH_LAUNCH) {
		__sync_fetch_and_add(&p->graph_launches, 1);
		if (g)
			__sync_fetch_and_add(&g->graph_launches, 1);
		if (capture_on) {
			__u64 now = bpf_ktime_get_ns();

			capture(NV_REC_GRAPH_LAUNCH, id, now, now, 0, NULL, 0);
		}
		return 0;
	}
	__sync_fetch_and_add(&p->launches, 1);
	if (g)
		__sync_fetch_and_add(&g->launches, 1);
	kernel_launched(tgid, dev, handle);
	if (capture_stacks)
		stack_launched(ctx, tgid, handle, &k);
	if (join_on && (capture_stacks || capture_on) && launch_waits(id, p, handle, capture_stacks ? &k : NULL))
		return 0;
	if (capture_on) {
		__u64 now = bpf_ktime_get_ns();

		capture(NV_REC_LAUNCH, id, now, now, handle, capture_stacks ? &k : NULL, 0);
	}
	return 0;
}

/* (BPF_KPROBE: the same register access serves uprobes.) */
/* Entry of a call timed or read at its return: remember what the return needs. */
/* --stacks: a sync's sum key (its process, stack at entry and caller). */
static __always_inline struct call_stack_key sync_key(const struct nv_pending *c, __u32 tgid)
{
	return (struct call_stack_key){ .tgid = tgid, .source = CALL_STACK_SYNC, .ustack_id = c->stack_id,
					.kstack_id = -1, .caller = c->caller };
}

/*
 * --stacks: a sync's stack at its entry (regs): by frame pointers into c, and
 * copied for the DWARF unwind at its key's first sync (its sum made here) or as sampled.
 */
static __always_inline void sync_stack_take(struct pt_regs *regs, struct nv_pending *c, __u32 tgid)
{
	struct call_stack_key k;
	struct call_stack_sample *s;
	__u32 z = 0;
	bool first;

	bpf_probe_read_user(&c->caller, sizeof(c->caller), (void *)PT_REGS_SP(regs));
	c->stack_id = (__s32)bpf_get_stackid(regs, &stacks, BPF_F_USER_STACK);
	if (c->stack_id < 0)
		c->stack_id = -1;
	k = sync_key(c, tgid);
	/*
	 * The key's first: its sum made now (counted at the return), by one sync
	 * only; a full table makes none, and its syncs are sampled as the rest
	 * (their loss counted at the return).
	 */
	first = !bpf_map_lookup_elem(&sync_stacks, &k) &&
		!bpf_map_update_elem(&sync_stacks, &k, &(struct call_stack_sum){}, BPF_NOEXIST);
	if (!first && !user_stack_sample_allowed(&sync_samples))
		return;
	s = bpf_map_lookup_elem(&sync_scratch, &z);
	if (!s)
		return;
	s->key = k;
	if (user_stack_send(&sync_samples, s, offsetof(struct call_stack_sample, stack), regs, first))
		drop_count(drops, NV_DROP_SYNC_COPY_LOST, NV_DROP_MAX);
}

SEC("uprobe")
int BPF_KPROBE(cuda_enter, __u64 a1, __u64 a2, __u64 a3, __u64 a4)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct nv_pending *outer = bpf_map_lookup_elem(&calls, &id), pend = {};
	__u64 sp = PT_REGS_SP(ctx);

	if (outer && sp < outer->sp) {
		/* deeper on the stack: cuMemAllocAsync calling cuMemAllocFromPoolAsync, say */
		if (outer->depth < 64)
			outer->depth++;
		drop_count(drops, NV_DROP_NESTED, NV_DROP_MAX);
		return 0;
	}
	if (outer) /* as deep or shallower: an earlier call whose return never came */
		drop_count(drops, NV_DROP_RETURN_MISSED, NV_DROP_MAX);
	pend.sp = sp;
	pend.call = (__u32)bpf_get_attach_cookie(ctx);
	pend.out = a1;
	pend.size = a2;
	pend.name = pend.call == NV_GET_KERNEL ? a3 : a2;
	if (pend.call == NV_CTX_CREATE || pend.call == NV_BUS_ID_OF) /* the device argument */
		pend.size = a3;
	else if (pend.call == NV_CTX_CREATE_V3)
		pend.size = PT_REGS_PARM5(ctx);
	else if (pend.call == NV_CTX_CREATE_V4)
		pend.size = a4;
	if (pend.call == NV_ALLOC_PITCH) {
		pend.pitch_out = a2;
		pend.size = a4; /* rows; the pitch is read at return */
	}
	if (capture_sync_stacks && pend.call == NV_SYNC) /* the caller: see stack_launched */
		sync_stack_take(ctx, &pend, id >> 32);
	pend.start_ns = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&calls, &id, &pend, BPF_ANY))
		drop_count(drops, NV_DROP_PENDING_FULL, NV_DROP_MAX);
	return 0;
}

/* --stacks: a sync of tgid ended, ns long: into its sum (the stack its entry took). */
static __always_inline void sync_stack_add(const struct nv_pending *c, __u32 tgid, __u64 ns)
{
	struct call_stack_key k = sync_key(c, tgid);
	struct call_stack_sum zero = {}, *s = lookup_or_init(&sync_stacks, &k, &zero);

	if (!s) {
		drop_count(drops, NV_DROP_SYNC_STACKS_FULL, NV_DROP_MAX);
		return;
	}
	__sync_fetch_and_add(&s->count, 1);
	__sync_fetch_and_add(&s->ns, ns);
}

static __always_inline void alloc_done(struct nv_proc *p, const struct nv_pending *c, __u64 id)
{
	struct nv_alloc_key k = { .tgid = id >> 32, .kind = c->call == NV_CREATE ? NV_CREATE : NV_ALLOC };
	struct nv_alloc a = { .dev = current_dev(id) };
	struct nv_proc_gpu *g;
	__u64 size = c->size, pitch = 0;

	if (bpf_probe_read_user(&k.addr, sizeof(k.addr), (void *)c->out)) {
		drop_count(drops, NV_DROP_RETURN_UNREAD, NV_DROP_MAX);
		return;
	}
	if (c->call == NV_ALLOC_PITCH) {
		if (bpf_probe_read_user(&pitch, sizeof(pitch), (void *)c->pitch_out)) {
			drop_count(drops, NV_DROP_RETURN_UNREAD, NV_DROP_MAX);
			return;
		}
		size *= pitch;
	}
	__sync_fetch_and_add(&p->allocs, 1);
	__sync_fetch_and_add(&p->alloc_bytes, size);
	g = gpu_of(id >> 32, a.dev);
	if (g) {
		__sync_fetch_and_add(&g->allocs, 1);
		__sync_fetch_and_add(&g->alloc_bytes, size);
	}
	a.size = size;
	if (bpf_map_update_elem(&allocs, &k, &a, BPF_ANY))
		drop_count(drops, NV_DROP_ALLOCS_FULL, NV_DROP_MAX);
}

static __always_inline void free_done(struct nv_proc *p, const struct nv_pending *c, __u32 tgid)
{
	struct nv_alloc_key k = { .addr = c->out, .tgid = tgid,
				  .kind = c->call == NV_RELEASE ? NV_CREATE : NV_ALLOC };
	struct nv_alloc *a = bpf_map_lookup_elem(&allocs, &k);
	struct nv_proc_gpu *g;

	if (!a) {
		__sync_fetch_and_add(&p->unknown_frees, 1);
		return;
	}
	__sync_fetch_and_add(&p->frees, 1);
	__sync_fetch_and_add(&p->freed_bytes, a->size);
	g = gpu_of(tgid, a->dev); /* the device it was allocated on, whichever is current now */
	if (g) {
		__sync_fetch_and_add(&g->frees, 1);
		__sync_fetch_and_add(&g->freed_bytes, a->size);
	}
	bpf_map_delete_elem(&allocs, &k);
}

/*
 * A handle made of a name (cuLibraryGetKernel, cuModuleGetFunction), or a
 * function of a kernel (cuKernelGetFunction, under the kernel's name): the
 * name kept under the handle the process will launch by.
 */
static __always_inline void kernel_named(const struct nv_pending *c, __u32 tgid)
{
	struct nv_kernel_key k = { .tgid = tgid }, of = { .handle = c->name, .tgid = tgid };
	const struct nv_kernel_name *name;
	struct nv_kernel_name *buf;
	__u32 zero = 0;

	if (bpf_probe_read_user(&k.handle, sizeof(k.handle), (void *)c->out)) {
		drop_count(drops, NV_DROP_RETURN_UNREAD, NV_DROP_MAX);
		return;
	}
	if (c->call == NV_KERNEL_FUNCTION) {
		name = bpf_map_lookup_elem(&kernel_names, &of);
		if (!name)
			return; /* a kernel named before we attached */
	} else {
		buf = bpf_map_lookup_elem(&name_scratch, &zero);
		if (!buf)
			return;
		long n = bpf_probe_read_user_str(buf->name, sizeof(buf->name), (void *)c->name);
		char past = 0;

		if (n <= 0) {
			drop_count(drops, NV_DROP_NAME_UNREAD, NV_DROP_MAX);
			return;
		}
		/* as long as the buffer: cut unless the byte the NUL took was the name's own end */
		buf->cut = n == sizeof(buf->name) &&
			   (bpf_probe_read_user(&past, 1, (void *)(c->name + sizeof(buf->name) - 1)) || past);
		name = buf;
	}
	if (bpf_map_update_elem(&kernel_names, &k, name, BPF_ANY))
		drop_count(drops, NV_DROP_NAMES_FULL, NV_DROP_MAX);
}

SEC("uretprobe")
int BPF_KRETPROBE(cuda_return, long ret)
{
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	struct nv_pending *c = bpf_map_lookup_elem(&calls, &id);
	struct nv_proc_gpu *g;
	struct nv_proc *p;

	if (!c)
		return 0; /* entered before we attached, or aged out */
	if (c->depth && PT_REGS_SP(ctx) <= c->sp) { /* a nested call's return: above it on the stack */
		c->depth--;
		return 0;
	}
	if (c->call >= NV_CTX_SET) { /* context calls: the process gets no row of its own for them */
		if (!(int)ret)
			ctx_done(c, id);
		goto out;
	}
	p = proc_of(id >> 32);
	if (!p)
		goto out;
	switch (c->call) {
	case NV_SYNC:
		__sync_fetch_and_add(&p->syncs, 1);
		__sync_fetch_and_add(&p->sync_ns, now - c->start_ns);
		hist_count(p->sync_hist, now - c->start_ns);
		g = gpu_of_call(id);
		if (g) {
			__sync_fetch_and_add(&g->syncs, 1);
			__sync_fetch_and_add(&g->sync_ns, now - c->start_ns);
		}
		capture(NV_REC_SYNC, id, c->start_ns, now, 0, NULL, 0);
		if (capture_sync_stacks)
			sync_stack_add(c, id >> 32, now - c->start_ns);
		break;
	case NV_ALLOC:
	case NV_ALLOC_PITCH:
	case NV_CREATE:
		if ((int)ret) /* CUresult: 0 is CUDA_SUCCESS */
			__sync_fetch_and_add(&p->failed_allocs, 1);
		else
			alloc_done(p, c, id);
		break;
	case NV_FREE:
	case NV_RELEASE:
		if (!(int)ret)
			free_done(p, c, id >> 32);
		break;
	case NV_GET_KERNEL:
	case NV_KERNEL_FUNCTION:
		if (!(int)ret)
			kernel_named(c, id >> 32);
		break;
	}
out:
	if (bpf_map_delete_elem(&calls, &id))
		drop_count(drops, NV_DROP_DELETE_FAILED, NV_DROP_MAX);
	return 0;
}

/* ---- ioctls on the NVIDIA character devices ---- */

/* 0: not ours; 1: an NVIDIA device; 2: nvidia-uvm. */
static __always_inline int fd_class(unsigned long fd)
{
	__u32 major = fd_char_rdev(fd) >> MINORBITS;

	if (!major)
		return 0;
	if (major == nv_majors[1])
		return 2;
	for (int i = 0; i < NV_MAJORS; i++)
		if (nv_majors[i] && major == nv_majors[i])
			return 1;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_ioctl")
int ioctl_enter(struct sys_enter_ioctl_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ioctl_start s = {};
	int cls;

	if (id >> 32 == self_tgid)
		return 0;
	cls = fd_class(ctx->fd);
	if (!cls)
		return 0;
	s.ns = bpf_ktime_get_ns();
	s.uvm = cls == 2;
	if (bpf_map_update_elem(&ioctls, &id, &s, BPF_ANY))
		drop_count(drops, NV_DROP_PENDING_FULL, NV_DROP_MAX);
	else
		__sync_fetch_and_add(&ioctls_open, 1);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_ioctl")
int ioctl_exit(struct sys_exit_args *ctx)
{
	__u64 id, ns;
	struct ioctl_start *s;
	struct nv_proc *p;

	if (!*(volatile __u64 *)&ioctls_open)
		return 0;
	id = bpf_get_current_pid_tgid();
	s = bpf_map_lookup_elem(&ioctls, &id);
	if (!s)
		return 0;
	ns = bpf_ktime_get_ns() - s->ns;
	p = proc_of(id >> 32);
	if (p) {
		__sync_fetch_and_add(&p->ioctls, 1);
		__sync_fetch_and_add(&p->ioctl_ns, ns);
		if (s->uvm)
			__sync_fetch_and_add(&p->uvm_ioctls, 1);
		if (ctx->ret < 0)
			__sync_fetch_and_add(&p->ioctl_errors, 1);
		hist_count(p->ioctl_hist, ns);
	}
	if (!bpf_map_delete_elem(&ioctls, &id))
		__sync_fetch_and_sub(&ioctls_open, 1);
	return 0;
}

/* ---- Xid errors ---- */

/* nvidia:nvidia_dev_xid (format file): __data_loc dev, error_code, __data_loc msg. */
struct xid_args {
	__u64 common;
	__u32 dev_loc;
	__u32 error_code;
	__u32 msg_loc;
};

SEC("tracepoint/nvidia/nvidia_dev_xid")
int nvidia_xid(struct xid_args *ctx)
{
	struct nv_xid *e = bpf_ringbuf_reserve(&xids, sizeof(*e), 0);

	if (!e) {
		drop_count(drops, NV_DROP_XID_LOST, NV_DROP_MAX);
		return 0;
	}
	e->ns = bpf_ktime_get_ns();
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->code = ctx->error_code;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_probe_read_kernel_str(e->dev, sizeof(e->dev), (char *)ctx + (ctx->dev_loc & 0xffff));
	bpf_probe_read_kernel_str(e->msg, sizeof(e->msg), (char *)ctx + (ctx->msg_loc & 0xffff));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/*
 * The GPU time join, in the launching thread inside the driver's launch call (the library's CUPTI
 * callback): the launch's correlation id, under which its stack key waits for the kernel's record.
 */
SEC("uprobe")
int BPF_KPROBE(join_launch, __u32 correlation)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct nv_join_key jk = { .tgid = id >> 32, .correlation = correlation };
	struct nv_launch_last *l = bpf_map_lookup_elem(&launch_last, &tid);
	struct nv_proc *p = bpf_map_lookup_elem(&procs, &jk.tgid);

	if (p && !p->joined)
		p->joined = 1; /* its next launches' capture records wait for their ids */
	if (!l) {
		if (capture_stacks) /* else a capture's, over: nothing to join */
			drop_count(drops, NV_DROP_JOIN_NO_STACK, NV_DROP_MAX);
		return 0;
	}
	if (l->join && bpf_map_update_elem(&join_pending, &jk, &l->key, BPF_ANY))
		drop_count(drops, NV_DROP_JOIN_PENDING_FULL, NV_DROP_MAX);
	if (l->capture)
		capture_waited(id, l, correlation);
	bpf_map_delete_elem(&launch_last, &tid);
	return 0;
}

/* One kernel record of process tgid: its GPU time onto its launch's stack key. */
static __always_inline void join_kernel(__u32 tgid, const struct gputop_cupti_record *r)
{
	struct nv_join_key jk = { .tgid = tgid, .correlation = r->correlation_id };
	struct nv_stack_key *k = bpf_map_lookup_elem(&join_pending, &jk);
	struct nv_stack_gpu zero = {}, *g;

	if (!k) {
		drop_count(drops, NV_DROP_JOIN_UNMATCHED, NV_DROP_MAX);
		return;
	}
	g = lookup_or_init(&stack_gpu, k, &zero);
	bpf_map_delete_elem(&join_pending, &jk);
	if (!g) {
		drop_count(drops, NV_DROP_JOIN_SUMS_FULL, NV_DROP_MAX);
		return;
	}
	__sync_fetch_and_add(&g->kernels, 1);
	__sync_fetch_and_add(&g->gpu_ns, r->end > r->start ? r->end - r->start : 0);
	if (r->queued && r->start >= r->queued) {
		__sync_fetch_and_add(&g->queued, 1);
		__sync_fetch_and_add(&g->queue_ns, r->start - r->queued);
	}
}

/* The GPU time join: the library's records (core/cupti_abi.h), its kernels joined. */
SEC("uprobe")
int BPF_KPROBE(join_records, const struct gputop_cupti_batch *b, const struct gputop_cupti_record *recs)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, count;
	struct gputop_cupti_record r;

	if (!capture_stacks) /* attached for a capture's flows alone: nothing to join */
		return 0;
	if (bpf_probe_read_user(&count, sizeof(count), &b->count)) {
		drop_count(drops, NV_DROP_JOIN_READ, NV_DROP_MAX);
		return 0;
	}
	for (__u32 i = 0; i < GPUTOP_CUPTI_CHUNK && i < count; i++) {
		if (bpf_probe_read_user(&r, sizeof(r), &recs[i])) {
			drop_count(drops, NV_DROP_JOIN_READ, NV_DROP_MAX);
			continue;
		}
		if (r.kind == GPUTOP_CUPTI_KERNEL)
			join_kernel(tgid, &r);
	}
	return 0;
}
