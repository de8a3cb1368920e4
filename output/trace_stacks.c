// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Jobs' and launches' CPU stacks as interned Perfetto callstacks (trace_stacks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/trace_stacks.h"

static bool stacks_ready(struct trace_stacks *ts)
{
	if (ts->ready || ts->failed)
		return ts->ready;
	ts->iids = calloc(TRACE_STACKS_MAX, sizeof(*ts->iids));
	ts->frames = calloc(PERFETTO_STACK_MAX, sizeof(*ts->frames));
	ts->pf = calloc(PERFETTO_STACK_MAX, sizeof(*ts->pf));
	if (ts->iids && ts->frames && ts->pf && !perfetto_intern_init(&ts->keys)) {
		ts->ready = true;
		return true;
	}
	ts->failed = true;
	trace_stacks_free(ts);
	return false;
}

/* r's frames read (leaf first) and written as a callstack (root first): its iid, 0 when none. */
static uint64_t stack_write(struct trace_stacks *ts, struct perfetto_writer *w,
			    const struct span_stacks *src, const struct stack_ref *r, uint64_t ts_ns)
{
	size_t n = src->frames(src, r, ts->frames, PERFETTO_STACK_MAX);
	uint64_t iid = 0;

	if (n > PERFETTO_STACK_MAX)
		n = PERFETTO_STACK_MAX;
	for (size_t i = 0; i < n; i++) {
		struct span_frame *f = &ts->frames[n - 1 - i];

		f->name[sizeof(f->name) - 1] = '\0';
		ts->pf[i] = (struct perfetto_frame){ .name = f->name, .kernel = f->kernel };
	}
	if (n && !perfetto_callstack(w, ts_ns, ts->pf, n, &iid))
		ts->written++;
	return iid;
}

uint64_t trace_stacks_iid(struct trace_stacks *ts, struct perfetto_writer *w,
			  const struct span_stacks *src, const struct stack_ref *r, uint64_t ts_ns)
{
	char key[128];
	uint64_t k, iid = 0;

	if (!src || !src->frames || !r->pid)
		return 0;
	snprintf(key, sizeof(key), "%p/%u/%d/%d/%llx/%llx", (const void *)src, r->pid, r->ustack_id,
		 r->kstack_id, (unsigned long long)r->caller, (unsigned long long)r->aux);
	if (stacks_ready(ts)) {
		k = perfetto_intern_find(&ts->keys, key);
		if (k) {
			iid = ts->iids[k - 1];
		} else if (perfetto_intern_add(&ts->keys, key)) {
			iid = stack_write(ts, w, src, r, ts_ns);
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
	ts->iids = NULL;
	ts->frames = NULL;
	ts->pf = NULL;
	ts->ready = false;
}
