// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Calls collector: per process, the ioctls made on GPU device files (DRM and
 * NVIDIA character devices), by device and command, and the time spent blocked
 * in fence waits, by fence driver. Vendor-neutral. Tables: calls_tables.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/calls/calls_gate.h"
#include "collectors/calls/calls_tables.h"
#include "collectors/collector.h"
#include "model/ioctl_names.h"
#include "collectors/kit/call_stacks.h"
#include "collectors/kit/stack_table.h"
#include "collectors/kit/capture_rb.h"
#include "collectors/kit/char_devices.h"
#include "collectors/kit/link_name.h"
#include "collectors/kit/map_delta.h"
#include "collectors/kit/map_walk.h"
#include "collectors/kit/proc_cache.h"
#include "collectors/kit/proc_rows.h"
#include "collectors/kit/test_hooks.h"
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/tp_progs.h"
#include "collectors/kit/tracefs.h"
#include <linux/types.h>
#include "bpf/calls.h"
#include "calls.skel.h"

#define RESCAN_TICKS 5 /* majors are looked up again: a driver may load later */
#define MINORBITS 20

#define NO_SYSCALLS "no syscall tracepoints (CONFIG_FTRACE_SYSCALLS off)"
#define NO_FENCE "not in this kernel (dma-buf built without tracing)"

/* Each event's program and its twin (bpf/calls.h), in enum calls_event's order. */
static const struct tp_spec specs[CALLS_EVENTS] = {
	[CALLS_IOCTL_ENTER] = { "syscalls", "sys_enter_ioctl", "ioctl_enter", 1,
				"recursion_lost_ioctl_enter", .missing = NO_SYSCALLS, .absent = NO_SYSCALLS },
	[CALLS_IOCTL_EXIT] = { "syscalls", "sys_exit_ioctl", "ioctl_exit", 1, "recursion_lost_ioctl_exit",
			       .missing = NO_SYSCALLS, .absent = NO_SYSCALLS },
	[CALLS_WAIT_START] = { "dma_fence", "dma_fence_wait_start", "wait_start", 1,
			       "recursion_lost_wait_start", .missing = NO_FENCE, .absent = NO_FENCE },
	[CALLS_WAIT_END] = { "dma_fence", "dma_fence_wait_end", "wait_end", 1, "recursion_lost_wait_end",
			     .missing = NO_FENCE, .absent = NO_FENCE },
};
#define NTPS (2 * CALLS_EVENTS)
#define IOCTL_TPS 4 /* tps[0..3]: the ioctl enter and exit programs and their twins (specs' order) */

static const char *const drop_names[CALLS_DROP_MAX] = {
	[CALLS_DROP_KEYS_FULL] = "call_table_full",
	[CALLS_DROP_PENDING_FULL] = "pending_call_table_full",
	[CALLS_DROP_NESTED_WAIT] = "nested_fence_wait",
	[CALLS_DROP_CAPTURE_FULL] = "capture_ring_buffer_full",
	[CALLS_DROP_STACK_SUMS_FULL] = "call_stack_table_full",
	[CALLS_DROP_SAMPLE_LOST] = "call_stack_copy_lost",
	[CALLS_DROP_STACK_UNREAD] = "call_stack_unread",
};

/* A device file seen in the ioctls: its name and driver, looked up once. */
struct calls_dev {
	__u32 rdev;
	enum ioctl_device kind;
	char name[32], driver[32];
};

struct calls_priv {
	struct calls_bpf *skel;
	struct tp_prog tps[NTPS];
	__u32 majors[CALLS_MAJORS];
	enum ioctl_device kinds[CALLS_MAJORS];
	char major_names[CALLS_MAJORS][64]; /* as /proc/devices names them: "nvidia-uvm" */
	struct map_delta ioctls, waits;
	struct proc_cache procs;
	struct calls_gate gate;
	int nmajors;
	bool ioctls_attached;
	struct calls_dev *devs;
	size_t ndevs;
	unsigned int ticks;
	uint64_t never_returned; /* ioctls and waits of threads that exited inside them */
	uint64_t closed_in_flight; /* ioctls on a file closed while they ran, taken when the gate closed */
	struct capture_rb capture; /* --trace: each call, while a capture runs */
	const struct job_sink *sink; /* NULL: no capture */
	struct call_stacks stacks; /* --stacks: calls and time blocked per (process, call, stack) */
	struct stack_rows stack_rows; /* calls.stacks, while it is filled */
};

