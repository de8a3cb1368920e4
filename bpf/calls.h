/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain data shared by calls.bpf.c and collectors/calls/calls.c: GPU ioctls and fence waits. */
#ifndef GPUTOP_CALLS_H
#define GPUTOP_CALLS_H

#include <linux/types.h>
#include "core/hist_layout.h"
#include "call_stack.h"

#define CALLS_MAJORS 8 /* character-device majors watched (drm, nvidia ...) */
#define CALLS_MAX_KEYS 4096 /* (process, device, command) and (process, driver) entries */
#define CALLS_MAX_PENDING 16384 /* threads inside a watched ioctl or a fence wait */
#define CALLS_NAME 32 /* a fence's driver name, as the kernel gives it */

/* An ioctl command on one device file, per process. */
struct ioctl_key {
	__u32 tgid;
	__u32 rdev; /* the kernel's dev_t: major << 20 | minor */
	__u32 cmd;
	__u32 pad;
};

struct call_stats {
	char comm[16]; /* the group leader's, at its first call: a process gone before the read keeps its name */
	__u64 count;
	__u64 errors; /* returned < 0 (ioctls) */
	__u64 ns; /* time inside */
	__u64 max_ns;
	__u64 hist[HIST_SLOTS];
};

/*
 * A thread inside a watched ioctl. fresh: the primary program wrote it for this
 * call and its twin has not seen it yet (the twin then knows the primary ran).
 */
struct ioctl_pending {
	__u64 ns;
	struct ioctl_key key;
	__u32 fresh, pad;
};

/* --stacks: distinct stacks (user and kernel) kept, (process, call, stacks) sums kept (call_stack.h). */
#define CALLS_MAX_STACKS 16384
#define CALLS_MAX_STACK_SUMS 16384

/* Fence waits, per process and fence driver. */
struct wait_key {
	__u32 tgid;
	__u32 pad;
	char driver[CALLS_NAME];
};

struct wait_pending {
	__u64 ns;
	struct wait_key key;
	__u32 fresh, pad;
};

/*
 * Each program has a twin attached after it to the same tracepoint: the kernel
 * skips a program entered again on a CPU where it is already running (7.x runs
 * tracepoints preemptible), and the twin handles what its primary skipped. Its
 * rescues per event kind (rescued[event][1]): what every copy skipped = the primary's misses
 * less these.
 */
enum calls_event { CALLS_IOCTL_ENTER, CALLS_IOCTL_EXIT, CALLS_WAIT_START, CALLS_WAIT_END, CALLS_EVENTS };

enum calls_drop {
	CALLS_DROP_KEYS_FULL, /* no room for a new (process, command) entry */
	CALLS_DROP_PENDING_FULL, /* no room for a thread entering an ioctl or a wait */
	CALLS_DROP_NESTED_WAIT, /* a wait began inside another of the same thread: the outer one is lost */
	CALLS_DROP_CAPTURE_FULL, /* capture ring buffer full: a call not in the trace */
	CALLS_DROP_STACK_SUMS_FULL, /* --stacks: no room for a new (process, call, stacks) sum */
	CALLS_DROP_SAMPLE_LOST, /* --stacks: a stack copy for the DWARF unwind lost (ring buffer full) */
	CALLS_DROP_STACK_UNREAD, /* --stacks: a call's user or kernel stack not taken (bpf_get_stackid failed) */
	CALLS_DROP_MAX
};

/*
 * The capture's ring buffer (--trace): 1 MiB, at 112 + 8 bytes a record about 8,700 calls
 * between two drains (collectors/kit/capture_rb.h).
 */
#define CALLS_CAPTURE_RB_BYTES (1U << 20)

enum calls_rec_kind {
	CALLS_REC_IOCTL, /* a watched ioctl */
	CALLS_REC_WAIT, /* a fence wait */
};

/* One call of a capture, written at its end only while one runs (capture_on). */
struct calls_rec {
	__u64 start_ns, end_ns; /* CLOCK_MONOTONIC */
	__u32 tgid, tid;
	__u32 rdev, cmd; /* ioctl: its device and command */
	__s64 ret; /* ioctl: what it returned */
	__u32 kind; /* enum calls_rec_kind */
	__u32 pad;
	char thread[16]; /* the thread's comm */
	char comm[16]; /* its group leader's */
	char driver[CALLS_NAME]; /* fence wait: the fence's driver */
};

#endif
