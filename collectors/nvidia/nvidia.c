// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * NVIDIA collector: per process the CUDA driver API calls (kernel and graph
 * launches, device memory allocated and freed, time blocked in
 * synchronisation) from uprobes on libcuda, and the ioctls on /dev/nvidia*;
 * a log of the driver's Xid errors; per GPU, NVML's memory, utilisation,
 * temperature and power, and the MIG devices of a GPU in MIG mode. Each part
 * works without the others (a CUDA library without the driver, the driver
 * without CUDA). Tables: nvidia_tables.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "core/array.h"
#include "collectors/collector.h"
#include "collectors/kit/call_stacks.h"
#include "collectors/kit/char_devices.h"
#include "collectors/kit/map_delta.h"
#include "collectors/kit/map_walk.h"
#include "collectors/kit/span_frames.h"
#include "collectors/kit/pid_list.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/test_hooks.h"
#include "collectors/kit/tp_progs.h"
#include "collectors/nvidia/cuda_libs.h"
#include "collectors/nvidia/nvidia_driver.h"
#include "collectors/nvidia/nvidia_tables.h"
#include "collectors/nvidia/proc_gpus.h"
#include "collectors/nvidia/launch_join.h"
#include "collectors/nvidia/launch_stacks.h"
#include "collectors/kit/stack_table.h"
#include "collectors/nvidia/nv_capture.h"
#include "collectors/nvidia/nv_kernels.h"
#include "collectors/nvidia/nvml.h"
#include "collectors/kit/tracefs.h"
#include "core/clock.h"
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "nvidia.skel.h"
#include "collectors/kit/link_reaper.h"

#define RESCAN_NS 10000000000ULL /* processes' maps are searched for new libcuda files this often */
#define XID_KEEP 64 /* Xid events kept for the log */
#define MAX_GPU_PROCS 256 /* NVML processes listed per GPU at most */
#define MAX_MIGS 64 /* MIG devices listed per GPU at most */

/* The CUDA driver API entry points probed, and what each is. */
static const struct cuda_fn {
	const char *name;
	enum nv_call call;
} cuda_fns[] = {
	{ "cuLaunchKernel", NV_LAUNCH },
	{ "cuLaunchKernel_ptsz", NV_LAUNCH },
	{ "cuLaunchKernelEx", NV_LAUNCH_EX },
	{ "cuLaunchKernelEx_ptsz", NV_LAUNCH_EX },
	{ "cuLaunchCooperativeKernel", NV_LAUNCH },
	{ "cuLaunchCooperativeKernel_ptsz", NV_LAUNCH },
	{ "cuGraphLaunch", NV_GRAPH_LAUNCH },
	{ "cuGraphLaunch_ptsz", NV_GRAPH_LAUNCH },
	{ "cuCtxSynchronize", NV_SYNC },
	{ "cuCtxSynchronize_v2", NV_SYNC },
	{ "cuStreamSynchronize", NV_SYNC },
	{ "cuStreamSynchronize_ptsz", NV_SYNC },
	{ "cuEventSynchronize", NV_SYNC },
	{ "cuMemAlloc_v2", NV_ALLOC },
	{ "cuMemAllocManaged", NV_ALLOC },
	{ "cuMemAllocAsync", NV_ALLOC },
	{ "cuMemAllocAsync_ptsz", NV_ALLOC },
	{ "cuMemAllocFromPoolAsync", NV_ALLOC },
	{ "cuMemAllocFromPoolAsync_ptsz", NV_ALLOC },
	{ "cuMemAllocPitch_v2", NV_ALLOC_PITCH },
	{ "cuMemCreate", NV_CREATE },
	{ "cuMemFree_v2", NV_FREE },
	{ "cuMemFreeAsync", NV_FREE },
	{ "cuMemFreeAsync_ptsz", NV_FREE },
	{ "cuMemRelease", NV_RELEASE },
	/* kernel names: PyTorch (CUDA 13) calls cuLibraryGetKernel, then cuKernelGetFunction for some */
	{ "cuLibraryGetKernel", NV_GET_KERNEL },
	{ "cuModuleGetFunction", NV_GET_KERNEL },
	{ "cuKernelGetFunction", NV_KERNEL_FUNCTION },
	/* which device a call goes to: the thread's current context, the context's device */
	{ "cuCtxSetCurrent", NV_CTX_SET },
	{ "cuCtxPushCurrent", NV_CTX_PUSH },
	{ "cuCtxPushCurrent_v2", NV_CTX_PUSH },
	{ "cuCtxPopCurrent", NV_CTX_POP },
	{ "cuCtxPopCurrent_v2", NV_CTX_POP },
	{ "cuCtxDestroy", NV_CTX_DESTROY },
	{ "cuCtxDestroy_v2", NV_CTX_DESTROY },
	{ "cuDevicePrimaryCtxRetain", NV_CTX_RETAIN },
	{ "cuCtxCreate", NV_CTX_CREATE },
	{ "cuCtxCreate_v2", NV_CTX_CREATE },
	{ "cuCtxCreate_v3", NV_CTX_CREATE_V3 },
	{ "cuCtxCreate_v4", NV_CTX_CREATE_V4 },
	{ "cuCtxGetDevice", NV_CTX_GET_DEVICE },
	{ "cuDeviceGetPCIBusId", NV_BUS_ID_OF },
};
#define NFNS (sizeof(cuda_fns) / sizeof(cuda_fns[0]))
_Static_assert(NFNS <= CUDA_LIB_FUNCS_MAX, "cuda_lib_offsets reads at most CUDA_LIB_FUNCS_MAX functions");

