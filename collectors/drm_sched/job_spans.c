// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include "collectors/drm_sched/job_spans.h"

void job_spans_free(struct job_spans *b)
{
	free(b->spans);
	free(b->rings);
	b->spans = NULL;
	b->rings = NULL;
	b->n = b->cap = 0;
}

/* Room for one more: doubling, up to JOB_SPANS_MAX. */
static int grow(struct job_spans *b)
{
	size_t cap = b->cap ? 2 * b->cap : 1024;
	struct job_span *spans;
	__u32 *rings;

	if (b->n < b->cap)
		return 0;
	if (b->cap >= JOB_SPANS_MAX)
		return -1;
	if (cap > JOB_SPANS_MAX)
		cap = JOB_SPANS_MAX;
	spans = realloc(b->spans, cap * sizeof(*spans));
	if (!spans)
		return -1;
	b->spans = spans;
	rings = realloc(b->rings, cap * sizeof(*rings));
	if (!rings)
		return -1;
	b->rings = rings;
	b->cap = cap;
	return 0;
}

void job_spans_add(void *arg, __u32 ring, const struct job_span *span)
{
	struct job_spans *b = arg;

	if (b->active && !atomic_load(b->active))
		return;
	if (grow(b)) {
		b->lost++;
		return;
	}
	b->spans[b->n] = *span;
	b->rings[b->n] = ring;
	b->n++;
}

void job_spans_flush(struct job_spans *b, const struct ring_key *keys, const struct job_sink *sink)
{
	for (size_t i = 0; i < b->n; i++) {
		struct job_span *s = &b->spans[i];
		__u32 id = b->rings[i];

		s->stacks = b->stacks;

		if (id < SCHED_MAX_RINGS && keys[id].name[0]) {
			snprintf(s->dev, sizeof(s->dev), "%.*s", DEV_NAME_LEN - 1, keys[id].dev);
			snprintf(s->ring, sizeof(s->ring), "%.*s", RING_NAME_LEN - 1, keys[id].name);
		} else {
			snprintf(s->ring, sizeof(s->ring), "ring %u", id);
		}
	}
	if (sink && sink->jobs && (b->n || b->lost))
		sink->jobs(sink->arg, b->spans, b->n, b->lost);
	b->n = 0;
	b->lost = 0;
}