/*
 * The watched majors: "drm", and every "nvidia*" (nvidia, nvidia-uvm, nvidia-caps ...);
 * in a test build also GPUTOP_TEST_CALLS_MAJOR's (/dev/null's 1 in tests/bpf/cuda.sh), as NVIDIA's.
 */
static int find_majors(__u32 *majors, enum ioctl_device *kinds, char (*names)[64])
{
	struct char_major all[256];
	size_t n = char_majors(all, sizeof(all) / sizeof(all[0]));
	const char *test = test_hook("CALLS_MAJOR");
	int w = 0;

	memset(majors, 0, CALLS_MAJORS * sizeof(*majors));
	if (test) {
		kinds[w] = IOCTL_DEVICE_NVIDIA;
		snprintf(names[w], sizeof(names[w]), "nvidia");
		majors[w++] = (__u32)strtoul(test, NULL, 10);
	}
	for (size_t i = 0; i < n && w < CALLS_MAJORS; i++) {
		bool drm = !strcmp(all[i].name, "drm"), nv = !strncmp(all[i].name, "nvidia", 6);

		if (drm || nv) {
			kinds[w] = drm ? IOCTL_DEVICE_DRM : IOCTL_DEVICE_NVIDIA;
			snprintf(names[w], sizeof(names[w]), "%s", all[i].name);
			majors[w++] = all[i].major;
		}
	}
	return w;
}

static void calls_probe(struct collector *c)
{
	tp_specs_list(c, specs, CALLS_EVENTS);
	if (!tracepoint_exists("syscalls", "sys_enter_ioctl") &&
	    !tracepoint_exists("dma_fence", "dma_fence_wait_start")) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE,
				    "neither the syscalls ioctl nor the dma_fence wait tracepoints exist",
				    "use a kernel with CONFIG_FTRACE_SYSCALLS=y");
		return;
	}
	c->priv = calloc(1, sizeof(struct calls_priv));
	if (!c->priv)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

/* The status: the kinds of GPU device this machine has, as /proc/devices lists them, and the gate. */
static void describe(struct collector *c)
{
	struct calls_priv *p = c->priv;
	int n = p->nmajors, drm = 0;
	char gate[40];

	for (int i = 0; i < n; i++)
		drm += p->kinds[i] == IOCTL_DEVICE_DRM;
	calls_gate_describe(&p->gate, p->skel, gate, sizeof(gate));
	snprintf(c->status.detail, sizeof(c->status.detail), "ioctls on %s and fence waits; %s",
		 drm && n > drm ? "DRM and NVIDIA devices" : drm ? "DRM devices" :
		 n ? "NVIDIA devices" : "GPU devices (none yet)", gate);
}

static void rescan(struct collector *c)
{
	struct calls_priv *p = c->priv;

	p->nmajors = find_majors(p->majors, p->kinds, p->major_names);
	memcpy(p->skel->bss->majors, p->majors, sizeof(p->majors));
}

/* Opens and loads the object (with the gate's open probe when gated); its error. */
static int load(struct calls_priv *p, bool gated)
{
	p->skel = calls_bpf__open();
	if (!p->skel)
		return -errno;
	if (tp_progs_open(p->tps, specs, CALLS_EVENTS, p->skel->obj, &p->skel->bss->rescued[0][0]))
		return -ENOENT;
	calls_gate_prepare(&p->gate, p->skel, gated);
	p->skel->rodata->capture_stacks = p->stacks.sf != NULL;
	if (!p->stacks.sf) { /* off: no room kept for stacks */
		bpf_map__set_max_entries(p->skel->maps.stacks, 1);
		bpf_map__set_max_entries(p->skel->maps.stack_sums, 1);
		bpf_map__set_max_entries(p->skel->maps.callers, 1);
	} else if (bpf_map__set_max_entries(p->skel->maps.samples, USER_STACK_SAMPLE_RING)) {
		return -ENOMEM;
	}
	capture_rb_size(p->skel->maps.capture_rb, p->sink);
	return calls_bpf__load(p->skel);
}

