// SPDX-License-Identifier: GPL-2.0
/*
 * DRM GPU scheduler, streamed design (--sched-design stream): each event is one
 * record in a BPF ring buffer; no job is followed in the kernel. User space
 * (collectors/drm_sched/sched_match.c) pairs queue -> run -> done by key and
 * keeps the counts, latencies and busy spans that drm_sched.bpf.c keeps in maps.
 * The same raw tracepoints, generations and ring interning as the map design
 * (drm_sched_ring.bpf.h).
 *
 * Wake-ups: records are submitted without one (BPF_RB_NO_WAKEUP); user space
 * drains every period, and is woken at once only when more than
 * SCHED_STREAM_WAKE_BYTES wait; --stacks' copies likewise, woken at once at a
 * stack's first copy or when a quarter of their ring buffer waits. A record the ring buffer has no room for is
 * counted per event kind (rb_full): a loss, shown as such.
 *
 * Twins (drm_sched.h): a twin writes a record only when the event is not the one
 * the primary noted last on this CPU. That note can be overwritten between the
 * primary and its twin (an interrupt, or on 7.x another task), so a twin's
 * record may repeat the primary's: user space drops those repeats (a job's event
 * already seen), and counts a twin's rescue only for a record it keeps.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <asm/ptrace.h> /* struct pt_regs: the user registers at the syscall (--stacks) */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "drm_sched_stream.h"
#include "user_caller.bpf.h"
#include "common.bpf.h"
#include "user_stack.bpf.h"

__u64 drops[SCHED_DROP_MAX]; /* ring_table_full only: the rest is user space's */
#include "drm_sched_ring.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 rb_full[SCHED_EV_MAX]; /* primaries' records the ring buffer had no room for */

/* --stacks: set before load; off, a queue event costs nothing more (and the map has one entry). */
const volatile bool capture_stacks;

/* --stacks: the user and kernel stacks of queue events, by id. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, SCHED_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SCHED_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, SCHED_STREAM_RB_BYTES);
} events SEC(".maps");

/* --stacks: stack copies for the DWARF unwind (sized at load: USER_STACK_SAMPLE_RING with --stacks). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

/* --stacks: the keys copied once at least (their first job always is). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, SCHED_MAX_STACKS);
	__type(key, struct sched_sample_key);
	__type(value, __u8);
} sampled SEC(".maps");

/* Where a stack copy is made before it goes into samples (too large for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sched_stack_sample);
} sample_scratch SEC(".maps");

__u64 samples_lost; /* --stacks: copies the ring buffer samples had no room for */

/*
 * Whether this copy writes the event (ev, a, b): the primary always (and notes
 * it), a twin unless the primary noted this very event last on this CPU.
 */
static __always_inline bool stream_claim(__u32 ev, __u64 a, __u64 b, __u32 copy)
{
	struct sched_claim *last = bpf_map_lookup_elem(&last_claim, &ev);

	if (!last)
		return !copy;
	if (copy)
		return last->a != a || last->b != b;
	last->a = a;
	last->b = b;
	return true;
}

/* The fields every record has; NULL (counted when the primary's) when the ring buffer is full. */
static __always_inline struct sched_rec *rec_new(__u32 ev, __u32 copy, __u64 key, __u64 aux,
						 __u32 ring)
{
	__u64 now = bpf_ktime_get_ns();
	struct sched_rec *r;

	/* a queue event's record has room for its stacks while they are taken */
	if (capture_stacks && ev == SCHED_EV_QUEUE)
		r = bpf_ringbuf_reserve(&events, sizeof(struct sched_rec_stacked), 0);
	else
		r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);

	if (!r) {
		/* a twin's failure is a loss only if the primary was skipped: misses - rescues */
		if (!copy && ev < SCHED_EV_MAX)
			__sync_fetch_and_add(&rb_full[ev], 1);
		return NULL;
	}
	r->ts_ns = now;
	r->key = key;
	r->aux = aux;
	r->start_ns = 0;
	r->ring = ring;
	r->tgid = 0;
	r->cpu = (__u16)bpf_get_smp_processor_id();
	r->kind = (__u8)ev;
	r->copy = (__u8)copy;
	return r;
}

/* No wake-up per record: only when a batch is waiting. */
static __always_inline void rec_submit(struct sched_rec *r)
{
	__u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(r, avail >= SCHED_STREAM_WAKE_BYTES ? BPF_RB_FORCE_WAKEUP :
								   BPF_RB_NO_WAKEUP);
}

/* --stacks: the submitter's stacks, taken here in its ioctl (the user stack by frame pointers). */
static __always_inline void stacks_take(void *ctx, struct sched_stack *st)
{
	st->caller = syscall_caller();
	st->ustack_id = (__s32)bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	if (st->ustack_id < 0) /* written "[no stack]" */
		st->ustack_id = -1;
	st->kstack_id = (__s32)bpf_get_stackid(ctx, &stacks, 0);
	if (st->kstack_id < 0)
		st->kstack_id = -1;
}

/*
 * --stacks: the submitter's user registers and stack copied for the DWARF
 * unwind, under the key its job is summed by: at the key's first job, else as
 * the sampling budget allows.
 */
