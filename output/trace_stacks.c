// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Jobs' CPU stacks as interned Perfetto callstacks (trace_stacks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/trace_stacks.h"
#include "symbols/frame.h"

static bool stacks_ready(struct trace_stacks *ts)
{
	if (ts->ready || ts->failed)
		return ts->ready;
	ts->iids = calloc(TRACE_STACKS_MAX, sizeof(*ts->iids));
	ts->frames = calloc(PERFETTO_STACK_MAX, sizeof(*ts->frames));
	ts->pf = calloc(PERFETTO_STACK_MAX, sizeof(*ts->pf));
	ts->names = calloc(PERFETTO_STACK_MAX, sizeof(*ts->names));
	if (ts->iids && ts->frames && ts->pf && ts->names && !perfetto_intern_init(&ts->keys)) {
		ts->ready = true;
		return true;
	}
	ts->failed = true;
	trace_stacks_free(ts);
	return false;
}

/* s's frames read (leaf first) and written as a callstack (root first): its iid, 0 when none. */
static uint64_t stack_write(struct trace_stacks *ts, struct perfetto_writer *w,
			    const struct job_span *s, uint64_t ts_ns)
{
	size_t n = s->stacks->frames(s->stacks, s, ts->frames, PERFETTO_STACK_MAX);
	uint64_t iid = 0;

	if (n > PERFETTO_STACK_MAX)
		n = PERFETTO_STACK_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &ts->frames[n - 1 - i];

		frame_text(f, false, ts->names[i], sizeof(ts->names[i]));
		ts->pf[i] = (struct perfetto_frame){ .name = ts->names[i],
						     .kernel = !strcmp(f->module, "[kernel]") };
	}
	if (n && !perfetto_callstack(w, ts_ns, ts->pf, n, &iid))
		ts->written++;
	return iid;
}

uint64_t trace_stacks_job(struct trace_stacks *ts, struct perfetto_writer *w,
			  const struct job_span *s, uint64_t ts_ns)
{
	char key[80];
	uint64_t k, iid = 0;

	if (!s->stacks || !s->stacks->frames || !s->pid)
		return 0;
	snprintf(key, sizeof(key), "%u/%d/%d/%llx", s->pid, s->ustack_id, s->kstack_id,
		 (unsigned long long)s->caller);
	if (stacks_ready(ts)) {
		k = perfetto_intern_find(&ts->keys, key);
		if (k) {
			iid = ts->iids[k - 1];
		} else if (perfetto_intern_add(&ts->keys, key)) {
			iid = stack_write(ts, w, s, ts_ns);
			ts->iids[ts->keys.n - 1] = iid;
		}
	}
	if (!iid) {
		ts->lost++;
		perfetto_count_stack_lost(w, 1);
	}
	return iid;
}

void trace_stacks_free(struct trace_stacks *ts)
{
	perfetto_intern_free(&ts->keys);
	free(ts->iids);
	free(ts->frames);
	free(ts->pf);
	free(ts->names);
	ts->iids = NULL;
	ts->frames = NULL;
	ts->pf = NULL;
	ts->names = NULL;
	ts->ready = false;
}
