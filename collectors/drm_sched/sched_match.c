// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Each record kind is applied as the map design's BPF handler of that event
 * applies it to its maps (bpf/drm_sched.bpf.c: on_queue, on_run, on_done,
 * on_add_dep, on_dep_wait), with the record's timestamp for the clock.
 */
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "collectors/drm_sched/job_table.h"
#include "collectors/drm_sched/sched_match.h"
#include "core/hist_layout.h"

struct proc_entry {
	struct proc_key key;
	struct proc_stats stats;
};

/* The last SCHED_MATCH_RECENT events of one kind (a ring), to know a twin's repeat. */
struct recent {
	struct {
		__u64 a, b;
	} ev[SCHED_MATCH_RECENT];
	size_t head;
};

/* A job waiting for a job whose queue event is unseen (dep_link). */
struct dep_wait_link {
	__u64 dep_key, job_key;
};

#define DEP_LINKS_PENDING 256

struct sched_match {
	struct ring_stats rings[SCHED_MAX_RINGS];
	bool ring_seen[SCHED_MAX_RINGS];
	struct job_table jobs;
	struct key_index proc_index; /* tgid << 32 | ring -> procs */
	struct proc_entry *procs;
	size_t nprocs, procs_cap, max_procs;
	struct sched_rec_stacked *batch; /* the drain in progress (stack ids -1: none taken) */
	size_t nbatch, batch_cap;
	uint32_t *order; /* the drain's records in the order applied */
	size_t order_cap;
	struct recent recent[SCHED_EV_MAX]; /* done: (key, seq); add_dep, dep_wait: (key, fence) */
	struct dep_wait_link pending[DEP_LINKS_PENDING];
	size_t npending;
	bool track_deps;
	uint64_t gen;
	__u64 drops[SCHED_DROP_MAX];
	__u64 rescued[SCHED_EV_MAX][SCHED_COPIES];
	uint64_t twin_repeats;
	uint64_t oom; /* records or jobs not kept for want of memory */
	sched_job_fn on_job; /* each job completed, NULL: none */
	void *on_job_arg;
};

struct sched_match *sched_match_new(size_t max_jobs, size_t max_procs, bool track_deps)
{
	struct sched_match *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	job_table_init(&m->jobs, max_jobs);
	m->max_procs = max_procs;
	m->track_deps = track_deps;
	return m;
}

void sched_match_free(struct sched_match *m)
{
	if (!m)
		return;
	job_table_free(&m->jobs);
	key_index_free(&m->proc_index);
	free(m->procs);
	free(m->batch);
	free(m->order);
	free(m);
}

int sched_match_add_stacked(struct sched_match *m, const struct sched_rec_stacked *r)
{
	struct sched_rec_stacked *slot = array_push(&m->batch, &m->nbatch, &m->batch_cap,
						    sizeof(*slot));

	if (!slot) {
		m->oom++;
		return -1;
	}
	*slot = *r;
	return 0;
}

int sched_match_add(struct sched_match *m, const struct sched_rec *r)
{
	return sched_match_add_stacked(m, &(struct sched_rec_stacked){
						  .rec = *r, .stack = { .ustack_id = -1, .kstack_id = -1 } });
}

static void recent_note(struct recent *rc, __u64 a, __u64 b)
{
	rc->ev[rc->head % SCHED_MATCH_RECENT].a = a;
	rc->ev[rc->head % SCHED_MATCH_RECENT].b = b;
	rc->head++;
}

static bool recent_has(const struct recent *rc, __u64 a, __u64 b)
{
	for (size_t i = 0; i < SCHED_MATCH_RECENT && i < rc->head; i++)
		if (rc->ev[i].a == a && rc->ev[i].b == b)
			return true;
	return false;
}

static struct ring_stats *ring_at(struct sched_match *m, __u32 id)
{
	if (id >= SCHED_MAX_RINGS)
		return NULL;
	m->ring_seen[id] = true;
	return &m->rings[id];
}

static void hist_add(__u64 *slots, __u64 ns)
{
	slots[hist_slot(ns)]++;
}

static struct proc_stats *proc_get(struct sched_match *m, __u32 tgid, __u32 ring,
				   const char *comm)
{
	uint64_t key = (uint64_t)tgid << 32 | ring;
	struct proc_entry *p;
	uint32_t i;

	if (key_index_get(&m->proc_index, key, &i))
		return &m->procs[i].stats;
	if (!comm)
		return NULL;
	if (m->nprocs >= m->max_procs)
		goto full;
	if (key_index_put(&m->proc_index, key, (uint32_t)m->nprocs))
		goto full;
	p = array_push(&m->procs, &m->nprocs, &m->procs_cap, sizeof(*p));
	if (!p) {
		key_index_del(&m->proc_index, key);
		goto full;
	}
	p->key = (struct proc_key){ .tgid = tgid, .ring = ring };
	memcpy(p->stats.comm, comm, sizeof(p->stats.comm));
	p->stats.comm[sizeof(p->stats.comm) - 1] = '\0';
	return &p->stats;
full:
	m->drops[SCHED_DROP_PROC_FULL]++;
	return NULL;
}

