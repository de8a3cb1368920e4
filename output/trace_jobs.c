// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU jobs as slices on their rings' lanes (trace_jobs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/trace_jobs.h"

struct trace_ring {
	char dev[JOB_SPAN_NAME_LEN], name[JOB_SPAN_NAME_LEN];
	uint64_t uuid; /* the ring's track */
	struct span_lanes lanes;
};

void trace_jobs_init(struct trace_jobs *tj, struct trace_counters *tc, int64_t wall_minus_mono_ns)
{
	memset(tj, 0, sizeof(*tj));
	tj->tc = tc;
	tj->wall_minus_mono_ns = wall_minus_mono_ns;
}

void trace_jobs_free(struct trace_jobs *tj)
{
	for (size_t i = 0; i < tj->nrings; i++)
		free(tj->rings[i]);
	tj->nrings = 0;
}

/* The ring's track, described under its device's the first time; NULL when it cannot be. */
static struct trace_ring *ring_get(struct trace_jobs *tj, const struct job_span *s)
{
	char key[3 * JOB_SPAN_NAME_LEN], name[2 * JOB_SPAN_NAME_LEN + 2];
	struct trace_ring *r;
	uint64_t device;

	for (size_t i = 0; i < tj->nrings; i++) {
		r = tj->rings[i];
		if (!strncmp(r->dev, s->dev, sizeof(r->dev)) &&
		    !strncmp(r->name, s->ring, sizeof(r->name)))
			return r;
	}
	if (tj->nrings >= TRACE_JOBS_RINGS)
		return NULL;
	device = trace_device_track(tj->tc, *s->dev ? s->dev : "-");
	snprintf(key, sizeof(key), "ring\x1f%.31s\x1f%.31s", s->dev, s->ring);
	snprintf(name, sizeof(name), "%.31s%s%.31s", s->dev, *s->dev ? " " : "", s->ring);
	if (!device || !trace_track_ready(tj->tc, key, device, name, PERFETTO_TRACK_PLAIN,
					  PERFETTO_UNIT_NONE))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	snprintf(r->dev, sizeof(r->dev), "%.31s", s->dev);
	snprintf(r->name, sizeof(r->name), "%.31s", s->ring);
	r->uuid = trace_key_uuid(key);
	span_lanes_init(&r->lanes);
	tj->rings[tj->nrings++] = r;
	return r;
}

/* A lane for the job from start to end, its track described the first time; -1: none. */
static int lane_get(struct trace_jobs *tj, struct trace_ring *r, uint64_t start, uint64_t end)
{
	int lane = span_lanes_fit(&r->lanes, start, end);

	if (lane < 0 || r->lanes.described[lane])
		return lane;
	if (perfetto_lane_track(&tj->tc->w, r->uuid, lane))
		return -1;
	r->lanes.described[lane] = 1;
	return lane;
}

/* The job's slice begun: its name, process, seqno and flows. 0, or the writer's error. */
static int job_begin(struct trace_jobs *tj, const struct job_span *s, uint64_t ts, uint64_t track)
{
	char name[JOB_SPAN_COMM_LEN + 16];
	struct perfetto_arg args[] = {
		{ .name = "seqno", .type = PERFETTO_ARG_UINT, .u = s->seq },
		{ .name = "pid", .type = PERFETTO_ARG_UINT, .u = s->pid },
	};
	struct perfetto_event e = {
		.ts_ns = ts,
		.track_uuid = track,
		.type = PERFETTO_SLICE_BEGIN,
		.name = name,
		.flow_ids = &s->flow_id,
		.n_flow_ids = s->flow_id != 0,
		.terminating_flow_ids = &s->dep_flow_id,
		.n_terminating_flow_ids = s->dep_flow_id != 0,
		.args = args,
		.n_args = s->pid ? 2 : 1,
	};
	struct stack_ref ref = { .pid = s->pid, .ustack_id = s->ustack_id, .kstack_id = s->kstack_id,
				 .caller = s->caller };

	e.callstack_iid = trace_stacks_iid(&tj->tc->stacks, &tj->tc->w, s->stacks, &ref, ts);
	if (s->pid)
		snprintf(name, sizeof(name), "%.15s %u", *s->comm ? s->comm : "?", s->pid);
	else
		snprintf(name, sizeof(name), "job");
	return perfetto_event(&tj->tc->w, &e);
}

/* One job: its slice, the "running" one in it from its run, both ended at done. */
static void job_write(struct trace_jobs *tj, const struct job_span *s)
{
	uint64_t start = s->queue_ns ? s->queue_ns : s->run_ns ? s->run_ns : s->done_ns;
	uint64_t off = (uint64_t)tj->wall_minus_mono_ns, end = s->done_ns + off;
	struct perfetto_event e = { .type = PERFETTO_SLICE_BEGIN, .name = "running" };
	struct trace_ring *r = ring_get(tj, s);
	bool running = s->queue_ns && s->run_ns >= s->queue_ns && s->run_ns <= s->done_ns;
	int lane;

	start += off;
	lane = r ? lane_get(tj, r, start, end) : -1;
	if (lane < 0) {
		perfetto_count_dropped(&tj->tc->w, 1);
		tj->lost++;
		return;
	}
	e.track_uuid = perfetto_lane_uuid(r->uuid, lane);
	if (job_begin(tj, s, start, e.track_uuid)) {
		tj->lost++; /* counted by the writer */
		return;
	}
	e.ts_ns = s->run_ns + off;
	running = running && !perfetto_event(&tj->tc->w, &e);
	e.type = PERFETTO_SLICE_END;
	e.name = NULL;
	e.ts_ns = end;
	if (running)
		perfetto_event_closing(&tj->tc->w, &e);
	perfetto_event_closing(&tj->tc->w, &e);
	tj->slices++;
}

void trace_jobs_add(struct trace_jobs *tj, const struct job_span *spans, size_t n, uint64_t lost)
{
	if (lost) {
		perfetto_count_lost(&tj->tc->w, lost);
		tj->lost += lost;
	}
	for (size_t i = 0; i < n; i++)
		job_write(tj, &spans[i]);
}