static const char *const drop_names[NV_DROP_MAX] = {
	[NV_DROP_PROCS_FULL] = "process_table_full",
	[NV_DROP_ALLOCS_FULL] = "allocation_table_full",
	[NV_DROP_PENDING_FULL] = "pending_call_table_full",
	[NV_DROP_NESTED] = "nested_calls_not_counted",
	[NV_DROP_RETURN_UNREAD] = "allocation_result_unread",
	[NV_DROP_XID_LOST] = "xid_log_full",
	[NV_DROP_RETURN_MISSED] = "call_return_missed",
	[NV_DROP_DELETE_FAILED] = "pending_delete_failed",
	[NV_DROP_NAMES_FULL] = "kernel_name_table_full",
	[NV_DROP_KERNELS_FULL] = "kernel_table_full",
	[NV_DROP_NAME_UNREAD] = "kernel_name_unread",
	[NV_DROP_STACK_LOST] = "launch_stack_lost",
	[NV_DROP_STACKS_FULL] = "launch_stack_table_full",
	[NV_DROP_SAMPLE_LOST] = "launch_stack_copy_lost",
	[NV_DROP_PROC_GPUS_FULL] = "process_gpu_table_full",
	[NV_DROP_CTXS_FULL] = "context_table_full",
	[NV_DROP_THREADS_FULL] = "thread_context_table_full",
	[NV_DROP_CTX_STACK_DEEP] = "context_stack_too_deep",
	[NV_DROP_BUS_IDS_FULL] = "bus_id_table_full",
	[NV_DROP_CAPTURE_FULL] = "capture_ring_buffer_full",
	[NV_DROP_SYNC_STACKS_FULL] = "sync_stack_table_full",
	[NV_DROP_SYNC_COPY_LOST] = "sync_stack_copy_lost",
	[NV_DROP_JOIN_NO_STACK] = "gpu_time_launch_without_stack",
	[NV_DROP_JOIN_PENDING_FULL] = "gpu_time_launch_table_full",
	[NV_DROP_JOIN_UNMATCHED] = "gpu_time_kernel_without_stack",
	[NV_DROP_JOIN_SUMS_FULL] = "gpu_time_stack_table_full",
	[NV_DROP_JOIN_READ] = "gpu_time_records_unreadable",
};

/* Tracepoint programs (ioctl enter/exit, Xid), then one pseudo-entry per uprobe program for the cost table. */
enum { TP_IOCTL_ENTER, TP_IOCTL_EXIT, TP_XID, TP_LAUNCH, TP_ENTER, TP_RETURN, NTPS };
#define NTRACEPOINTS TP_LAUNCH


struct xid_entry {
	uint64_t seq;
	char time[24];
	char users[128]; /* processes active on NVIDIA devices in the interval it came in */
	struct nv_xid e;
};

struct nvidia_priv {
	struct nvidia_bpf *skel;
	struct tp_prog tps[NTPS];
	struct cuda_libs libs;
	struct bpf_link **ulinks;
	size_t nulinks, ulinks_cap;
	unsigned int fn_attached[NFNS]; /* libraries each function is attached in */
	int alias_of[NFNS]; /* another name of cuda_fns[alias_of - 1] in the last library, or 0 */
	char lib_note[160]; /* what the libcuda search found, or why nothing */
	bool uprobes; /* some libcuda to probe */
	unsigned int unread_libs; /* libcuda files whose symbols the symbolizing child could not read */
	__u32 majors[NV_MAJORS];
	uint64_t next_scan_ns, next_sweep_ns;
	struct nvml *nvml;
	char nvml_why[160];
	struct map_delta procs;
	struct proc_cache pcache;
	struct nv_kernels kernels;
	struct proc_gpus proc_gpus; /* nvidia.process_gpus */
	struct nv_gpu_list nvml_gpus; /* NVML's bus ids, this tick's */
	struct launch_stacks stacks; /* --stacks */
	struct launch_join join; /* their kernels' GPU time, from the CUPTI companion library */
	size_t join_files, join_failed; /* library files the join is attached to, and not, as last said */
	struct stack_rows stack_rows; /* nvidia.stacks, while it is filled */
	struct call_stacks sync_stacks; /* --stacks-weight syncs, sync-time */
	__u32 *gone; /* processes that exited this tick: their allocations are forgotten */
	size_t ngone, gone_cap;
	struct table *t; /* nvidia.processes while it is filled */
	double iv;
	struct ring_buffer *xid_ring;
	struct xid_entry xids[XID_KEEP];
	uint64_t nxids; /* since start */
	int64_t mono_to_real_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC, for the Xid times */
	char active[128]; /* "comm[pid] ..." of the processes active in the last interval */
	struct nv_driver *drv; /* probes on nvidia.ko functions */
	uint64_t never_returned; /* calls and ioctls of threads that exited inside them */
	struct nv_capture capture; /* --trace: launches and syncs, while a capture runs */
	struct span_stacks span_stacks; /* --trace with --stacks: the launches' frames */
};

/* A launch's frames for the trace (span_stacks): within the capture's drain, after the tick's stacks. */
static size_t span_frames(const struct span_stacks *ss, const struct stack_ref *r,
			  struct span_frame *out, size_t max)
{
	static struct frame frames[LAUNCH_STACK_FRAMES_MAX];
	struct nvidia_priv *p =
		(struct nvidia_priv *)((char *)ss - offsetof(struct nvidia_priv, span_stacks));
	size_t n = launch_stacks_frames(&p->stacks, bpf_map__fd(p->skel->maps.stacks), r, frames,
					LAUNCH_STACK_FRAMES_MAX);

	return span_frames_of(frames, n, out, max);
}

/* Majors of NVIDIA's character devices: [0] nvidia, [1] nvidia-uvm. */
static void find_majors(__u32 *majors)
{
	struct char_major all[256];
	size_t n = char_majors(all, sizeof(all) / sizeof(all[0]));
	const char *test = test_hook("IOCTL_MAJOR"); /* count the ioctls on this major as NVIDIA's */

	memset(majors, 0, NV_MAJORS * sizeof(*majors));
	if (test) {
		majors[0] = (__u32)strtoul(test, NULL, 10);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(all[i].name, "nvidia") || !strcmp(all[i].name, "nvidiactl"))
			majors[0] = all[i].major;
		else if (!strcmp(all[i].name, "nvidia-uvm"))
			majors[1] = all[i].major;
	}
}

