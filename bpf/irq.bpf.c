// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt lines: handler invocations and handler time, per CPU, for the lines
 * user space marked in `watch` (the GPU drivers' lines, or every line).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "irq.h"

char LICENSE[] SEC("license") = "GPL";

struct trace_entry {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
} __attribute__((preserve_access_index));

struct trace_event_raw_irq_handler_entry {
	struct trace_entry ent;
	int irq;
} __attribute__((preserve_access_index));

struct trace_event_raw_irq_handler_exit {
	struct trace_entry ent;
	int irq;
	int ret;
} __attribute__((preserve_access_index));

__u64 irq_overflow; /* events on lines >= IRQ_MAX, not attributed */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IRQ_MAX);
	__type(key, __u32);
	__type(value, __u8);
} watch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IRQ_MAX);
	__type(key, __u32);
	__type(value, struct irq_stats);
} stats SEC(".maps");

/* Hard-IRQ handlers do not nest on one CPU: one start time per CPU suffices. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

static __always_inline bool watched(__u32 irq)
{
	__u8 *w;

	if (irq >= IRQ_MAX) {
		__sync_fetch_and_add(&irq_overflow, 1);
		return false;
	}
	w = bpf_map_lookup_elem(&watch, &irq);
	return w && *w;
}

SEC("tp/irq/irq_handler_entry")
int irq_entry(struct trace_event_raw_irq_handler_entry *ctx)
{
	__u32 irq = BPF_CORE_READ(ctx, irq), zero = 0;
	__u64 *ts;

	if (!watched(irq))
		return 0;
	ts = bpf_map_lookup_elem(&start, &zero);
	if (ts)
		*ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tp/irq/irq_handler_exit")
int irq_exit(struct trace_event_raw_irq_handler_exit *ctx)
{
	__u32 irq = BPF_CORE_READ(ctx, irq), zero = 0;
	struct irq_stats *s;
	__u64 *ts;

	if (irq >= IRQ_MAX || !watched(irq))
		return 0;
	s = bpf_map_lookup_elem(&stats, &irq);
	ts = bpf_map_lookup_elem(&start, &zero);
	if (!s || !ts)
		return 0;
	s->count++;
	if (*ts) {
		s->handler_ns += bpf_ktime_get_ns() - *ts;
		*ts = 0;
	}
	return 0;
}
