// SPDX-License-Identifier: GPL-2.0
/*
 * GPU time from the CUPTI companion library (libgputop-cupti.so, docs/gpu-time.md): uprobes on its
 * probe functions, the records one attached with the library's semaphore (ref_ctr_offset), which
 * is what wakes the library up. Per process, device, kind and kernel name: count, total, maximum,
 * and the queued -> start time, and both times' histograms; per process the library's drop counts and the records this program
 * missed; the names, by the process's ids. While a capture runs (--trace), each record too, with
 * its batch's clock pair, into a ring buffer.
 */
#include <linux/bpf.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "common.bpf.h"
#include "fd_table.bpf.h" /* struct task_struct, for the process's name */
#include "cupti.h"

char LICENSE[] SEC("license") = "GPL";

__u64 drops[CUPTI_DROP_MAX];
__u32 capture_on; /* user space's: a capture runs, records go to capture_rb too */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, CUPTI_CAPTURE_RB_BYTES);
} capture_rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CUPTI_KERNELS_MAX);
	__type(key, struct cupti_kernel_key);
	__type(value, struct cupti_kernel_val);
} cupti_kernels SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CUPTI_NAMES_MAX);
	__type(key, struct cupti_name_key);
	__type(value, struct cupti_name_val);
} cupti_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CUPTI_PROCS_MAX);
	__type(key, __u32);
	__type(value, struct cupti_proc_val);
} cupti_procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CUPTI_BUSY_MAX);
	__type(key, struct cupti_busy_key);
	__type(value, struct cupti_busy_val);
} cupti_busy SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* most processes use a few of its entries */
	__uint(max_entries, CUPTI_HISTS_MAX);
	__type(key, struct cupti_kernel_key);
	__type(value, struct cupti_hist_val);
} cupti_hists SEC(".maps");

/* Zeroed values to create entries from (never written); a name's scratch. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cupti_name_val);
} name_scratch SEC(".maps");

static const struct cupti_kernel_val zero_kernel;
static const struct cupti_proc_val zero_proc;
static const struct cupti_busy_val zero_busy;
static const struct cupti_hist_val zero_hist;

/* The record's GPU time d and queue time q (where queued) into its row's histograms. */
static __always_inline void hists_add(const struct cupti_kernel_key *k, __u64 d, int queued, __u64 q)
{
	struct cupti_hist_val *h = lookup_or_init(&cupti_hists, k, &zero_hist);

	if (!h) {
		drop_count(drops, CUPTI_DROP_HISTS_FULL, CUPTI_DROP_MAX);
		return;
	}
	hist_count(h->gpu, d);
	if (queued)
		hist_count(h->queue, q);
}

/* The record's time, and its interval joined to the union of its process's on its device. */
static __always_inline void busy_add(__u32 tgid, const struct gputop_cupti_record *r, __u64 d)
{
	struct cupti_busy_key k = { .tgid = tgid, .device = r->device_id };
	struct cupti_busy_val *v = lookup_or_init(&cupti_busy, &k, &zero_busy);

	if (!v) {
		drop_count(drops, CUPTI_DROP_BUSY_FULL, CUPTI_DROP_MAX);
		return;
	}
	/* one process's calls are serialised by the library's lock: plain stores */
	if (r->kind == GPUTOP_CUPTI_KERNEL)
		v->kernel_ns += d;
	else
		v->copy_ns += d;
	if (!d)
		return;
	if (!v->open_end || r->start > v->open_end) { /* after the open interval: it closes */
		v->busy_ns += v->open_end - v->open_start;
		v->open_start = r->start;
		v->open_end = r->end;
		return;
	}
	if (r->start < v->open_start) { /* what of it lies before the open interval: counted, maybe twice */
		v->disordered++;
		v->busy_ns += (r->end < v->open_start ? r->end : v->open_start) - r->start;
	}
	if (r->end > v->open_end)
		v->open_end = r->end;
}