/* The seqno of the job of key among the recent ones done, newest first; false when not there. */
static bool recent_done_seq(const struct recent *rc, __u64 key, __u64 *seq)
{
	for (size_t i = 0; i < SCHED_MATCH_RECENT && i < rc->head; i++) {
		size_t at = (rc->head - 1 - i) % SCHED_MATCH_RECENT;

		if (rc->ev[at].a == key) {
			*seq = rc->ev[at].b;
			return true;
		}
	}
	return false;
}

/*
 * The flow of the job of key (a finished fence's): in flight, or among the
 * recent ones done (a job waiting on that fence holds a reference on it: its
 * address is not another job's meanwhile); 0 while its queue event is unseen.
 */
static uint64_t dep_flow_of(struct sched_match *m, __u64 key)
{
	struct job *d = job_table_get(&m->jobs, key);
	__u64 seq;

	if (d && (d->queue_ns || d->run_ns))
		return sched_flow_id(d->key, d->seq);
	if (recent_done_seq(&m->recent[SCHED_EV_DONE], key, &seq))
		return sched_flow_id(key, seq);
	return 0;
}

/* The links whose job is gone (evicted from the table) go. */
static void dep_links_prune(struct sched_match *m)
{
	const struct job *j;

	for (size_t i = 0; i < m->npending;) {
		j = job_table_get(&m->jobs, m->pending[i].job_key);
		if (j && j->dep_key == m->pending[i].dep_key)
			i++;
		else
			m->pending[i] = m->pending[--m->npending];
	}
}

/* The job of key queued (seqno seq): the jobs waiting for it get its flow. */
static void dep_links_resolve(struct sched_match *m, __u64 key, __u64 seq)
{
	struct job *j;

	for (size_t i = 0; i < m->npending;) {
		if (m->pending[i].dep_key != key) {
			i++;
			continue;
		}
		j = job_table_get(&m->jobs, m->pending[i].job_key);
		if (j && j->dep_key == key) {
			j->dep_flow = sched_flow_id(key, seq);
			j->dep_key = 0;
		}
		m->pending[i] = m->pending[--m->npending];
	}
}

/*
 * A dependency of job j on the job whose key the record names: that job's
 * flow ends at j. A driver may hand out a job's fence before it queues the
 * job (mockgpu publishes its ring's newest fence between arm and push): the
 * link then waits for that job's queue event (dep_links_resolve).
 */
static void dep_link(struct sched_match *m, struct job *j, const struct sched_rec *r)
{
	uint64_t flow;

	if (!j || !r->start_ns || r->start_ns == r->key)
		return;
	flow = dep_flow_of(m, r->start_ns);
	if (flow) {
		j->dep_flow = flow;
		return;
	}
	if (m->npending == DEP_LINKS_PENDING)
		dep_links_prune(m);
	if (m->npending < DEP_LINKS_PENDING) {
		j->dep_key = r->start_ns;
		m->pending[m->npending++] = (struct dep_wait_link){ r->start_ns, r->key };
	} else {
		m->oom++; /* a link not kept */
	}
}

/* Job key reported: its links still waiting go (their job never queued in sight). */
static void dep_links_forget(struct sched_match *m, __u64 job_key)
{
	for (size_t i = 0; i < m->npending;) {
		if (m->pending[i].job_key == job_key)
			m->pending[i] = m->pending[--m->npending];
		else
			i++;
	}
}

