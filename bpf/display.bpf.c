// SPDX-License-Identifier: GPL-2.0
/*
 * Display: vblanks per CRTC and event deliveries per client, from the drm
 * module's tracepoints drm_vblank_event, _queued and _delivered (one layout
 * from 5.15 to 7.3; reference §7).
 *
 * All three fire with the device's event lock held, most from the vblank
 * interrupt, so they are raw_tp programs (guarded per program: a tp program
 * is skipped whenever it interrupts another of ours on that CPU).
 *
 * In the vblank handler the kernel delivers the events due at a vblank first
 * and fires drm_vblank_event (with that vblank's hardware timestamp) after
 * them: a delivery whose vblank has not been seen yet waits in a per-CPU list
 * that the vblank event then settles, to time vblank -> delivery.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "common.bpf.h"
#include "display.h"

char LICENSE[] SEC("license") = "GPL";

/* Kernel objects read to attribute a drm_file: its opener and its device node. */
struct upid {
	int nr;
} __core;
struct pid {
	struct upid numbers[1];
} __core;
struct drm_minor {
	int index;
} __core;
struct drm_file {
	struct pid *pid;
	struct drm_minor *minor;
} __core;

__u64 drops[DISPLAY_DROP_MAX];
__u32 capture_on; /* user space's: a capture runs, events go to capture_rb */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, DISPLAY_CAPTURE_RB_BYTES);
} capture_rb SEC(".maps");

struct pending_delivery {
	__u64 file;
	__u64 ns;
	__s32 crtc;
	__u32 seq;
};

struct pending {
	__u32 n;
	__u32 pad;
	struct pending_delivery d[DISPLAY_PENDING];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DISPLAY_MAX_CRTCS);
	__type(key, __u32);
	__type(value, struct crtc_stats);
} crtcs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, DISPLAY_MAX_CLIENTS);
	__type(key, struct client_key);
	__type(value, struct client_stats);
} clients SEC(".maps");

/* Never written: the zeroed value a new client starts from (too big for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct client_stats);
} client_zero SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DISPLAY_MAX_QUEUED);
	__type(key, struct queued_key);
	__type(value, __u64);
} queued SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pending);
} pendings SEC(".maps");

static __always_inline void drop(enum display_drop why)
{
	drop_count(drops, why, DISPLAY_DROP_MAX);
}

/* The event into the capture's ring buffer, while one runs. */
static __always_inline void capture(__u32 kind, __u64 ts, const struct client_stats *cl,
				    __u64 file, int crtc, unsigned int seq, __u32 missed)
{
	struct display_rec *r = capture_reserve(&capture_rb, sizeof(*r), &capture_on,
						&drops[DISPLAY_DROP_CAPTURE_FULL]);

	if (!r)
		return;
	r->ts_ns = ts;
	r->file = file;
	r->pid = cl ? cl->pid : 0;
	r->crtc = crtc;
	r->seq = seq;
	r->missed = missed;
	r->minor = cl ? cl->minor : -1;
	r->kind = kind;
	capture_submit(&capture_rb, r);
}

static __always_inline struct client_stats *client_get(struct drm_file *file, int crtc)
{
	struct client_key key = { .file = (__u64)(unsigned long)file, .crtc = crtc };
	struct client_stats *cl, *zero;
	__u32 z = 0;

	cl = bpf_map_lookup_elem(&clients, &key);
	if (cl)
		return cl;
	zero = bpf_map_lookup_elem(&client_zero, &z);
	if (!zero)
		return NULL;
	cl = lookup_or_init(&clients, &key, zero);
	if (!cl) {
		drop(DISPLAY_DROP_CLIENT_FULL);
		return NULL;
	}
	cl->minor = -1;
	if (file && bpf_core_type_exists(struct drm_file)) {
		cl->pid = BPF_CORE_READ(file, pid, numbers[0].nr);
		if (BPF_CORE_READ(file, minor))
			cl->minor = BPF_CORE_READ(file, minor, index);
	}
	return cl;
}

