/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain data shared by display.bpf.c and collectors/display/display.c: vblanks per CRTC and per client. */
#ifndef GPUTOP_DISPLAY_H
#define GPUTOP_DISPLAY_H

#include <linux/types.h>
#include "core/hist_layout.h"

#define DISPLAY_MAX_CRTCS 32 /* pipe indices at or above: counted in DISPLAY_DROP_CRTC */
#define DISPLAY_MAX_CLIENTS 1024
#define DISPLAY_MAX_QUEUED 4096
#define DISPLAY_PENDING 16 /* deliveries per CPU waiting for their vblank's timestamp */
/* Consecutive vblank events further apart than this: the interrupt was off, not missed. */
#define DISPLAY_GAP_MAX_NS 1000000000ULL

enum display_drop {
	DISPLAY_DROP_CRTC, /* pipe index too large: event not counted */
	DISPLAY_DROP_CLIENT_FULL, /* client table full: delivery not attributed */
	DISPLAY_DROP_PENDING_FULL, /* too many deliveries in one vblank: no latency sample */
	DISPLAY_DROP_LATENCY_UNMATCHED, /* delivered for a vblank never seen: no latency sample */
	DISPLAY_DROP_QUEUED_FULL, /* queued-event table full: no queue latency sample */
	DISPLAY_DROP_CAPTURE_FULL, /* capture ring buffer full: an event not in the trace */
	DISPLAY_DROP_MAX,
};

/* Per CRTC (pipe index); written only from its vblank handler, under the device's event lock. */
struct crtc_stats {
	__u64 vblanks; /* drm_vblank_event count */
	__u64 gaps; /* vblanks the counter skipped while the interrupt was on */
	__u64 restarts; /* the interrupt came back after being off */
	__u64 intervals; /* consecutive vblanks (counter + 1) timed */
	__u64 interval_sum_ns; /* refresh = intervals over their sum */
	__u64 interval_sq_us; /* sum of squared intervals in us^2: jitter (standard deviation) */
	__u64 interval_max_ns; /* largest since the last read; user space zeroes it */
	__u32 last_seq;
	__u32 pad;
	__s64 last_time; /* hardware timestamp (CLOCK_MONOTONIC ns) of the last vblank */
	__u64 interval_hist[HIST_SLOTS];
};

/* A client is one open DRM file on one CRTC. */
struct client_key {
	__u64 file; /* struct drm_file * */
	__s32 crtc;
	__u32 pad;
};

struct client_stats {
	__u32 pid; /* process that opened the file (drm_file->pid), 0 when unknown */
	__s32 minor; /* DRM minor of the file: cardN for a primary node; -1 when unknown */
	__u64 delivered; /* events delivered (page flips, vblank waits) */
	__u64 queued; /* vblank-wait events queued */
	__u64 missed; /* vblanks later than the client's cadence (see display.bpf.c) */
	__u32 last_seq, last_step, cadence, pad;
	__u64 last_ns; /* when the last event was delivered */
	__u64 intervals, interval_sum_ns; /* between consecutive deliveries */
	__u64 latencies, latency_sum_ns; /* vblank -> delivery */
	__u64 waits, wait_sum_ns; /* queued -> delivered */
	__u64 interval_hist[HIST_SLOTS];
	__u64 latency_hist[HIST_SLOTS];
	__u64 wait_hist[HIST_SLOTS];
};

struct queued_key {
	__u64 file;
	__s32 crtc;
	__u32 seq; /* the vblank the client asked for */
};

/*
 * The capture's ring buffer (--trace): 256 KiB, at 40 + 8 bytes a record about 5,400 events
 * between two drains (collectors/kit/capture_rb.h).
 */
#define DISPLAY_CAPTURE_RB_BYTES (256U << 10)

enum display_rec_kind {
	DISPLAY_REC_VBLANK, /* a CRTC's vblank */
	DISPLAY_REC_DELIVERY, /* an event (page flip, vblank wait) delivered to a client */
};

/* One event of a capture, written only while one runs (capture_on). */
struct display_rec {
	__u64 ts_ns; /* vblank: its hardware timestamp; delivery: when (both CLOCK_MONOTONIC) */
	__u64 file; /* delivery: the client's struct drm_file * */
	__u32 pid; /* delivery: the process that opened the file, 0 when unknown */
	__s32 crtc;
	__u32 seq; /* the vblank counter */
	__u32 missed; /* delivery: frames the client missed just before it (display.bpf.c) */
	__s32 minor; /* delivery: the file's DRM minor, -1 when unknown */
	__u32 kind; /* enum display_rec_kind */
};

#endif