static void on_queue(struct sched_match *m, const struct sched_rec *r, const struct sched_stack *st)
{
	struct ring_stats *rs = ring_at(m, r->ring);
	struct proc_stats *ps;
	uint64_t dep_flow, dep_key;
	struct job *j;
	__s64 depth;

	if (!rs)
		return;
	rs->queued++;
	depth = (__s64)(rs->queued - rs->started);
	ring_stats_interval(rs, m->gen);
	if (depth > (__s64)rs->max_queue_depth)
		rs->max_queue_depth = (__u32)depth;
	j = job_table_get(&m->jobs, r->key);
	if (j && (j->queue_ns || j->run_ns))
		j = NULL; /* not a job parked by its add_dep events */
	if (m->track_deps && j && j->pending_deps)
		rs->deps += j->pending_deps;
	dep_flow = j ? j->dep_flow : 0;
	dep_key = j ? j->dep_key : 0;
	j = job_table_put(&m->jobs, r->key);
	if (j) {
		j->dep_flow = dep_flow;
		j->dep_key = dep_key;
		j->seq = r->aux;
		j->ring = r->ring;
		j->queue_ns = r->ts_ns;
		j->tgid = r->tgid;
		j->caller = st->caller;
		j->ustack_id = st->ustack_id;
		j->kstack_id = st->kstack_id;
	} else {
		m->oom++;
	}
	ps = proc_get(m, r->tgid, r->ring, r->comm);
	if (ps)
		ps->queued++;
	if (m->npending)
		dep_links_resolve(m, r->key, r->aux);
}

/* One more of its jobs on the hardware: the first opens its busy span. */
static void proc_busy_start(struct proc_stats *ps, __u64 now)
{
	if (ps->in_flight++ == 0)
		ps->busy_since_ns = now;
}

/* One of its jobs done: the last closes its busy span. */
static void proc_busy_end(struct proc_stats *ps, __u64 now)
{
	__u64 since = ps->busy_since_ns;

	if (ps->in_flight-- == 1 && since && now > since) {
		ps->busy_since_ns = 0;
		ps->busy_ns += now - since;
	}
}

/* A run matched to its queue record: its wait timed. */
static struct ring_stats *run_matched(struct sched_match *m, struct job *j, __u64 now)
{
	struct ring_stats *rs = ring_at(m, j->ring);
	__u64 wait = now > j->queue_ns ? now - j->queue_ns : 0;
	struct proc_stats *ps;

	j->run_ns = now;
	if (!rs)
		return NULL;
	hist_add(rs->hist_wait, wait);
	rs->wait_ns += wait;
	ring_stats_interval(rs, m->gen);
	if (wait > rs->max_wait_ns)
		rs->max_wait_ns = wait;
	ps = proc_get(m, j->tgid, j->ring, NULL);
	if (ps) {
		ps->wait_ns += wait;
		proc_busy_start(ps, now);
		j->proc_running = 1;
	}
	return rs;
}

/*
 * A run without its queue record: queued before we attached (counted queued
 * now), or its record was evicted (counted at its queue: queued > started).
 */
static struct ring_stats *run_unmatched(struct sched_match *m, const struct sched_rec *r)
{
	struct ring_stats *rs = ring_at(m, r->ring);
	struct job *j;

	if (!rs)
		return NULL;
	if (rs->queued > rs->started) {
		m->drops[SCHED_DROP_JOB_EVICTED]++;
	} else {
		m->drops[SCHED_DROP_RUN_UNMATCHED]++;
		rs->queued++;
	}
	j = job_table_put(&m->jobs, r->key);
	if (j) {
		j->seq = r->aux;
		j->ring = r->ring;
		j->run_ns = r->ts_ns;
	} else {
		m->oom++;
	}
	return rs;
}

static void on_run(struct sched_match *m, const struct sched_rec *r)
{
	struct job *j = job_table_get(&m->jobs, r->key);
	struct ring_stats *rs;
	__u64 in_flight;

	if (j && j->seq == r->aux && j->queue_ns && !j->run_ns)
		rs = run_matched(m, j, r->ts_ns);
	else
		rs = run_unmatched(m, r);
	if (!rs)
		return;
	rs->started++;
	in_flight = rs->started - rs->completed;
	if (in_flight == 1)
		rs->busy_since_ns = r->ts_ns;
	ring_stats_interval(rs, m->gen);
	if ((__s64)in_flight > (__s64)rs->max_in_flight)
		rs->max_in_flight = (__u32)in_flight;
}

/* Its run was skipped by every copy, or its record lost: recovered from its scheduled fence. */
static struct ring_stats *done_run_lost(struct sched_match *m, const struct job *j,
					const struct sched_rec *r, __u64 *exec,
					struct proc_stats **ps)
{
	struct ring_stats *rs = ring_at(m, j->ring);
	__u64 start = r->start_ns;

	if (!rs)
		return NULL;
	if (start > 1 && start >= j->queue_ns && r->ts_ns > start) {
		hist_add(rs->hist_wait, start - j->queue_ns);
		rs->wait_ns += start - j->queue_ns;
		*exec = r->ts_ns - start;
	}
	rs->started++;
	*ps = proc_get(m, j->tgid, j->ring, NULL);
	return rs;
}

