// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The streamed scheduler design's matcher on synthetic records: in order, out
 * of order across CPUs, unmatched runs and dones, twins' repeats and rescues,
 * a full job table.
 */
#include "cmocka_all.h"
#include <string.h>
#include "collectors/drm_sched/job_table.h"
#include "collectors/drm_sched/sched_match.h"

#define RING 3
#define PID 4242

static struct sched_rec rec(__u8 kind, __u64 key, __u64 ts, __u8 copy)
{
	struct sched_rec r = { .ts_ns = ts, .key = key, .aux = key + 1, .ring = RING,
			       .kind = kind, .copy = copy };

	if (kind == SCHED_EV_QUEUE) {
		r.tgid = PID;
		strcpy(r.comm, "submit");
	}
	return r;
}

static void add(struct sched_match *m, __u8 kind, __u64 key, __u64 ts)
{
	struct sched_rec r = rec(kind, key, ts, 0);

	assert_int_equal(sched_match_add(m, &r), 0);
}

static void add_twin(struct sched_match *m, __u8 kind, __u64 key, __u64 ts, __u8 copy)
{
	struct sched_rec r = rec(kind, key, ts, copy);

	assert_int_equal(sched_match_add(m, &r), 0);
}

/* n jobs on RING: queued at 1000 i, run 100 ns later, done 1000 ns after their run. */
static void jobs_in_order(struct sched_match *m, int n)
{
	for (int i = 0; i < n; i++) {
		__u64 t = 1000 * (__u64)(i + 1), key = 0x1000 + 64 * (__u64)i;

		add(m, SCHED_EV_QUEUE, key, t);
		add(m, SCHED_EV_RUN, key, t + 100);
		add(m, SCHED_EV_DONE, key, t + 1100);
	}
}

static bool count_proc(const void *key, void *value, void *arg)
{
	const struct proc_key *k = key;
	const struct proc_stats *v = value;
	__u64 *out = arg;

	if (k->tgid == PID && k->ring == RING) {
		out[0] = v->queued;
		out[1] = v->completed;
		out[2] = v->wait_ns;
		out[3] = !strcmp(v->comm, "submit");
	}
	return false;
}

static void assert_counts(struct sched_match *m, __u64 q, __u64 s, __u64 c)
{
	const struct ring_stats *rs = sched_match_ring(m, RING);

	assert_non_null(rs);
	assert_int_equal(rs->queued, q);
	assert_int_equal(rs->started, s);
	assert_int_equal(rs->completed, c);
}

static __u64 hist_total(const __u64 *slots)
{
	__u64 n = 0;

	for (int i = 0; i < HIST_SLOTS; i++)
		n += slots[i];
	return n;
}

static void in_order(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, false);
	const struct ring_stats *rs;
	__u64 proc[4] = { 0 };

	(void)state;
	jobs_in_order(m, 5);
	sched_match_drain_end(m);
	assert_counts(m, 5, 5, 5);
	rs = sched_match_ring(m, RING);
	assert_int_equal(rs->wait_ns, 5 * 100);
	assert_int_equal(rs->exec_ns, 5 * 1000);
	assert_int_equal(hist_total(rs->hist_wait), 5);
	assert_int_equal(hist_total(rs->hist_exec), 5);
	assert_int_equal(rs->busy_ns, 5 * 1000); /* one job at a time: busy exactly while it runs */
	assert_int_equal(rs->max_queue_depth, 1);
	assert_int_equal(rs->busy_since_ns, 0);
	sched_match_procs(m, count_proc, proc);
	assert_int_equal(proc[0], 5);
	assert_int_equal(proc[1], 5);
	assert_int_equal(proc[2], 500);
	assert_int_equal(proc[3], 1);
	for (int i = 0; i < SCHED_DROP_MAX; i++)
		assert_int_equal(sched_match_drops(m)[i], 0);
	assert_null(sched_match_ring(m, RING + 1));
	sched_match_free(m);
}

/* Records of several CPUs, arriving out of timestamp order in one drain: the same sums. */
static void out_of_order(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, false);
	const struct ring_stats *rs;

	(void)state;
	add(m, SCHED_EV_DONE, 0x1000, 2100); /* done before its run and its queue */
	add(m, SCHED_EV_RUN, 0x1000, 1100);
	add(m, SCHED_EV_QUEUE, 0x2000, 1500);
	add(m, SCHED_EV_QUEUE, 0x1000, 1000);
	add(m, SCHED_EV_DONE, 0x2000, 3000);
	add(m, SCHED_EV_RUN, 0x2000, 2200);
	sched_match_drain_end(m);
	assert_counts(m, 2, 2, 2);
	rs = sched_match_ring(m, RING);
	assert_int_equal(rs->wait_ns, 100 + 700);
	assert_int_equal(rs->exec_ns, 1000 + 800);
	assert_int_equal(rs->busy_ns, (2100 - 1100) + (3000 - 2200));
	for (int i = 0; i < SCHED_DROP_MAX; i++)
		assert_int_equal(sched_match_drops(m)[i], 0);
	sched_match_free(m);
}

