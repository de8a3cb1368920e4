// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/drm_sched/sched_stream.h"
#include "collectors/kit/ring_reader.h"
#include "drm_sched_stream.skel.h"

struct sched_stream {
	struct drm_sched_stream_bpf *skel;
	struct ring_buffer *rb;
	struct sched_match *match;
	sched_queue_fn on_queue; /* --stacks: each stacked queue record's process */
	void *on_queue_arg;
	sched_sample_fn on_sample; /* --stacks: each stack copy */
	void *on_sample_arg;
	struct ring_reader reader; /* its lock: the matcher's (the draining thread, or a tick's read) */
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct sched_stream *s = ctx;

	const struct sched_rec *r = data;

	if (size >= sizeof(struct sched_rec_stacked)) {
		if (s->on_queue && r->kind == SCHED_EV_QUEUE)
			s->on_queue(s->on_queue_arg, r->tgid, r->comm);
		sched_match_add_stacked(s->match, data);
	}
	else if (size >= sizeof(struct sched_rec))
		sched_match_add(s->match, data);
	return 0;
}

static int on_sample_rec(void *ctx, void *data, size_t size)
{
	struct sched_stream *s = ctx;

	s->on_sample(s->on_sample_arg, data, size);
	return 0;
}

/* The lock held: every record committed so far, applied. */
static void drain(void *arg)
{
	struct sched_stream *s = arg;

	ring_buffer__consume(s->rb);
	sched_match_drain_end(s->match);
}

struct sched_stream *sched_stream_open(struct tp_prog *tps, const struct tp_spec *specs, size_t n,
				       bool track_deps, bool stacks, __u64 spin_ns, int *err)
{
	struct sched_stream *s = calloc(1, sizeof(*s));

	*err = -ENOMEM;
	if (!s)
		return NULL;
	ring_reader_init(&s->reader, NULL, SCHED_STREAM_PERIOD_MS, drain, s);
	s->match = sched_match_new(SCHED_STREAM_MAX_JOBS, SCHED_STREAM_MAX_PROCS, track_deps);
	s->skel = drm_sched_stream_bpf__open();
	if (!s->match || !s->skel)
		goto fail;
	if (tp_progs_open(tps, specs, n, s->skel->obj, sched_match_rescued(s->match))) {
		*err = -ENOENT;
		goto fail;
	}
	s->skel->rodata->capture_stacks = stacks;
	if (!stacks) { /* off: no room kept for stacks */
		bpf_map__set_max_entries(s->skel->maps.stacks, 1);
		bpf_map__set_max_entries(s->skel->maps.sampled, 1);
	} else if (bpf_map__set_max_entries(s->skel->maps.samples, USER_STACK_SAMPLE_RING)) {
		goto fail;
	}
#ifdef GPUTOP_TEST_HOOKS
	s->skel->rodata->test_spin_ns = spin_ns;
#else
	(void)spin_ns;
#endif
	*err = drm_sched_stream_bpf__load(s->skel);
	if (*err)
		goto fail;
	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_record, s, NULL);
	if (!s->rb) {
		*err = -errno;
		goto fail;
	}
	s->reader.rb = s->rb;
	return s;
fail:
	sched_stream_close(s);
	return NULL;
}

void sched_stream_set_attach_ns(struct sched_stream *s, __u64 ns)
{
	s->skel->bss->attach_ns = ns;
}

int sched_stream_start(struct sched_stream *s)
{
	return ring_reader_start(&s->reader);
}

struct sched_match *sched_stream_lock(struct sched_stream *s)
{
	ring_reader_lock(&s->reader);
	return s->match;
}

void sched_stream_unlock(struct sched_stream *s)
{
	ring_reader_unlock(&s->reader);
}

void sched_stream_on_job(struct sched_stream *s, sched_job_fn fn, void *arg)
{
	sched_match_on_job(s->match, fn, arg);
}

int sched_stream_ring_ids_fd(const struct sched_stream *s)
{
	return bpf_map__fd(s->skel->maps.ring_ids);
}

int sched_stream_on_sample(struct sched_stream *s, sched_sample_fn fn, void *arg)
{
	s->on_sample = fn;
	s->on_sample_arg = arg;
	return ring_buffer__add(s->rb, bpf_map__fd(s->skel->maps.samples), on_sample_rec, s);
}

__u64 sched_stream_samples_lost(const struct sched_stream *s)
{
	return s->skel->bss->samples_lost;
}

void sched_stream_on_queue(struct sched_stream *s, sched_queue_fn fn, void *arg)
{
	s->on_queue = fn;
	s->on_queue_arg = arg;
}

int sched_stream_stacks_fd(const struct sched_stream *s)
{
	return bpf_map__fd(s->skel->maps.stacks);
}

const __u64 *sched_stream_rb_full(const struct sched_stream *s)
{
	return s->skel->bss->rb_full;
}

__u64 sched_stream_ring_full(const struct sched_stream *s)
{
	return s->skel->bss->drops[SCHED_DROP_RING_FULL];
}

void sched_stream_close(struct sched_stream *s)
{
	if (!s)
		return;
	ring_reader_stop(&s->reader);
	ring_buffer__free(s->rb);
	drm_sched_stream_bpf__destroy(s->skel);
	sched_match_free(s->match);
	free(s);
}