/* The ring's side of a job done: counted, timed, its busy span closed when it idles. */
static void done_count(struct sched_match *m, struct ring_stats *rs, __u64 now, __u64 exec)
{
	__u64 since = rs->busy_since_ns;

	rs->completed++;
	if (exec) {
		hist_add(rs->hist_exec, exec);
		rs->exec_ns += exec;
		ring_stats_interval(rs, m->gen);
		if (exec > rs->max_exec_ns)
			rs->max_exec_ns = exec;
	}
	if (rs->started == rs->completed && since) {
		rs->busy_since_ns = 0;
		rs->busy_ns += now - since;
	}
}

uint64_t sched_flow_id(uint64_t key, uint64_t seq)
{
	uint64_t h = key ^ (seq * 0x9e3779b97f4a7c15ULL);

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h ? h : 1;
}

/* A job counted completed on ring, to the callback: what is known of it (j: NULL when nothing). */
static void job_report(struct sched_match *m, const struct job *j, const struct sched_rec *r,
		       __u32 ring)
{
	struct job_span s = { .seq = r->aux, .done_ns = r->ts_ns,
			      .flow_id = sched_flow_id(r->key, r->aux), .ustack_id = -1,
			      .kstack_id = -1 };
	const struct proc_stats *ps;

	if (!m->on_job)
		return;
	if (j) {
		s.queue_ns = j->queue_ns;
		s.run_ns = j->run_ns;
		s.dep_flow_id = j->dep_flow;
		ps = j->queue_ns ? proc_get(m, j->tgid, j->ring, NULL) : NULL;
		if (ps) {
			s.ustack_id = j->ustack_id;
			s.kstack_id = j->kstack_id;
			s.caller = j->caller;
			s.pid = j->tgid;
			memcpy(s.comm, ps->comm, sizeof(s.comm));
			s.comm[sizeof(s.comm) - 1] = '\0';
		}
	}
	/* its run record lost or evicted: the start its scheduled fence stamped */
	if (!s.run_ns && r->start_ns > 1 && r->start_ns >= s.queue_ns && r->start_ns < r->ts_ns)
		s.run_ns = r->start_ns;
	m->on_job(m->on_job_arg, ring, &s);
}

static void on_done(struct sched_match *m, const struct sched_rec *r)
{
	struct job *j = job_table_get(&m->jobs, r->key);
	struct proc_stats *ps = NULL;
	struct ring_stats *rs;
	__u64 exec = 0, now = r->ts_ns;

	if (j && j->seq != r->aux)
		j = NULL; /* another job's record under a reused address */
	recent_note(&m->recent[SCHED_EV_DONE], r->key, r->aux);
	if (j && j->run_ns) {
		exec = now > j->run_ns ? now - j->run_ns : 0;
		rs = ring_at(m, j->ring);
		if (j->queue_ns)
			ps = proc_get(m, j->tgid, j->ring, NULL);
		if (ps && j->proc_running)
			proc_busy_end(ps, now);
	} else if (j && j->queue_ns) {
		rs = done_run_lost(m, j, r, &exec, &ps);
	} else if (!r->start_ns) { /* started before we attached */
		m->drops[SCHED_DROP_DONE_UNMATCHED]++;
		rs = NULL;
	} else {
		m->drops[SCHED_DROP_RUN_RECORD_EVICTED]++;
		exec = r->start_ns > 1 && now > r->start_ns ? now - r->start_ns : 0;
		rs = ring_at(m, r->ring);
	}
	if (rs)
		job_report(m, j, r, j ? j->ring : r->ring);
	if (j && j->dep_key)
		dep_links_forget(m, r->key);
	if (j)
		job_table_del(&m->jobs, r->key);
	if (!rs)
		return;
	done_count(m, rs, now, exec);
	if (ps)
		ps->completed++;
}

/* >= 6.17: add_dep precedes the queue event; the count is parked on the job until then. */
static void on_add_dep(struct sched_match *m, const struct sched_rec *r)
{
	struct job *j = job_table_get(&m->jobs, r->key);
	struct ring_stats *rs;

	recent_note(&m->recent[SCHED_EV_ADD_DEP], r->key, r->aux);
	if (!j) {
		j = job_table_put(&m->jobs, r->key);
		if (!j) {
			m->oom++;
			return;
		}
		j->ring = RING_NONE;
		j->pending_deps = 1;
		dep_link(m, j, r);
		return;
	}
	dep_link(m, j, r);
	if (!j->queue_ns && !j->run_ns) {
		j->pending_deps++;
		return;
	}
	rs = ring_at(m, j->ring);
	if (rs)
		rs->deps++;
}