static void find_libs(struct collector *c, struct nvidia_priv *p)
{
	const char *given = c->config->libcuda;
	char why[160];
	int n;

	if (given) {
		if (cuda_libs_add(&p->libs, given, "--libcuda", why, sizeof(why)) < 0) {
			collector_set_state(c, COLLECTOR_FAILED, why,
					    "give --libcuda the path of libcuda.so.1 (ldconfig -p | grep libcuda)");
			return;
		}
		snprintf(p->lib_note, sizeof(p->lib_note), "uprobes on %.120s (--libcuda)", given);
	} else {
		n = cuda_libs_from_ldcache(&p->libs);
		n += cuda_libs_from_maps(&p->libs);
		if (p->libs.n)
			snprintf(p->lib_note, sizeof(p->lib_note), "uprobes on %.100s (%s)%s", p->libs.v[0].found,
				 p->libs.v[0].how, p->libs.n > 1 ? " and more" : "");
		else
			snprintf(p->lib_note, sizeof(p->lib_note),
				 "no libcuda.so.1 in the loader cache or in any process (--libcuda PATH names one)");
		(void)n;
	}
	p->uprobes = p->libs.n > 0;
}

static void nvidia_probe(struct collector *c)
{
	struct nvidia_priv *p = calloc(1, sizeof(*p));
	bool xid, ioctl_tps;

	if (!p) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return;
	}
	c->priv = p;
	find_libs(c, p);
	if (c->status.info->state == COLLECTOR_FAILED)
		return;
	find_majors(p->majors);
	xid = tracepoint_exists("nvidia", "nvidia_dev_xid");
	ioctl_tps = tracepoint_exists("syscalls", "sys_enter_ioctl") &&
		    tracepoint_exists("syscalls", "sys_exit_ioctl");
	p->nvml = nvml_open(p->nvml_why, sizeof(p->nvml_why));

	for (size_t i = 0; i < NFNS; i++)
		collector_add_tracepoint(c, "libcuda", cuda_fns[i].name,
					 p->uprobes ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
					 p->uprobes ? "" : p->lib_note);
	for (const char *const *e = (const char *const[]){ "sys_enter_ioctl", "sys_exit_ioctl", NULL }; *e; e++)
		collector_add_tracepoint(c, "syscalls", *e,
					 ioctl_tps ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
					 !ioctl_tps ? "no syscall tracepoints (CONFIG_FTRACE_SYSCALLS off)" :
					 p->majors[0] ? "" : "not used: no nvidia device in /proc/devices");
	collector_add_tracepoint(c, "nvidia", "nvidia_dev_xid",
				 xid ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
				 xid ? "" : access("/sys/module/nvidia", F_OK) ?
				 "the nvidia module is not loaded" :
				 "the nvidia module has no Xid tracepoint (driver older than 575.51.02)");
	collector_add_tracepoint(c, "nvml", "libnvidia-ml.so.1",
				 p->nvml ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
				 p->nvml ? "started once the ioctl programs are attached" : p->nvml_why);
	if (!p->uprobes && !p->majors[0] && !xid && !p->nvml)
		collector_set_state(c, COLLECTOR_UNAVAILABLE,
				    "no NVIDIA driver (no /dev/nvidia* in /proc/devices, no Xid tracepoint, no NVML) and no CUDA library",
				    "load the nvidia module, or name the CUDA driver library with --libcuda PATH");
}

static int nvidia_open(struct collector *c)
{
	struct nvidia_priv *p = c->priv;
	bool xid = tracepoint_exists("nvidia", "nvidia_dev_xid");
	bool ioctls = p->majors[0] && tracepoint_exists("syscalls", "sys_enter_ioctl") &&
		      tracepoint_exists("syscalls", "sys_exit_ioctl");
	int err;

	const struct tp_spec specs[] = {
		{ .group = "syscalls", .event = ioctls ? "sys_enter_ioctl" : NULL, .prog = "ioctl_enter" },
		{ .group = "syscalls", .event = ioctls ? "sys_exit_ioctl" : NULL, .prog = "ioctl_exit" },
		{ .group = "nvidia", .event = "nvidia_dev_xid", .prog = "nvidia_xid" },
	};

	p->skel = nvidia_bpf__open();
	if (!p->skel || map_delta_init(&p->procs, sizeof(__u32), sizeof(struct nv_proc), 0) ||
	    nv_kernels_init(&p->kernels) || proc_gpus_init(&p->proc_gpus)) {
		collector_set_state(c, COLLECTOR_FAILED, "cannot open the BPF object", NULL);
		return -1;
	}
	memcpy((void *)p->skel->rodata->nv_majors, p->majors, sizeof(p->majors));
	p->skel->rodata->self_tgid = (__u32)getpid();
	launch_stacks_open(&p->stacks, c->config ? c->config->stacks : NULL);
	call_stacks_init(&p->sync_stacks, c->config ? c->config->stacks : NULL, STACK_SOURCE_SYNCS);
	p->skel->rodata->capture_sync_stacks = p->sync_stacks.sf != NULL;
	if (!p->sync_stacks.sf) /* off: no room kept */
		bpf_map__set_max_entries(p->skel->maps.sync_stacks, 1);
	else if (bpf_map__set_max_entries(p->skel->maps.sync_samples, USER_STACK_SAMPLE_RING))
		collector_set_tracepoint(c, "libcuda", "sync stacks", TRACEPOINT_FAILED,
					 "cannot size the stack copies' ring buffer");
	if (p->stacks.sf) {
		if (bpf_map__set_max_entries(p->skel->maps.samples, USER_STACK_SAMPLE_RING))
			collector_set_tracepoint(c, "libcuda", "launch stacks", TRACEPOINT_FAILED,
						 "cannot size the stack copies' ring buffer");
		else
			p->skel->bss->copy_stacks = 1;
		p->skel->bss->capture_stacks = 1;
	}
	if (tp_progs_open(p->tps, specs, NTRACEPOINTS, p->skel->obj, NULL)) {
		collector_load_failed(c, -ENOENT);
		return -1;
	}
	/* the uprobe programs: in the cost table, attached by attach_lib */
	p->tps[TP_LAUNCH] = (struct tp_prog){ .group = "libcuda", .event = "launch uprobes",
					      .prog = p->skel->progs.cuda_launch };
	p->tps[TP_ENTER] = (struct tp_prog){ .group = "libcuda", .event = "call uprobes",
					     .prog = p->skel->progs.cuda_enter };
	p->tps[TP_RETURN] = (struct tp_prog){ .group = "libcuda", .event = "call uretprobes",
					      .prog = p->skel->progs.cuda_return };
	if (!xid)
		bpf_map__set_max_entries(p->skel->maps.xids, 4096); /* unused: the smallest page-sized ring */
	capture_rb_size(p->skel->maps.capture_rb, c->config && c->config->job_sink);
	err = nvidia_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	p->span_stacks.frames = span_frames;
	launch_join_init(&p->join, p->skel);
	p->stacks.gpu_fd = bpf_map__fd(p->skel->maps.stack_gpu);
	/* --stacks: taken from the start, or once started live; set before its reader starts */
	nv_capture_open(&p->capture, c->config ? c->config->job_sink : NULL, bpf_map__fd(p->skel->maps.capture_rb),
			&p->skel->bss->capture_on, &p->skel->bss->drops[NV_DROP_CAPTURE_FULL],
			bpf_map__fd(p->skel->maps.kernel_names),
			c->config && c->config->stacks ? &p->span_stacks : NULL);
	return 0;
}