SEC("raw_tp/drm_vblank_event")
int BPF_PROG(vblank_event, int crtc, unsigned int seq, long long time, bool high_prec)
{
	__u32 idx = (__u32)crtc, z = 0;
	struct crtc_stats *cs = bpf_map_lookup_elem(&crtcs, &idx);
	struct pending *p = bpf_map_lookup_elem(&pendings, &z);
	__u32 n;

	if (!cs) {
		drop(DISPLAY_DROP_CRTC);
		return 0;
	}
	if (cs->vblanks && time > cs->last_time && seq != cs->last_seq) {
		__u64 dt = (__u64)(time - cs->last_time), step = (__u32)(seq - cs->last_seq);

		if (dt >= DISPLAY_GAP_MAX_NS) {
			cs->restarts++;
		} else {
			cs->gaps += step - 1;
			if (step == 1) {
				__u64 us = dt / 1000;

				cs->intervals++;
				cs->interval_sum_ns += dt;
				cs->interval_sq_us += us * us;
				if (dt > cs->interval_max_ns)
					cs->interval_max_ns = dt;
				hist_count(cs->interval_hist, dt);
			}
		}
	}
	cs->vblanks++;
	cs->last_seq = seq;
	cs->last_time = time;
	capture(DISPLAY_REC_VBLANK, (__u64)time, NULL, 0, crtc, seq, 0);

	/* Settle the deliveries of this vblank made just before it on this CPU. */
	if (!p)
		return 0;
	n = p->n;
	for (int i = 0; i < DISPLAY_PENDING; i++) {
		struct pending_delivery *d = &p->d[i];
		struct client_key key = { .file = d->file, .crtc = d->crtc };
		struct client_stats *cl;

		if ((__u32)i >= n)
			break;
		if (d->crtc != crtc || d->seq != seq || (__s64)d->ns < time) {
			drop(DISPLAY_DROP_LATENCY_UNMATCHED);
			continue;
		}
		cl = bpf_map_lookup_elem(&clients, &key);
		if (!cl)
			continue;
		cl->latencies++;
		cl->latency_sum_ns += d->ns - time;
		hist_count(cl->latency_hist, d->ns - time);
	}
	p->n = 0;
	return 0;
}

SEC("raw_tp/drm_vblank_event_queued")
int BPF_PROG(vblank_event_queued, struct drm_file *file, int crtc, unsigned int seq)
{
	struct queued_key key = { .file = (__u64)(unsigned long)file, .crtc = crtc, .seq = seq };
	struct client_stats *cl = client_get(file, crtc);
	__u64 now = bpf_ktime_get_ns();

	if (cl)
		__sync_fetch_and_add(&cl->queued, 1);
	if (bpf_map_update_elem(&queued, &key, &now, BPF_ANY))
		drop(DISPLAY_DROP_QUEUED_FULL);
	return 0;
}

/* queued -> delivered: the event asked for seq, or an earlier vblank when it came late. */
static __always_inline void time_wait(struct client_stats *cl, __u64 file, int crtc,
				      unsigned int seq, __u64 now)
{
	for (int back = 0; back < 4; back++) {
		struct queued_key key = { .file = file, .crtc = crtc, .seq = seq - back };
		__u64 *at = bpf_map_lookup_elem(&queued, &key);

		if (!at)
			continue;
		if (now >= *at) {
			cl->waits++;
			cl->wait_sum_ns += now - *at;
			hist_count(cl->wait_hist, now - *at);
		}
		bpf_map_delete_elem(&queued, &key);
		return;
	}
}

/*
 * Missed frames: a client's cadence is the vblank step it repeats (1 for every
 * vblank, 2 for every other); a delivery that comes later than that cadence
 * missed (step - 1) / cadence frames. Returns those frames.
 */
static __always_inline __u32 count_step(struct client_stats *cl, unsigned int seq, __u64 now)
{
	__u32 step = seq - cl->last_seq, missed = 0;

	if (!cl->delivered || !step)
		return 0;
	cl->intervals++;
	cl->interval_sum_ns += now - cl->last_ns;
	hist_count(cl->interval_hist, now - cl->last_ns);
	if (cl->cadence && step > cl->cadence) {
		missed = (step - 1) / cl->cadence;
		cl->missed += missed;
	}
	if (step == cl->last_step)
		cl->cadence = step;
	cl->last_step = step;
	return missed;
}

SEC("raw_tp/drm_vblank_event_delivered")
int BPF_PROG(vblank_event_delivered, struct drm_file *file, int crtc, unsigned int seq)
{
	__u32 idx = (__u32)crtc, z = 0;
	struct crtc_stats *cs = bpf_map_lookup_elem(&crtcs, &idx);
	struct client_stats *cl = client_get(file, crtc);
	__u64 now = bpf_ktime_get_ns();
	struct pending *p;
	__u32 n, missed;

	if (!cl)
		return 0;
	missed = count_step(cl, seq, now);
	capture(DISPLAY_REC_DELIVERY, now, cl, (__u64)(unsigned long)file, crtc, seq, missed);
	cl->delivered++;
	cl->last_seq = seq;
	cl->last_ns = now;
	time_wait(cl, (__u64)(unsigned long)file, crtc, seq, now);

	if (cs && cs->vblanks && cs->last_seq == seq) { /* sent after its vblank event */
		if ((__s64)now >= cs->last_time) {
			cl->latencies++;
			cl->latency_sum_ns += now - cs->last_time;
			hist_count(cl->latency_hist, now - cs->last_time);
		}
		return 0;
	}
	p = bpf_map_lookup_elem(&pendings, &z);
	if (!p)
		return 0;
	n = p->n;
	if (n >= DISPLAY_PENDING) {
		drop(DISPLAY_DROP_PENDING_FULL);
		return 0;
	}
	p->d[n].file = (__u64)(unsigned long)file;
	p->d[n].crtc = crtc;
	p->d[n].seq = seq;
	p->d[n].ns = now;
	p->n = n + 1;
	return 0;
}