static const struct calls_dev *device_of(struct calls_priv *p, __u32 rdev);

/* A capture record (calls_rec) as a call, its command named as in calls.ioctls. */
static bool call_of(void *ctx, const void *rec, size_t size, void *item)
{
	const struct calls_rec *r = rec;
	struct call_span *s = item;
	const struct calls_dev *d;

	if (size < sizeof(*r))
		return false;
	*s = (struct call_span){ .start_ns = r->start_ns, .end_ns = r->end_ns, .pid = r->tgid,
				 .tid = r->tid, .ret = r->ret };
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)sizeof(r->comm), r->comm);
	snprintf(s->thread, sizeof(s->thread), "%.*s", (int)sizeof(r->thread), r->thread);
	if (r->kind == CALLS_REC_WAIT) {
		s->kind = CALL_SPAN_FENCE_WAIT;
		snprintf(s->name, sizeof(s->name), "%.*s", (int)sizeof(r->driver), r->driver);
		return true;
	}
	s->kind = CALL_SPAN_IOCTL;
	d = device_of(ctx, r->rdev);
	if (d) {
		ioctl_command_name(d->kind, d->driver, r->cmd, s->name, sizeof(s->name));
		snprintf(s->dev, sizeof(s->dev), "%s", d->name);
	} else {
		snprintf(s->name, sizeof(s->name), "0x%x", r->cmd);
	}
	return true;
}

static void calls_hand(void *ctx, const void *items, size_t n, uint64_t lost)
{
	struct calls_priv *p = ctx;

	p->sink->calls(p->sink->arg, items, n, lost);
}

static const struct capture_rb_ops capture_ops = {
	.item_size = sizeof(struct call_span),
	.convert = call_of,
	.hand = calls_hand,
};

/* --trace: the calls go to the job sink while a capture runs (p->sink set before the load). */
static void calls_capture_open(struct calls_priv *p)
{
	if (p->sink && capture_rb_init(&p->capture, bpf_map__fd(p->skel->maps.capture_rb), &p->skel->bss->capture_on,
				       &p->skel->bss->drops[CALLS_DROP_CAPTURE_FULL], p->sink->active, &capture_ops, p))
		p->sink = NULL; /* out of memory: the trace gets no calls */
}

static int calls_open(struct collector *c)
{
	struct calls_priv *p = c->priv;
	int err;

	p->sink = c->config && c->config->job_sink && c->config->job_sink->calls ?
			  c->config->job_sink :
			  NULL;
	call_stacks_init(&p->stacks, c->config ? c->config->stacks : NULL, STACK_SOURCE_CALLS);
	if (map_delta_init(&p->ioctls, sizeof(struct ioctl_key), sizeof(struct call_stats), 0) ||
	    map_delta_init(&p->waits, sizeof(struct wait_key), sizeof(struct call_stats), 0)) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return -1;
	}
	err = load(p, true);
	if (err && p->gate.fentry) { /* a kernel that refuses fentry on chrdev_open: no gate */
		calls_bpf__destroy(p->skel);
		err = load(p, false);
	}
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	rescan(c);
	calls_gate_open(&p->gate, p->skel, p->majors, (size_t)p->nmajors);
	describe(c);
	calls_capture_open(p);
	return 0;
}

/*
 * The ioctl programs, once this machine has a GPU device (a driver registered its
 * major): until then every ioctl of the machine runs no program of ours.
 */
static void attach_ioctls(struct collector *c)
{
	struct calls_priv *p = c->priv;

	if (p->ioctls_attached)
		return;
	if (!p->nmajors) {
		for (size_t i = 0; i < IOCTL_TPS; i += 2)
			if (p->tps[i].wanted)
				collector_set_tracepoint(c, p->tps[i].group, p->tps[i].event, TRACEPOINT_AVAILABLE,
							 "attached once a GPU driver registers a device");
		return;
	}
	p->ioctls_attached = tp_progs_attach(c, p->tps, IOCTL_TPS) > 0;
}