static int on_xid(void *ctx, void *data, size_t size)
{
	struct nvidia_priv *p = ctx;
	struct xid_entry *x;
	struct tm tm;
	time_t t;

	if (size < sizeof(struct nv_xid))
		return 0;
	x = &p->xids[p->nxids % XID_KEEP];
	memcpy(&x->e, data, sizeof(x->e));
	x->e.comm[sizeof(x->e.comm) - 1] = x->e.dev[NV_XID_DEV - 1] = x->e.msg[NV_XID_MSG - 1] = '\0';
	x->seq = ++p->nxids;
	snprintf(x->users, sizeof(x->users), "%s", p->active);
	t = (time_t)(((int64_t)x->e.ns + p->mono_to_real_ns) / 1000000000LL);
	if (localtime_r(&t, &tm))
		strftime(x->time, sizeof(x->time), "%Y-%m-%d %H:%M:%S", &tm);
	else
		snprintf(x->time, sizeof(x->time), "?");
	return 0;
}

/* Uprobes (and uretprobes) on every function of cuda_fns that lib defines; an alias once. */
static void attach_lib(struct nvidia_priv *p, struct cuda_lib *lib)
{
	const char *names[NFNS];
	size_t off[NFNS];

	lib->attached = true;
	for (size_t i = 0; i < NFNS; i++)
		names[i] = cuda_fns[i].name;
	if (cuda_lib_offsets(lib->path, names, NFNS, off)) {
		p->unread_libs++;
		return;
	}
	for (size_t i = 0; i < NFNS; i++) {
		const struct cuda_fn *fn = &cuda_fns[i];
		bool timed = fn->call > NV_GRAPH_LAUNCH, alias = false;
		LIBBPF_OPTS(bpf_uprobe_opts, o, .bpf_cookie = fn->call);
		struct bpf_link *in, *out = NULL, **slot;

		for (size_t k = 0; k < i && off[i]; k++)
			if (off[k] == off[i]) {
				alias = true;
				p->alias_of[i] = (int)k + 1;
				p->fn_attached[i]++;
				break;
			}
		if (!off[i] || alias) /* not in this version; or another name of one probed */
			continue;
		/* the return first: a call whose entry is seen always has its return seen */
		if (timed) {
			o.retprobe = true;
			out = bpf_program__attach_uprobe_opts(p->skel->progs.cuda_return, -1,
							      lib->path, off[i], &o);
			if (!out)
				continue;
			o.retprobe = false;
		}
		in = bpf_program__attach_uprobe_opts(timed ? p->skel->progs.cuda_enter :
							     p->skel->progs.cuda_launch,
						     -1, lib->path, off[i], &o);
		if (!in) {
			bpf_link__destroy(out);
			continue;
		}
		slot = array_push(&p->ulinks, &p->nulinks, &p->ulinks_cap, sizeof(*slot));
		if (slot)
			*slot = in;
		else
			bpf_link__destroy(in);
		slot = out ? array_push(&p->ulinks, &p->nulinks, &p->ulinks_cap, sizeof(*slot)) : NULL;
		if (slot)
			*slot = out;
		else if (out)
			bpf_link__destroy(out);
		p->fn_attached[i]++;
	}
}

static void attach_new_libs(struct nvidia_priv *p)
{
	for (size_t i = 0; i < p->libs.n; i++)
		if (!p->libs.v[i].attached)
			attach_lib(p, &p->libs.v[i]);
	p->tps[TP_LAUNCH].link = p->tps[TP_ENTER].link = p->tps[TP_RETURN].link =
		p->nulinks ? p->ulinks[0] : NULL; /* for the cost table only: ulinks own them */
}