static void on_dep_wait(struct sched_match *m, const struct sched_rec *r)
{
	struct ring_stats *rs = ring_at(m, r->ring);

	recent_note(&m->recent[SCHED_EV_DEP_WAIT], r->key, r->aux);
	dep_link(m, job_table_get(&m->jobs, r->key), r);
	if (rs)
		rs->dep_waits++;
}

/*
 * Whether a twin's record repeats an event already applied: the job holds that
 * event (same seqno), or the event is among the recent ones of its kind.
 */
static bool twin_repeat(struct sched_match *m, const struct sched_rec *r)
{
	struct job *j;

	if (r->kind == SCHED_EV_QUEUE || r->kind == SCHED_EV_RUN) {
		j = job_table_get(&m->jobs, r->key);
		if (j && j->seq == r->aux && (r->kind == SCHED_EV_QUEUE ? j->queue_ns : j->run_ns))
			return true;
		return recent_has(&m->recent[SCHED_EV_DONE], r->key, r->aux);
	}
	return recent_has(&m->recent[r->kind], r->key, r->aux);
}

static void apply(struct sched_match *m, const struct sched_rec_stacked *x)
{
	const struct sched_rec *r = &x->rec;

	if (r->kind >= SCHED_EV_MAX)
		return;
	if (r->copy) {
		if (twin_repeat(m, r)) {
			m->twin_repeats++;
			return;
		}
		if (r->copy < SCHED_COPIES)
			m->rescued[r->kind][r->copy]++;
	}
	switch (r->kind) {
	case SCHED_EV_QUEUE:
		on_queue(m, r, &x->stack);
		break;
	case SCHED_EV_RUN:
		on_run(m, r);
		break;
	case SCHED_EV_DONE:
		on_done(m, r);
		break;
	case SCHED_EV_ADD_DEP:
		on_add_dep(m, r);
		break;
	default:
		on_dep_wait(m, r);
	}
}

/* Timestamp order; arrival order among equal timestamps. */
static int by_time(const void *a, const void *b, void *arg)
{
	const struct sched_rec_stacked *batch = arg;
	uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;

	if (batch[i].rec.ts_ns != batch[k].rec.ts_ns)
		return batch[i].rec.ts_ns < batch[k].rec.ts_ns ? -1 : 1;
	return i < k ? -1 : i > k;
}

void sched_match_drain_end(struct sched_match *m)
{
	if (m->nbatch > m->order_cap) {
		uint32_t *o = realloc(m->order, m->batch_cap * sizeof(*o));

		if (!o) { /* arrival order then: from one ring buffer, nearly the same */
			for (size_t i = 0; i < m->nbatch; i++)
				apply(m, &m->batch[i]);
			goto out;
		}
		m->order = o;
		m->order_cap = m->batch_cap;
	}
	for (size_t i = 0; i < m->nbatch; i++)
		m->order[i] = (uint32_t)i;
	qsort_r(m->order, m->nbatch, sizeof(*m->order), by_time, m->batch);
	for (size_t i = 0; i < m->nbatch; i++)
		apply(m, &m->batch[m->order[i]]);
out:
	m->nbatch = 0;
	m->drops[SCHED_DROP_JOB_FULL] = m->jobs.evicted + m->oom;
}

const struct ring_stats *sched_match_ring(const struct sched_match *m, __u32 id)
{
	return id < SCHED_MAX_RINGS && m->ring_seen[id] ? &m->rings[id] : NULL;
}

void sched_match_procs(struct sched_match *m,
		       bool (*fn)(const void *key, void *value, void *arg),
		       void *arg)
{
	for (size_t i = 0; i < m->nprocs;) {
		struct proc_entry *p = &m->procs[i];

		if (!fn(&p->key, &p->stats, arg)) {
			i++;
			continue;
		}
		/* forgotten: the last entry takes its place */
		key_index_del(&m->proc_index, (uint64_t)p->key.tgid << 32 | p->key.ring);
		if (i != --m->nprocs) {
			*p = m->procs[m->nprocs];
			key_index_put(&m->proc_index, (uint64_t)p->key.tgid << 32 | p->key.ring,
				      (uint32_t)i);
		}
	}
}

void sched_match_interval(struct sched_match *m, uint64_t gen)
{
	m->gen = gen;
}

const __u64 *sched_match_drops(const struct sched_match *m)
{
	return m->drops;
}

const __u64 *sched_match_rescued(const struct sched_match *m)
{
	return &m->rescued[0][0];
}

uint64_t sched_match_twin_repeats(const struct sched_match *m)
{
	return m->twin_repeats;
}

void sched_match_on_job(struct sched_match *m, sched_job_fn fn, void *arg)
{
	m->on_job = fn;
	m->on_job_arg = arg;
}