static int calls_attach(struct collector *c)
{
	struct calls_priv *p = c->priv;

	size_t waits = tp_progs_attach(c, p->tps + IOCTL_TPS, NTPS - IOCTL_TPS);

	attach_ioctls(c);
	if (!waits && !p->ioctls_attached && p->nmajors) {
		collector_set_state(c, COLLECTOR_FAILED, "attaching to the tracepoints failed",
				    "run with -v to see libbpf's messages");
		return -1;
	}
	if (call_stacks_attach(&p->stacks, bpf_map__fd(p->skel->maps.samples))) /* after: its note stays */
		collector_set_tracepoint(c, "syscalls", "sys_exit_ioctl", TRACEPOINT_FAILED,
					 "cannot read the stack copies' ring buffer: stacks by frame pointers only");
	return 0;
}

/*
 * An NVIDIA device file's name by its major's name in /proc/devices and its minor: the driver's own
 * ("nvidia", "nvidiactl" or "nvidia-frontend": /proc/devices may list 195 twice) nvidiactl and nvidiaN; nvidia-uvm and nvidia-uvm-tools; nvidia-capN; others
 * NAME + N.
 */
static void nvidia_node_name(const char *major_name, unsigned int minor, char *out, size_t size)
{
	if (!strcmp(major_name, "nvidia-uvm"))
		snprintf(out, size, "%s", minor == 1 ? "nvidia-uvm-tools" : "nvidia-uvm");
	else if (!strcmp(major_name, "nvidia-caps")) /* /dev/nvidia-caps/nvidia-capN */
		snprintf(out, size, "nvidia-cap%u", minor);
	else if (!strcmp(major_name, "nvidia") || !strcmp(major_name, "nvidiactl") ||
		 !strcmp(major_name, "nvidia-frontend") || !major_name[0])
		snprintf(out, size, minor == 255 ? "nvidiactl" : "nvidia%u", minor);
	else
		snprintf(out, size, "%.40s%u", major_name, minor);
}

/* The name and driver of a character device, from sysfs (/sys/dev/char/M:m). */
static const struct calls_dev *device_of(struct calls_priv *p, __u32 rdev)
{
	unsigned int major = rdev >> MINORBITS, minor = rdev & ((1U << MINORBITS) - 1);
	const char *major_name = "";
	char path[96];
	struct calls_dev *d;

	for (size_t i = 0; i < p->ndevs; i++)
		if (p->devs[i].rdev == rdev)
			return &p->devs[i];
	d = realloc(p->devs, (p->ndevs + 1) * sizeof(*d));
	if (!d)
		return NULL;
	p->devs = d;
	d = &p->devs[p->ndevs++];
	memset(d, 0, sizeof(*d));
	d->rdev = rdev;
	d->kind = IOCTL_DEVICE_DRM;
	for (int i = 0; i < CALLS_MAJORS; i++)
		if (p->majors[i] == major) { /* the first of a major's names: 195 is "nvidia", then "nvidiactl" */
			d->kind = p->kinds[i];
			major_name = p->major_names[i];
			break;
		}
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", major, minor);
	if (link_name(path, d->name, sizeof(d->name))) {
		/* its node's name */
	} else if (d->kind == IOCTL_DEVICE_NVIDIA) { /* no sysfs node: its name as the driver makes it */
		nvidia_node_name(major_name, minor, d->name, sizeof(d->name));
	} else {
		snprintf(d->name, sizeof(d->name), "%u:%u", major, minor);
	}
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device", major, minor);
	if (!device_driver_name(path, d->driver, sizeof(d->driver)))
		snprintf(d->driver, sizeof(d->driver), "%s", d->kind == IOCTL_DEVICE_NVIDIA ? "nvidia" : "");
	return d;
}

/* --stacks: an ioctl's leaf frame, its command named as in calls.ioctls. */
static void ioctl_leaf(void *ctx, uint32_t rdev, uint32_t cmd, char *out, size_t size)
{
	const struct calls_dev *d = device_of(ctx, rdev);

	if (d)
		ioctl_command_name(d->kind, d->driver, cmd, out, size);
	else
		snprintf(out, size, "0x%x", cmd);
}