static __always_inline void take(__u32 tgid, const struct gputop_cupti_record *r)
{
	struct cupti_kernel_key k = { .tgid = tgid, .device = r->device_id, .kind = r->kind, .name_id = r->name_id };
	struct cupti_kernel_val *v = lookup_or_init(&cupti_kernels, &k, &zero_kernel);
	__u64 d = r->end > r->start ? r->end - r->start : 0;

	busy_add(tgid, r, d);
	if (!v) {
		drop_count(drops, CUPTI_DROP_KERNELS_FULL, CUPTI_DROP_MAX);
		return;
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->total_ns, d);
	__sync_fetch_and_add(&v->bytes, r->bytes);
	if (d > v->max_ns)
		v->max_ns = d; /* one process's calls are serialised by the library's lock */
	if (r->queued && r->start >= r->queued) {
		__u64 q = r->start - r->queued;

		__sync_fetch_and_add(&v->queued_count, 1);
		__sync_fetch_and_add(&v->queue_total_ns, q);
		if (q > v->queue_max_ns)
			v->queue_max_ns = q;
	}
	hists_add(&k, d, r->queued && r->start >= r->queued, r->queued ? r->start - r->queued : 0);
}

/* While a capture runs: the record, its process and its batch's clock pair into capture_rb. */
static __always_inline void capture(__u32 tgid, const struct cupti_proc_val *p, const struct gputop_cupti_batch *b,
				    const struct gputop_cupti_record *r)
{
	struct cupti_capture_rec *c =
		capture_reserve(&capture_rb, sizeof(*c), &capture_on, &drops[CUPTI_DROP_CAPTURE_FULL]);

	if (!c)
		return;
	c->r = *r;
	c->cupti_ns = b->cupti_ns;
	c->mono_before = b->mono_before;
	c->mono_after = b->mono_after;
	c->tgid = tgid;
	c->pad = 0;
	__builtin_memcpy(c->comm, p->comm, sizeof(c->comm));
	capture_submit(&capture_rb, c);
}

SEC("uprobe")
int BPF_KPROBE(cupti_records, const struct gputop_cupti_batch *b, const struct gputop_cupti_record *recs)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct gputop_cupti_batch batch;
	struct gputop_cupti_record r;
	struct cupti_proc_val *p;

	if (bpf_probe_read_user(&batch, sizeof(batch), b)) {
		drop_count(drops, CUPTI_DROP_READ, CUPTI_DROP_MAX);
		return 0;
	}
	p = lookup_or_init(&cupti_procs, &tgid, &zero_proc);
	if (!p) {
		drop_count(drops, CUPTI_DROP_PROCS_FULL, CUPTI_DROP_MAX);
		return 0;
	}
	if (!p->batches) {
		struct task_struct *task = (struct task_struct *)bpf_get_current_task();

		BPF_CORE_READ_STR_INTO(&p->comm, task, group_leader, comm);
	}
	if (p->batches && batch.sent > p->next_sent)
		p->missed += batch.sent - p->next_sent;
	p->batches++;
	p->next_sent = batch.sent + batch.count;
	p->cupti_dropped = batch.cupti_dropped;
	p->library_dropped = batch.library_dropped;
	p->abi = batch.abi;
	for (__u32 i = 0; i < GPUTOP_CUPTI_CHUNK; i++) {
		if (i >= batch.count)
			break;
		if (bpf_probe_read_user(&r, sizeof(r), &recs[i])) {
			drop_count(drops, CUPTI_DROP_READ, CUPTI_DROP_MAX);
			continue;
		}
		p->records++;
		take(tgid, &r);
		capture(tgid, p, &batch, &r);
	}
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(cupti_name, __u32 id, const char *name, __u32 len, __u32 cut)
{
	struct cupti_name_key k = { .tgid = bpf_get_current_pid_tgid() >> 32, .id = id };
	__u32 zero = 0;
	struct cupti_name_val *v = bpf_map_lookup_elem(&name_scratch, &zero);

	if (!v)
		return 0;
	if (len > GPUTOP_CUPTI_NAME_MAX)
		len = GPUTOP_CUPTI_NAME_MAX;
	v->len = len;
	v->cut = cut;
	if (bpf_probe_read_user(v->name, len & (GPUTOP_CUPTI_NAME_MAX * 2 - 1), name))
		v->len = 0;
	if (bpf_map_update_elem(&cupti_names, &k, v, BPF_ANY))
		drop_count(drops, CUPTI_DROP_NAMES_FULL, CUPTI_DROP_MAX);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(cupti_status, __u32 state)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct cupti_proc_val *p = lookup_or_init(&cupti_procs, &tgid, &zero_proc);

	if (p)
		p->state = state;
	else
		drop_count(drops, CUPTI_DROP_PROCS_FULL, CUPTI_DROP_MAX);
	return 0;
}