static __always_inline void stack_sample(const struct sched_sample_key *k, const char *comm)
{
	bool first = !bpf_map_lookup_elem(&sampled, k);
	struct sched_stack_sample *s;
	struct pt_regs regs;
	__u32 z = 0;
	__u8 one = 1;

	if (!first && !user_stack_sample_allowed(&samples))
		return;
	if (first)
		bpf_map_update_elem(&sampled, k, &one, BPF_ANY);
	s = bpf_map_lookup_elem(&sample_scratch, &z);
	if (!s || user_stack_current_regs(&regs))
		return;
	s->key = *k;
	__builtin_memcpy(s->comm, comm, TASK_COMM_LEN);
	if (user_stack_send(&samples, s, offsetof(struct sched_stack_sample, stack), &regs, first))
		__sync_fetch_and_add(&samples_lost, 1);
}

static __always_inline int queue_event(void *ctx, const struct drm_sched_job *job, __u32 copy)
{
	job_key_t key = job_key(job);
	__u64 seq = BPF_CORE_READ(job, s_fence, finished.seqno);
	struct task_struct *task;
	struct sched_rec *r;

	if (!stream_claim(SCHED_EV_QUEUE, key, seq, copy))
		return 0;
	r = rec_new(SCHED_EV_QUEUE, copy, key, seq, ring_of(job));
	if (r) {
		r->tgid = bpf_get_current_pid_tgid() >> 32;
		task = (struct task_struct *)bpf_get_current_task();
		BPF_CORE_READ_STR_INTO(&r->comm, task, group_leader, comm);
		if (capture_stacks) {
			struct sched_stack *st = &((struct sched_rec_stacked *)r)->stack;
			struct sched_sample_key k;
			char comm[TASK_COMM_LEN];

			stacks_take(ctx, st);
			k = (struct sched_sample_key){ .caller = st->caller, .tgid = r->tgid, .ring = r->ring,
						       .ustack_id = st->ustack_id, .kstack_id = st->kstack_id };
			__builtin_memcpy(comm, r->comm, TASK_COMM_LEN);
			rec_submit(r);
			stack_sample(&k, comm);
		} else {
			rec_submit(r);
		}
	}
	if (!copy)
		spin_for_test();
	return 0;
}

static __always_inline int run_event(const struct drm_sched_job *job, __u32 copy)
{
	job_key_t key = job_key(job);
	__u64 seq = BPF_CORE_READ(job, s_fence, finished.seqno);
	struct sched_rec *r;

	if (!stream_claim(SCHED_EV_RUN, key, seq, copy))
		return 0;
	r = rec_new(SCHED_EV_RUN, copy, key, seq, ring_of(job));
	if (r)
		rec_submit(r);
	if (!copy)
		spin_for_test();
	return 0;
}

static __always_inline int done_event(const struct drm_sched_fence *fence, __u32 copy)
{
	job_key_t key = (job_key_t)(unsigned long)fence;
	__u64 seq = BPF_CORE_READ(fence, finished.seqno);
	struct sched_rec *r;

	if (!stream_claim(SCHED_EV_DONE, key, seq, copy))
		return 0;
	r = rec_new(SCHED_EV_DONE, copy, key, seq, ring_of_sched(BPF_CORE_READ(fence, sched)));
	if (r) {
		r->start_ns = unrecorded_start(fence);
		rec_submit(r);
	}
	return 0;
}

/*
 * add_dep (>= 6.17) and dep_wait: the job's key and the dependency's fence; and
 * the key the dependency's job has if that fence is a scheduler job's finished
 * fence (its drm_sched_fence, by CO-RE: user space finds it among its jobs).
 */
static __always_inline int dep_event(__u32 ev, const struct drm_sched_job *job, const void *fence,
				     __u32 copy)
{
	job_key_t key = job_key(job);
	struct sched_rec *r;

	if (!stream_claim(ev, key, (__u64)(unsigned long)fence, copy))
		return 0;
	r = rec_new(ev, copy, key, (__u64)(unsigned long)fence,
		    ev == SCHED_EV_DEP_WAIT ? ring_of(job) : RING_NONE);
	if (r) {
		r->start_ns = (__u64)(unsigned long)fence -
			      bpf_core_field_offset(struct drm_sched_fence, finished);
		rec_submit(r);
	}
	return 0;
}

#define QUEUE(copy) queue_event(ctx, job, copy)
#define RUN(copy) run_event(job, copy)
#define DONE(copy) done_event(fence, copy)
#define ADD_DEP(copy) dep_event(SCHED_EV_ADD_DEP, job, fence, copy)
#define DEP_WAIT(copy) dep_event(SCHED_EV_DEP_WAIT, job, fence, copy)

THREE_COPIES(sched_queue, QUEUE, struct drm_sched_job *job)
THREE_COPIES(sched_run, RUN, struct drm_sched_job *job)
THREE_COPIES(sched_done, DONE, struct drm_sched_fence *fence)
THREE_COPIES(sched_add_dep, ADD_DEP, struct drm_sched_job *job, void *fence)
THREE_COPIES(sched_dep_wait, DEP_WAIT, struct drm_sched_job *job, void *fence)