static void set_detail(struct collector *c, struct nvidia_priv *p)
{
	size_t fns = 0;
	char libs[48];

	for (size_t i = 0; i < NFNS; i++)
		fns += p->fn_attached[i] > 0;
	if (p->libs.n == 1)
		snprintf(libs, sizeof(libs), "libcuda from %s", p->libs.v[0].how);
	else
		snprintf(libs, sizeof(libs), "%zu libcuda files", p->libs.n);
	snprintf(c->status.detail, sizeof(c->status.detail), "%.32s, %zu of %zu functions%s%s%s%s%.6s",
		 libs, fns, NFNS, p->tps[TP_IOCTL_ENTER].link ? ", ioctls" : "",
		 p->tps[TP_XID].link ? ", Xid" : "", p->nvml ? ", NVML" : "",
		 nv_driver_via(p->drv) ? ", driver by " : "",
		 nv_driver_via(p->drv) ? nv_driver_via(p->drv) : "");
}

/*
 * NVML's first calls are ioctls on /dev/nvidia*: made after the ioctl programs
 * are attached, they are counted here as the calls collector (attached before)
 * counts them, and the monitor's own totals agree in both.
 */
static void start_nvml(struct collector *c, struct nvidia_priv *p)
{
	if (!p->nvml)
		return;
	if (!nvml_start(p->nvml, p->nvml_why, sizeof(p->nvml_why))) {
		nvml_close(p->nvml);
		p->nvml = NULL;
		collector_set_tracepoint(c, "nvml", "libnvidia-ml.so.1", TRACEPOINT_FAILED, p->nvml_why);
		return;
	}
	collector_set_tracepoint(c, "nvml", "libnvidia-ml.so.1", TRACEPOINT_ATTACHED,
				 "per GPU memory, utilisation, temperature, power; MIG devices");
}

static int nvidia_attach(struct collector *c)
{
	struct nvidia_priv *p = c->priv;
	size_t n;

	p->mono_to_real_ns = (int64_t)(clock_ns(CLOCK_REALTIME) - mono_ns());
	n = tp_progs_attach(c, p->tps, NTRACEPOINTS);
	if (p->tps[TP_XID].link) {
		p->xid_ring = ring_buffer__new(bpf_map__fd(p->skel->maps.xids), on_xid, p, NULL);
		if (!p->xid_ring)
			collector_set_tracepoint(c, "nvidia", "nvidia_dev_xid", TRACEPOINT_FAILED,
						 "cannot read its ring buffer");
	}
	if (p->skel->bss->copy_stacks &&
	    launch_stacks_attach(&p->stacks, bpf_map__fd(p->skel->maps.samples)))
		collector_set_tracepoint(c, "libcuda", "launch stacks", TRACEPOINT_FAILED,
					 "cannot read the stack copies' ring buffer: frame pointers only");
	if (call_stacks_attach(&p->sync_stacks, bpf_map__fd(p->skel->maps.sync_samples)))
		collector_set_tracepoint(c, "libcuda", "sync stacks", TRACEPOINT_FAILED,
					 "cannot read the stack copies' ring buffer: frame pointers only");
	start_nvml(c, p);
	attach_new_libs(p);
	for (size_t i = 0; i < NFNS; i++) {
		char note[128];

		if (!p->uprobes)
			continue;
		if (p->alias_of[i])
			snprintf(note, sizeof(note), "another name of %s: probed once",
				 cuda_fns[p->alias_of[i] - 1].name);
		else if (p->fn_attached[i])
			snprintf(note, sizeof(note), "uprobe%s in %u file%s",
				 cuda_fns[i].call <= NV_GRAPH_LAUNCH ? "" : " + uretprobe",
				 p->fn_attached[i], p->fn_attached[i] == 1 ? "" : "s");
		else if (p->unread_libs)
			snprintf(note, sizeof(note), "not found: the symbols of %u libcuda file%s could not be read",
				 p->unread_libs, p->unread_libs == 1 ? "" : "s");
		else
			snprintf(note, sizeof(note), "not exported by the libcuda found");
		collector_set_tracepoint(c, "libcuda", cuda_fns[i].name,
					 p->fn_attached[i] ? TRACEPOINT_ATTACHED : TRACEPOINT_MISSING,
					 note);
	}
	p->next_scan_ns = mono_ns() + RESCAN_NS;
	p->drv = nv_driver_start(c);
	if (!n && !p->nulinks && !p->nvml && p->uprobes) {
		collector_set_state(c, COLLECTOR_FAILED,
				    p->unread_libs ?
					    "libcuda's symbols could not be read (the symbolizing child ended)" :
				    p->uprobes ? "no uprobe could be attached to libcuda" :
						 "nothing could be attached",
				    p->unread_libs ? "see the line on the symbolizing child at the end" :
						     "run with -v to see libbpf's messages");
		return -1;
	}
	set_detail(c, p);
	return 0;
}

/* A process that exited, noted before any table is read: its entries are shown once more, then deleted. */
static bool note_gone(const void *key, void *value, void *arg)
{
	struct nvidia_priv *p = arg;
	__u32 pid = *(const __u32 *)key;
	const struct proc_entry *pe = proc_cache_get_cgroup(&p->pcache, pid);

	(void)value;
	if (pe && pe->gone && array_push(&p->gone, &p->ngone, &p->gone_cap, sizeof(*p->gone)))
		p->gone[p->ngone - 1] = pid;
	return false;
}

static bool proc_row(const void *key, const void *now, const void *before, void *state, void *arg)
{
	struct nvidia_priv *p = arg;
	__u32 pid = *(const __u32 *)key;
	const struct proc_entry *pe = proc_cache_get_cgroup(&p->pcache, pid);
	struct cell *row = p->t ? table_row_add(p->t) : NULL;
	size_t len = strlen(p->active);
	char kept[17];
	const char *name = proc_name_or_kept(pe ? pe->comm : NULL, ((const struct nv_proc *)now)->comm, kept);
	struct nv_proc n, b;

	(void)state;
	memcpy(&n, now, sizeof(n));
	memcpy(&b, before, sizeof(b));
	nv_kernels_launches(&p->kernels, pid, NV_KERNELS_ALL_DEVS, &n.launches, &b.launches);
	if (row)
		nvidia_proc_row(row, pid, name, pe ? pe->cgroup : "", &n, &b, p->iv);
	if (memcmp(before, now, offsetof(struct nv_proc, sync_hist)) && pid != (__u32)getpid())
		snprintf(p->active + len, sizeof(p->active) - len, "%s%s[%u]", len ? " " : "", name, pid);
	return pid_listed(p->gone, p->ngone, pid); /* shown once more, then forgotten */
}