/*
 * A run without a queue record (queued before attach) counts as queued then; a
 * done whose start the fence dates before attach (start 0) is not counted, one
 * with a start is counted and timed from it.
 */
static void unmatched(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, false);
	struct sched_rec r;

	(void)state;
	add(m, SCHED_EV_RUN, 0x1000, 100);
	add(m, SCHED_EV_DONE, 0x1000, 600);
	add(m, SCHED_EV_DONE, 0x2000, 700); /* started before attach */
	r = rec(SCHED_EV_DONE, 0x3000, 900, 0);
	r.start_ns = 400; /* its run record lost, its fence stamped */
	assert_int_equal(sched_match_add(m, &r), 0);
	sched_match_drain_end(m);
	assert_counts(m, 1, 1, 2);
	assert_int_equal(sched_match_drops(m)[SCHED_DROP_RUN_UNMATCHED], 1);
	assert_int_equal(sched_match_drops(m)[SCHED_DROP_DONE_UNMATCHED], 1);
	assert_int_equal(sched_match_drops(m)[SCHED_DROP_RUN_RECORD_EVICTED], 1);
	assert_int_equal(sched_match_ring(m, RING)->exec_ns, 500 + 500);
	sched_match_free(m);
}

/*
 * A twin's record of an event the primary wrote too is dropped, in the same
 * drain or the next, before or after the job is done; one the primary did not
 * write is a rescue, counted per kind and copy.
 */
static void twins(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, false);
	const __u64 *rescued;

	(void)state;
	add(m, SCHED_EV_QUEUE, 0x1000, 1000);
	add_twin(m, SCHED_EV_QUEUE, 0x1000, 1001, 1); /* repeat */
	add(m, SCHED_EV_RUN, 0x1000, 1100);
	sched_match_drain_end(m);
	add_twin(m, SCHED_EV_RUN, 0x1000, 1101, 2); /* repeat, next drain */
	add(m, SCHED_EV_DONE, 0x1000, 2000);
	add_twin(m, SCHED_EV_DONE, 0x1000, 2001, 1); /* repeat after the job is gone */
	add_twin(m, SCHED_EV_QUEUE, 0x2000, 3000, 1); /* the primary was skipped */
	add_twin(m, SCHED_EV_RUN, 0x2000, 3100, 2); /* primary and first twin skipped */
	add(m, SCHED_EV_DONE, 0x2000, 4000);
	add_twin(m, SCHED_EV_DEP_WAIT, 0x2000, 3050, 1);
	add(m, SCHED_EV_DEP_WAIT, 0x2000, 3040);
	sched_match_drain_end(m);
	assert_counts(m, 2, 2, 2);
	assert_int_equal(sched_match_ring(m, RING)->dep_waits, 1);
	assert_int_equal(sched_match_twin_repeats(m), 4);
	rescued = sched_match_rescued(m);
	assert_int_equal(rescued[SCHED_EV_QUEUE * SCHED_COPIES + 1], 1);
	assert_int_equal(rescued[SCHED_EV_RUN * SCHED_COPIES + 2], 1);
	assert_int_equal(rescued[SCHED_EV_RUN * SCHED_COPIES + 1], 0);
	assert_int_equal(rescued[SCHED_EV_DONE * SCHED_COPIES + 1], 0);
	sched_match_free(m);
}

/*
 * A table of 4 jobs and 6 queued: the 2 oldest are evicted (counted), and the
 * first run's record takes the place of the oldest waiting one (a third). Each
 * evicted job counts once as started when it runs, with no wait
 * (queue_record_evicted); every job is counted and its execution timed.
 */
static void table_full(void **state)
{
	struct sched_match *m = sched_match_new(4, 100, false);
	const struct ring_stats *rs;

	(void)state;
	for (int i = 0; i < 6; i++)
		add(m, SCHED_EV_QUEUE, 0x1000 + 64 * (__u64)i, 1000 + (__u64)i);
	for (int i = 0; i < 6; i++) {
		add(m, SCHED_EV_RUN, 0x1000 + 64 * (__u64)i, 2000 + 10 * (__u64)i);
		add(m, SCHED_EV_DONE, 0x1000 + 64 * (__u64)i, 2005 + 10 * (__u64)i);
	}
	sched_match_drain_end(m);
	assert_counts(m, 6, 6, 6);
	rs = sched_match_ring(m, RING);
	assert_int_equal(sched_match_drops(m)[SCHED_DROP_JOB_FULL], 3);
	assert_int_equal(sched_match_drops(m)[SCHED_DROP_JOB_EVICTED], 3);
	assert_int_equal(sched_match_drops(m)[SCHED_DROP_RUN_UNMATCHED], 0);
	assert_int_equal(hist_total(rs->hist_wait), 3);
	assert_int_equal(hist_total(rs->hist_exec), 6);
	assert_int_equal(rs->max_queue_depth, 6);
	sched_match_free(m);
}

