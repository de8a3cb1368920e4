// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* GPU jobs as slices on their rings' lanes (trace_jobs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/trace_jobs.h"

void trace_jobs_init(struct trace_jobs *tj, struct trace_counters *tc, int64_t wall_minus_mono_ns)
{
	memset(tj, 0, sizeof(*tj));
	tj->tc = tc;
	tj->wall_minus_mono_ns = wall_minus_mono_ns;
	laned_tracks_init(&tj->rings, TRACE_JOBS_RINGS);
}

void trace_jobs_free(struct trace_jobs *tj)
{
	laned_tracks_free(&tj->rings);
}

/* The ring's track, described under its device's the first time; NULL when it cannot be. */
static struct laned_track *ring_get(struct trace_jobs *tj, const struct job_span *s)
{
	char key[3 * JOB_SPAN_NAME_LEN], name[2 * JOB_SPAN_NAME_LEN + 2];

	snprintf(key, sizeof(key), "ring\x1f%.31s\x1f%.31s", s->dev, s->ring);
	snprintf(name, sizeof(name), "%.31s%s%.31s", s->dev, *s->dev ? " " : "", s->ring);
	return laned_track_get(&tj->rings, tj->tc, *s->dev ? s->dev : "-", key, name);
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
	struct laned_track *r = ring_get(tj, s);
	bool running = s->queue_ns && s->run_ns >= s->queue_ns && s->run_ns <= s->done_ns;

	start += off;
	e.track_uuid = r ? laned_track_lane(tj->tc, r, start, end) : 0;
	if (!e.track_uuid) {
		perfetto_count_dropped(&tj->tc->w, 1);
		tj->lost++;
		return;
	}
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