/* An allocation of a process that exited: it can no longer be freed. */
static bool alloc_of_gone(const void *key, void *value, void *arg)
{
	const struct nv_alloc_key *k = key;
	struct nvidia_priv *p = arg;

	(void)value;
	return pid_listed(p->gone, p->ngone, k->tgid);
}

static struct proc_gpus_maps gpu_maps(const struct nvidia_priv *p)
{
	return (struct proc_gpus_maps){ .counters = bpf_map__fd(p->skel->maps.proc_gpus),
					.bus_ids = bpf_map__fd(p->skel->maps.bus_ids),
					.ctx_devs = bpf_map__fd(p->skel->maps.ctx_devs),
					.procs = bpf_map__fd(p->skel->maps.procs) };
}

static void read_procs(struct nvidia_priv *p, struct model *m)
{
	struct proc_gpus_maps maps = gpu_maps(p);

	p->t = model_table(m, &nvidia_processes);
	p->iv = model_interval_s(m);
	p->active[0] = '\0';
	p->ngone = 0;
	map_walk(bpf_map__fd(p->skel->maps.procs), sizeof(__u32), 0, note_gone, p);
	/* first: its sums are the launches of the two tables after it */
	nv_kernels_read(&p->kernels, bpf_map__fd(p->skel->maps.kernel_launches),
			bpf_map__fd(p->skel->maps.kernel_names), &p->pcache, p->gone, p->ngone, m);
	map_delta_read(&p->procs, bpf_map__fd(p->skel->maps.procs), proc_row, p);
	proc_gpus_read(&p->proc_gpus, &maps, &p->nvml_gpus, &p->pcache, p->gone, p->ngone, &p->kernels, m);
	proc_cache_tick(&p->pcache);
	if (p->ngone)
		map_walk(bpf_map__fd(p->skel->maps.allocs), sizeof(struct nv_alloc_key), 0,
			 alloc_of_gone, p);
}

static void read_xids(struct nvidia_priv *p, struct model *m)
{
	struct table *t = model_table(m, &nvidia_xids);
	uint64_t first = p->nxids > XID_KEEP ? p->nxids - XID_KEEP : 0;

	if (p->xid_ring)
		ring_buffer__consume(p->xid_ring);
	for (uint64_t s = first; t && s < p->nxids; s++) {
		const struct xid_entry *x = &p->xids[s % XID_KEEP];
		struct cell *row = table_row_add(t);

		if (!row)
			break;
		cell_set_u64(row, NVX_SEQ, x->seq);
		cell_set_str(row, NVX_TIME, x->time);
		cell_set_str(row, NVX_DEV, x->e.dev);
		cell_set_u64(row, NVX_CODE, x->e.code);
		cell_set_str(row, NVX_MSG, x->e.msg);
		cell_set_u64(row, NVX_PID, x->e.pid);
		cell_set_str(row, NVX_COMM, x->e.comm);
		if (x->users[0])
			cell_set_str(row, NVX_USERS, x->users);
	}
}

static void gpu_optional(struct cell *row, const struct nvml_gpu *g)
{
	static const unsigned int clock_col[] = { [NVML_GFX] = NVG_GFX_MHZ, [NVML_SM] = NVG_SM_MHZ,
						  [NVML_MEM] = NVG_MEM_MHZ };
	char reasons[160];

	if (g->cap_known)
		cell_set_f64(row, NVG_POWER_CAP, g->cap_w);
	for (int k = 0; k < 3; k++)
		if (g->clock_known[k])
			cell_set_f64(row, clock_col[k], g->clock_mhz[k]);
	if (g->fan_known)
		cell_set_f64(row, NVG_FAN, g->fan_pct);
	if (g->throttle_known) {
		nvml_throttle_names(g->throttle, reasons, sizeof(reasons));
		cell_set_str(row, NVG_THROTTLE, reasons);
	}
	if (g->pcie_known) {
		cell_set_f64(row, NVG_PCIE_TX, (double)g->pcie_tx);
		cell_set_f64(row, NVG_PCIE_RX, (double)g->pcie_rx);
	}
	if (g->nvlink_known) {
		cell_set_f64(row, NVG_NVLINK_TX, g->nvlink_tx);
		cell_set_f64(row, NVG_NVLINK_RX, g->nvlink_rx);
	}
	if (g->minor_known)
		cell_set_u64(row, NVG_MINOR, g->minor);
	if (nvml_mig_mode_name(g->mig))
		cell_set_str(row, NVG_MIG, nvml_mig_mode_name(g->mig));
}

/* The MIG devices of GPU i (in MIG mode), each a row of nvidia.mig. */
static void gpu_migs(struct nvidia_priv *p, struct table *t, unsigned int i, const char *bus_id)
{
	struct nvml_mig migs[MAX_MIGS];
	size_t n = t ? nvml_migs(p->nvml, i, migs, MAX_MIGS) : 0;

	for (size_t k = 0; k < n; k++) {
		const struct nvml_mig *g = &migs[k];
		struct cell *row = table_row_add(t);

		if (!row)
			return;
		cell_set_u64(row, NVM_GPU, i);
		cell_set_u64(row, NVM_INDEX, g->index);
		if (g->gi_known)
			cell_set_u64(row, NVM_GI, g->gpu_instance);
		if (g->ci_known)
			cell_set_u64(row, NVM_CI, g->compute_instance);
		if (g->sm_known)
			cell_set_u64(row, NVM_SMS, g->sm_count);
		if (g->used_known)
			cell_set_u64(row, NVM_MEM_USED, g->mem_used);
		if (g->total_known)
			cell_set_u64(row, NVM_MEM_TOTAL, g->mem_total);
		if (bus_id[0])
			cell_set_str(row, NVM_BUS, bus_id);
		if (g->uuid[0])
			cell_set_str(row, NVM_UUID, g->uuid);
	}
}