/* The table itself: keys found, deleted, reused; the oldest goes first. */
static void job_table_order(void **state)
{
	struct job_table t;

	(void)state;
	job_table_init(&t, 3);
	for (__u64 k = 1; k <= 1000; k++) {
		assert_non_null(job_table_put(&t, k * 4096));
		if (k > 3)
			assert_null(job_table_get(&t, (k - 3) * 4096));
		assert_non_null(job_table_get(&t, k * 4096));
	}
	assert_int_equal(t.evicted, 997);
	job_table_del(&t, 999 * 4096);
	assert_non_null(job_table_put(&t, 7));
	assert_int_equal(t.evicted, 997);
	assert_non_null(job_table_get(&t, 998 * 4096));
	assert_non_null(job_table_get(&t, 1000 * 4096));
	assert_null(job_table_get(&t, 999 * 4096));
	job_table_free(&t);
}

/* >= 6.17: dependencies declared before the queue event are counted at it. */
static void deps_parked(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, true);

	(void)state;
	add(m, SCHED_EV_ADD_DEP, 0x1000, 900);
	add(m, SCHED_EV_ADD_DEP, 0x1000, 901);
	add(m, SCHED_EV_QUEUE, 0x1000, 1000);
	add(m, SCHED_EV_RUN, 0x1000, 1100);
	add(m, SCHED_EV_DONE, 0x1000, 1200);
	sched_match_drain_end(m);
	assert_counts(m, 1, 1, 1);
	assert_int_equal(sched_match_ring(m, RING)->deps, 2);
	sched_match_free(m);
}

/* The spans the matcher reported (sched_match_on_job), by seqno. */
struct reported {
	struct job_span spans[8];
	__u32 rings[8];
	size_t n;
};

static void on_job(void *arg, __u32 ring, const struct job_span *span)
{
	struct reported *r = arg;

	assert_true(r->n < 8);
	r->rings[r->n] = ring;
	r->spans[r->n++] = *span;
}

static const struct job_span *reported_seq(const struct reported *r, __u64 seq)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->spans[i].seq == seq)
			return &r->spans[i];
	fail_msg("no span of seqno %llu", (unsigned long long)seq);
	return NULL;
}

/* A dependency record on the job of key dep (its finished fence's job key in start_ns). */
static void add_dep_on(struct sched_match *m, __u8 kind, __u64 key, __u64 ts, __u64 dep)
{
	struct sched_rec r = rec(kind, key, ts, 0);

	r.aux = dep + 64;
	r.start_ns = dep;
	assert_int_equal(sched_match_add(m, &r), 0);
}

/*
 * Each job completed reported once, as the ring counts it: its times, its
 * process, and flows from the job it depended on (declared by add_dep before
 * its queue, >= 6.17, or waited for by dep_wait, <= 6.16), in flight or done already.
 */