/* --stacks: calls.stacks from the sums of the calls' stacks (weights calls and blocked). */
static void read_stacks(struct collector *c, struct calls_priv *p, struct model *m)
{
	size_t left;

	if (!p->stacks.sf)
		return;
	call_stacks_rows(&p->stacks, bpf_map__fd(p->skel->maps.stack_sums), bpf_map__fd(p->skel->maps.stacks),
			 &(struct call_names){ ioctl_leaf, p }, stack_rows_add, &p->stack_rows);
	left = stack_rows_table(&p->stack_rows, model_table(m, &calls_stacks_table));
	collector_set_drop(c, "stacks_past_table_rows", left);
	collector_set_drop(c, "stack_copies_lost", p->stacks.copies_lost);
}

static void ioctl_row(struct cell *row, const void *key, const char *comm, const void *now,
		      const void *before, double iv, void *ctx)
{
	const struct ioctl_key *k = key;
	char kept[17];
	const struct calls_dev *d = device_of(ctx, k->rdev);
	char name[48];

	if (!d)
		return;
	ioctl_command_name(d->kind, d->driver, k->cmd, name, sizeof(name));
	calls_ioctl_row(row, k, proc_name_or_kept(comm, ((const struct call_stats *)now)->comm, kept), &(struct calls_ioctl_names){ d->name, d->driver, name },
			now, before, iv);
}

static void wait_row(struct cell *row, const void *key, const char *comm, const void *now,
		     const void *before, double iv, void *ctx)
{
	char kept[17];

	(void)ctx;
	calls_wait_row(row, key, proc_name_or_kept(comm, ((const struct call_stats *)now)->comm, kept), now,
		       before, iv);
}

static int calls_read(struct collector *c, struct model *m)
{
	struct calls_priv *p = c->priv;
	uint64_t taken, closed;

	if (++p->ticks % RESCAN_TICKS == 0) {
		rescan(c);
		taken = map_sweep_gone_threads(bpf_map__fd(p->skel->maps.ioctl_pending));
		p->never_returned += taken;
		p->never_returned += map_sweep_gone_threads(bpf_map__fd(p->skel->maps.wait_pending));
		attach_ioctls(c);
		closed = calls_gate_tick(&p->gate, p->skel, p->majors, (size_t)p->nmajors);
		p->closed_in_flight += closed;
		/* the entries taken out of ioctl_pending: no exit will count them down */
		__atomic_fetch_sub(&p->skel->bss->ioctls_open, taken + closed, __ATOMIC_RELAXED);
		describe(c);
	}
	proc_rows_read(&p->ioctls, bpf_map__fd(p->skel->maps.ioctls), &p->procs,
		       model_table(m, &calls_ioctls), model_interval_s(m), ioctl_row, p);
	proc_rows_read(&p->waits, bpf_map__fd(p->skel->maps.waits), &p->procs,
		       model_table(m, &calls_fence_waits), model_interval_s(m), wait_row, NULL);
	if (p->sink)
		capture_rb_drain(&p->capture);
	read_stacks(c, p, m);
	proc_cache_tick(&p->procs);
	collector_set_drops(c, drop_names, p->skel->bss->drops, CALLS_DROP_MAX);
	collector_set_drop(c, "calls_never_returned", p->never_returned);
	collector_set_drop(c, "calls_on_closed_files", p->closed_in_flight);
	tp_progs_report(c, p->tps, NTPS, m);
	return 0;
}

static void calls_close(struct collector *c)
{
	struct calls_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NTPS);
	if (p->skel)
		call_stacks_write(&p->stacks, bpf_map__fd(p->skel->maps.stack_sums),
				  bpf_map__fd(p->skel->maps.stacks),
				  p->skel->bss->drops[CALLS_DROP_STACK_SUMS_FULL], &(struct call_names){ ioctl_leaf, p });
	call_stacks_free(&p->stacks);
	stack_rows_free(&p->stack_rows);
	calls_gate_close(&p->gate);
	capture_rb_free(&p->capture);
	calls_bpf__destroy(p->skel);
	map_delta_free(&p->ioctls);
	map_delta_free(&p->waits);
	proc_cache_free(&p->procs);
	free(p->devs);
	free(p);
}

static const struct collector_ops calls_collector = {
	.name = "calls",
	.order = 47,
	.description = "GPU ioctls per process and command (DRM, NVIDIA); time blocked in fence waits",
	.probe = calls_probe,
	.open = calls_open,
	.attach = calls_attach,
	.read = calls_read,
	.close = calls_close,
};
COLLECTOR_REGISTER(calls_collector);