/* NVML's processes on GPU i, with their command names. */
static void gpu_processes(struct nvidia_priv *p, struct model *m, unsigned int i)
{
	struct table *t = model_table(m, &nvidia_gpu_processes);
	struct nvml_proc procs[MAX_GPU_PROCS];
	size_t n = nvml_processes(p->nvml, i, procs, MAX_GPU_PROCS);

	for (size_t k = 0; t && k < n; k++) {
		const struct proc_entry *pe = proc_cache_get(&p->pcache, procs[k].pid);
		struct cell *row = table_row_add(t);

		if (!row)
			return;
		cell_set_u64(row, NVQ_GPU, i);
		cell_set_u64(row, NVQ_PID, procs[k].pid);
		if (pe && pe->comm[0])
			cell_set_str(row, NVQ_COMM, pe->comm);
		if (procs[k].mem_known)
			cell_set_u64(row, NVQ_MEM, procs[k].mem_bytes);
		if (procs[k].util_known) {
			cell_set_f64(row, NVQ_SM, procs[k].sm_pct);
			cell_set_f64(row, NVQ_MEM_UTIL, procs[k].mem_pct);
			cell_set_f64(row, NVQ_ENC, procs[k].enc_pct);
			cell_set_f64(row, NVQ_DEC, procs[k].dec_pct);
		}
	}
}

static void read_gpus(struct nvidia_priv *p, struct model *m)
{
	struct table *t = model_table(m, &nvidia_gpus);
	struct table *migs = p->nvml ? model_table(m, &nvidia_mig) : NULL; /* none is [] with NVML */
	char first_name[sizeof(((struct nvml_gpu *)0)->name)] = "";

	memset(&p->nvml_gpus, 0, sizeof(p->nvml_gpus));
	p->nvml_gpus.n = nvml_count(p->nvml) < NV_GPUS_MAX ? nvml_count(p->nvml) : NV_GPUS_MAX;
	p->nvml_gpus.one_model = true;
	for (unsigned int i = 0; t && i < nvml_count(p->nvml); i++) {
		struct nvml_gpu g;
		struct cell *row;

		if (!nvml_read(p->nvml, i, &g))
			continue;
		if (i < NV_GPUS_MAX) {
			snprintf(p->nvml_gpus.bus[i], sizeof(p->nvml_gpus.bus[i]), "%s", g.bus_id);
			p->nvml_gpus.minor_known[i] = g.minor_known;
			p->nvml_gpus.minor[i] = g.minor;
			p->nvml_gpus.one_model &= !i || !strcmp(g.name, first_name);
			if (!i)
				snprintf(first_name, sizeof(first_name), "%s", g.name);
		}
		row = table_row_add(t);
		if (!row)
			break;
		cell_set_u64(row, NVG_INDEX, i);
		cell_set_str(row, NVG_NAME, g.name);
		if (g.bus_id[0])
			cell_set_str(row, NVG_BUS, g.bus_id);
		if (g.mem_known) {
			cell_set_u64(row, NVG_MEM_USED, g.mem_used);
			cell_set_u64(row, NVG_MEM_TOTAL, g.mem_total);
			if (g.mem_total)
				cell_set_f64(row, NVG_MEM_PCT, 100.0 * (double)g.mem_used / (double)g.mem_total);
		}
		if (g.util_known) {
			cell_set_f64(row, NVG_UTIL, g.util_gpu);
			cell_set_f64(row, NVG_MEM_UTIL, g.util_mem);
		}
		if (g.temp_known)
			cell_set_f64(row, NVG_TEMP, g.temp_c);
		if (g.power_known)
			cell_set_f64(row, NVG_POWER, g.power_w);
		gpu_optional(row, &g);
		gpu_processes(p, m, i);
		if (g.mig == NVML_MIG_ENABLED)
			gpu_migs(p, migs, i, g.bus_id);
	}
}

/*
 * --stacks: nvidia.stacks from the launch stacks' and the syncs' sums, after
 * the tick that took their processes' names.
 */
static void read_stacks(struct collector *c, struct nvidia_priv *p, struct model *m)
{
	int stacks_fd = bpf_map__fd(p->skel->maps.stacks);
	size_t left;

	if (!p->stacks.sf && !p->sync_stacks.sf)
		return;
	launch_stacks_rows(&p->stacks, bpf_map__fd(p->skel->maps.launch_stacks), stacks_fd, stack_rows_add,
			   &p->stack_rows);
	call_stacks_rows(&p->sync_stacks, bpf_map__fd(p->skel->maps.sync_stacks), stacks_fd,
			 &(struct call_names){ 0 }, stack_rows_add, &p->stack_rows);
	left = stack_rows_table(&p->stack_rows, model_table(m, &nvidia_stacks_table));
	collector_set_drop(c, "stacks_past_table_rows", left);
	collector_set_drop(c, "stack_copies_lost", p->stacks.copies_lost + p->sync_stacks.copies_lost);
}

/*
 * The GPU time join, while launch stacks are taken or a capture runs: new library files attached,
 * said in the probes list.
 */