static void jobs_reported_with_flows(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, true);
	struct reported r = { .n = 0 };
	const struct job_span *a, *b, *c, *d;
	__u64 flow_a = sched_flow_id(0x1000, 0x1001);

	(void)state;
	sched_match_on_job(m, on_job, &r);
	add(m, SCHED_EV_QUEUE, 0x1000, 1000); /* A */
	add(m, SCHED_EV_RUN, 0x1000, 1100);
	add_dep_on(m, SCHED_EV_ADD_DEP, 0x2000, 1200, 0x1000); /* B depends on A */
	add(m, SCHED_EV_QUEUE, 0x2000, 1300);
	add(m, SCHED_EV_QUEUE, 0x4000, 1250); /* D waits for A */
	add_dep_on(m, SCHED_EV_DEP_WAIT, 0x4000, 1260, 0x1000);
	add_dep_on(m, SCHED_EV_DEP_WAIT, 0x4000, 1270, 0x9000); /* no such job: no flow */
	add(m, SCHED_EV_QUEUE, 0x5000, 2150); /* E waits for A, done by then */
	add_dep_on(m, SCHED_EV_DEP_WAIT, 0x5000, 2160, 0x1000);
	add(m, SCHED_EV_RUN, 0x5000, 2170);
	add(m, SCHED_EV_DONE, 0x5000, 2180);
	add(m, SCHED_EV_RUN, 0x3000, 1500); /* C: queued before attach */
	add(m, SCHED_EV_DONE, 0x3000, 1600);
	add(m, SCHED_EV_DONE, 0x1000, 2100);
	add(m, SCHED_EV_RUN, 0x2000, 2200);
	add(m, SCHED_EV_RUN, 0x4000, 2300);
	add(m, SCHED_EV_DONE, 0x4000, 2400);
	add(m, SCHED_EV_DONE, 0x2000, 3000);
	sched_match_drain_end(m);
	assert_counts(m, 4, 5, 5); /* C's run, with others queued, is taken for an evicted queue's */
	assert_int_equal(r.n, 5);
	for (size_t i = 0; i < r.n; i++)
		assert_int_equal(r.rings[i], RING);
	a = reported_seq(&r, 0x1001);
	assert_int_equal(a->queue_ns, 1000);
	assert_int_equal(a->run_ns, 1100);
	assert_int_equal(a->done_ns, 2100);
	assert_int_equal(a->pid, PID);
	assert_string_equal(a->comm, "submit");
	assert_int_equal(a->flow_id, flow_a);
	assert_int_equal(a->dep_flow_id, 0);
	b = reported_seq(&r, 0x2001);
	assert_int_equal(b->dep_flow_id, flow_a);
	assert_int_equal(b->flow_id, sched_flow_id(0x2000, 0x2001));
	assert_int_equal(b->queue_ns, 1300);
	assert_int_equal(b->pid, PID);
	c = reported_seq(&r, 0x3001);
	assert_int_equal(c->queue_ns, 0);
	assert_int_equal(c->run_ns, 1500);
	assert_int_equal(c->pid, 0);
	assert_int_equal(c->dep_flow_id, 0);
	assert_int_equal(c->flow_id, sched_flow_id(0x3000, 0x3001));
	assert_int_equal(reported_seq(&r, 0x5001)->dep_flow_id, flow_a);
	d = reported_seq(&r, 0x4001);
	assert_int_equal(d->dep_flow_id, flow_a);
	assert_int_equal(d->done_ns, 2400);
	assert_int_equal(sched_match_ring(m, RING)->deps, 1);
	sched_match_free(m);
}

/*
 * A job's fence handed out before its queue event (mockgpu publishes the
 * ring's newest fence between arm and push; the record of the push may come
 * in a later drain): the flow is made when that job queues, on either kernel's
 * events (add_dep, dep_wait), and is not made for a job that never queues.
 */
static void flow_from_job_queued_after_its_dependent(void **state)
{
	struct sched_match *m = sched_match_new(100, 100, true);
	struct reported r = { .n = 0 };

	(void)state;
	sched_match_on_job(m, on_job, &r);
	add_dep_on(m, SCHED_EV_ADD_DEP, 0x7000, 100, 0x6000); /* J on G, G not yet queued */
	add(m, SCHED_EV_QUEUE, 0x7000, 110);
	add(m, SCHED_EV_QUEUE, 0x8000, 120); /* K waits for G */
	add_dep_on(m, SCHED_EV_DEP_WAIT, 0x8000, 130, 0x6000);
	add(m, SCHED_EV_QUEUE, 0x9000, 140); /* L waits for a job never queued */
	add_dep_on(m, SCHED_EV_DEP_WAIT, 0x9000, 150, 0x5000);
	sched_match_drain_end(m);
	add(m, SCHED_EV_QUEUE, 0x6000, 105); /* G's queue, in the next drain */
	add(m, SCHED_EV_RUN, 0x6000, 200);
	add(m, SCHED_EV_DONE, 0x6000, 300);
	add(m, SCHED_EV_RUN, 0x7000, 310);
	add(m, SCHED_EV_DONE, 0x7000, 400);
	add(m, SCHED_EV_RUN, 0x8000, 410);
	add(m, SCHED_EV_DONE, 0x8000, 500);
	add(m, SCHED_EV_RUN, 0x9000, 510);
	add(m, SCHED_EV_DONE, 0x9000, 600);
	sched_match_drain_end(m);
	assert_int_equal(r.n, 4);
	assert_int_equal(reported_seq(&r, 0x7001)->dep_flow_id, sched_flow_id(0x6000, 0x6001));
	assert_int_equal(reported_seq(&r, 0x8001)->dep_flow_id, sched_flow_id(0x6000, 0x6001));
	assert_int_equal(reported_seq(&r, 0x9001)->dep_flow_id, 0);
	assert_int_equal(reported_seq(&r, 0x6001)->dep_flow_id, 0);
	sched_match_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order),
		cmocka_unit_test(out_of_order),
		cmocka_unit_test(unmatched),
		cmocka_unit_test(twins),
		cmocka_unit_test(table_full),
		cmocka_unit_test(job_table_order),
		cmocka_unit_test(deps_parked),
		cmocka_unit_test(jobs_reported_with_flows),
		cmocka_unit_test(flow_from_job_queued_after_its_dependent),
	};
	return cmocka_run_group_tests_name("sched_match", tests, NULL, NULL);
}