static void join_tick(struct collector *c, struct nvidia_priv *p, uint64_t now)
{
	size_t failed, n;
	char note[128];

	launch_join_tick(&p->join, now);
	n = launch_join_files(&p->join, &failed);
	if (n == p->join_files && failed == p->join_failed)
		return;
	p->join_files = n;
	p->join_failed = failed;
	snprintf(note, sizeof(note), "uprobes in %zu %s file%s%s", n, CUPTI_LIB_NAME, n == 1 ? "" : "s",
		 failed ? " (some without the join: an older library, or failed)" : "");
	collector_set_tracepoint(c, CUPTI_LIB_NAME, "GPU time of launch stacks",
				 n ? TRACEPOINT_ATTACHED : TRACEPOINT_MISSING, note);
}

/* Neither stacks nor a capture now: the join's probes detached, attached again at the next one's first tick. */
static void join_idle(struct collector *c, struct nvidia_priv *p)
{
	launch_join_detach(&p->join);
	p->join_files = 0;
	p->join_failed = 0;
	collector_set_tracepoint(c, CUPTI_LIB_NAME, "GPU time of launch stacks", TRACEPOINT_MISSING,
				 "detached: no capture or launch stacks now");
}

static int nvidia_read(struct collector *c, struct model *m)
{
	struct nvidia_priv *p = c->priv;
	uint64_t now = mono_ns(), misses;

	if (!c->config->libcuda && now >= p->next_scan_ns) {
		/* a container's own libcuda, a library loaded from off the loader's path */
		if (cuda_libs_from_maps(&p->libs) > 0) {
			attach_new_libs(p);
			set_detail(c, p);
		}
		p->next_scan_ns = now + RESCAN_NS;
	}
	if (now >= p->next_sweep_ns) {
		struct proc_gpus_maps maps = gpu_maps(p);
		uint64_t swept;

		p->never_returned += map_sweep_gone_threads(bpf_map__fd(p->skel->maps.calls));
		swept = map_sweep_gone_threads(bpf_map__fd(p->skel->maps.ioctls));
		__atomic_fetch_sub(&p->skel->bss->ioctls_open, swept, __ATOMIC_RELAXED);
		p->never_returned += swept;
		map_sweep_gone_threads(bpf_map__fd(p->skel->maps.threads)); /* threads that exited: not a loss */
		proc_gpus_sweep(&maps);
		p->next_sweep_ns = now + RESCAN_NS;
	}
	/* the launches' processes and stack copies first: the capture's launches are symbolized by them */
	launch_stacks_tick(&p->stacks, bpf_map__fd(p->skel->maps.launch_stacks),
			   bpf_map__fd(p->skel->maps.kernel_names), &p->pcache);
	if (launch_stacks_live(&p->stacks)) /* started live: frame pointers from now on */
		__atomic_store_n(&p->skel->bss->capture_stacks, 1, __ATOMIC_RELAXED);
	if (p->skel->bss->capture_stacks || __atomic_load_n(&p->skel->bss->capture_on, __ATOMIC_RELAXED))
		join_tick(c, p, now); /* with stacks, their GPU time; in a capture, the launches' flows */
	else if (p->join_files) /* a capture over: the library's launch callbacks off again */
		join_idle(c, p);
	nv_capture_drain(&p->capture); /* before the names of processes gone are deleted */
	read_gpus(p, m); /* first: NVML's bus ids place the devices of nvidia.process_gpus */
	read_procs(p, m);
	read_stacks(c, p, m);
	read_xids(p, m);
	misses = nv_driver_read(p->drv, c, m);
	collector_set_drops(c, drop_names, p->skel->bss->drops, NV_DROP_MAX);
	collector_set_drop(c, "calls_never_returned", p->never_returned);
	misses += tp_progs_report_rows(c, p->tps, NTPS, m);
	collector_set_drop(c, "bpf_recursion_misses", misses);
	return 0;
}

static void nvidia_close(struct collector *c)
{
	struct nvidia_priv *p = c->priv;

	if (!p)
		return;
	if (p->skel) { /* --stacks: the file written while the maps are there */
		launch_stacks_write(&p->stacks, bpf_map__fd(p->skel->maps.launch_stacks),
				    bpf_map__fd(p->skel->maps.stacks));
		call_stacks_write(&p->sync_stacks, bpf_map__fd(p->skel->maps.sync_stacks),
				  bpf_map__fd(p->skel->maps.stacks),
				  p->skel->bss->drops[NV_DROP_SYNC_STACKS_FULL], &(struct call_names){ 0 });
	}
	launch_join_detach(&p->join);
	ring_buffer__free(p->xid_ring);
	nv_capture_close(&p->capture);
	nv_driver_stop(p->drv);
	tp_progs_detach(p->tps, NTRACEPOINTS);
	link_reaper_defer_no_module(p->ulinks, p->nulinks); /* uprobes: on files */
	free(p->ulinks);
	nvidia_bpf__destroy(p->skel);
	nvml_close(p->nvml);
	cuda_libs_free(&p->libs);
	launch_stacks_close(&p->stacks);
	stack_rows_free(&p->stack_rows);
	call_stacks_free(&p->sync_stacks);
	map_delta_free(&p->procs);
	nv_kernels_free(&p->kernels);
	proc_gpus_free(&p->proc_gpus);
	proc_cache_free(&p->pcache);
	free(p->gone);
	free(p);
}

static const struct collector_ops nvidia_collector = {
	.name = "nvidia", /* id */
	.attaches_later = true, /* libcuda found in a process's maps, searched every 10 s */
	.order = 50,
	.description = "CUDA launches, device memory, sync stalls and ioctls per process; Xid errors; NVML",
	.modules = (const char *const[]){ "nvidia", NULL },
	.modules_fix = "load the nvidia module (NVIDIA's driver)",
	.probe = nvidia_probe, /* libcuda files, /proc/devices, the Xid tracepoint, NVML */
	.open = nvidia_open,
	.attach = nvidia_attach,
	.read = nvidia_read, /* maps -> nvidia.processes, nvidia.xids; NVML -> nvidia.gpus, nvidia.mig */
	.close = nvidia_close,
};
COLLECTOR_REGISTER(nvidia_collector);
