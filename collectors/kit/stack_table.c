// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "collectors/kit/stack_table.h"
#include "core/array.h"
#include "symbols/folded.h"

_Static_assert(FOLDED_TEXT_MAX <= TABLE_LONG_STR_MAX, "a stack's text fits its cell");

static const struct col_desc stack_cols[STACK_COLS] = {
	[STACK_PID] = { "pid", "PID", "the process (thread group) the stack is of", COL_U64, UNIT_NONE, 7,
			COL_KEY | COL_ASCENDING },
	[STACK_COMM] = { "comm", "COMM", "its command name", COL_STR, UNIT_NONE, 16, COL_ASCENDING },
	[STACK_SOURCE] = { "source", "SOURCE",
			   "where the stack was taken: launch (CUDA), job (DRM scheduler), call (GPU ioctl or fence wait) or sync (CUDA)",
			   COL_STR, UNIT_NONE, 7, COL_KEY | COL_ASCENDING },
	[STACK_LEAF] = { "leaf", "LEAF",
			 "the GPU kernel launched, the job's ring as \"DEV NAME\", the ioctl's command, \"fence wait\", or the sync's function",
			 COL_STR, UNIT_NONE, 24, COL_KEY | COL_ASCENDING | COL_LONG },
	[STACK_FRAMES] = { "frames", "STACK",
			   "user and kernel frames, root first, joined by ';' (folded-stack escapes); [truncated] first where cut",
			   COL_STR, UNIT_NONE, 40, COL_KEY | COL_LONG | COL_DETAIL },
	[STACK_COUNT] = { "count", "COUNT", "launches, jobs, calls or syncs from this stack since the capture began",
			  COL_U64, UNIT_COUNT, 8, COL_CUMULATIVE },
	[STACK_GPU_NS] = { "gpu_time_ns", "GPU time",
			   "jobs: their run -> done summed; launches: their kernels' start -> end (with the CUPTI library)",
			   COL_U64, UNIT_NS, 9, COL_CUMULATIVE | COL_IF_KNOWN },
	[STACK_WAIT_NS] = { "queue_wait_ns", "WAIT",
			    "jobs: their queue -> run summed; launches: their kernels' queued -> start (with the CUPTI library)",
			    COL_U64, UNIT_NS, 9, COL_CUMULATIVE | COL_IF_KNOWN },
	[STACK_BLOCKED_NS] = { "blocked_ns", "BLOCKED",
			       "GPU ioctls, fence waits, CUDA syncs: the time inside them summed (unknown for launches and jobs)",
			       COL_U64, UNIT_NS, 9, COL_CUMULATIVE | COL_IF_KNOWN },
	[STACK_SAMPLED] = { "sampled", "SAMPLED", "what was sampled (\"\": every event's stack taken)", COL_STR,
			    UNIT_NONE, 24, COL_WIDE },
};

const struct table_desc nvidia_stacks_table = {
	.name = "nvidia.stacks",
	.title = "Launch stacks",
	.empty = "No CUDA launch stack taken yet (--stacks).",
	.cols = stack_cols,
	.ncols = STACK_COLS,
	.sort_col = STACK_COUNT,
};
TABLE_REGISTER(nvidia_stacks_table);

const struct table_desc sched_stacks_table = {
	.name = "drm_sched.stacks",
	.title = "Job stacks",
	.empty = "No GPU job stack taken yet (--stacks).",
	.cols = stack_cols,
	.ncols = STACK_COLS,
	.sort_col = STACK_COUNT,
};
TABLE_REGISTER(sched_stacks_table);

const struct table_desc calls_stacks_table = {
	.name = "calls.stacks",
	.title = "Call stacks",
	.empty = "No GPU ioctl or fence wait stack taken yet (--stacks-weight calls or blocked).",
	.cols = stack_cols,
	.ncols = STACK_COLS,
	.sort_col = STACK_COUNT,
};
TABLE_REGISTER(calls_stacks_table);

void stack_rows_add(void *arg, const struct stack_row *r)
{
	struct stack_rows *rs = arg;
	struct stack_row *to = array_push(&rs->rows, &rs->n, &rs->cap, sizeof(*r));
	char *leaf = strdup(r->leaf), *sampled = strdup(r->sampled), *comm = strdup(r->comm);

	if (!to || !leaf || !sampled || !comm) {
		if (to)
			rs->n--;
		free(leaf);
		free(sampled);
		free(comm);
		rs->failed++;
		return;
	}
	*to = *r;
	to->leaf = leaf; /* the source's may be its own buffer's */
	to->sampled = sampled;
	to->comm = comm; /* its process's entry may move once the source's reader runs again */
}

static void rows_clear(struct stack_rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free((char *)rs->rows[i].leaf);
		free((char *)rs->rows[i].sampled);
		free((char *)rs->rows[i].comm);
	}
	rs->n = 0;
	rs->failed = 0;
}

/* Heaviest first; ties by pid, then the order they came in (qsort is not stable: the text). */
static int heavier(const void *a, const void *b)
{
	const struct stack_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->frames < y->frames ? -1 : x->frames > y->frames;
}

static const char *source_name(enum stack_source s)
{
	switch (s) {
	case STACK_SOURCE_JOBS:
		return "job";
	case STACK_SOURCE_CALLS:
		return "call";
	case STACK_SOURCE_SYNCS:
		return "sync";
	default:
		return "launch";
	}
}

static void row_out(struct table *t, const struct stack_row *r)
{
	struct cell *c = table_row_add(t);

	if (!c)
		return;
	cell_set_u64(c, STACK_PID, r->pid);
	cell_set_str(c, STACK_COMM, r->comm);
	cell_set_str(c, STACK_SOURCE, source_name(r->source));
	cell_set_long_str(c, STACK_LEAF, r->leaf);
	cell_set_long_str(c, STACK_FRAMES, r->frames);
	cell_set_u64(c, STACK_COUNT, r->count);
	if (r->timed) {
		cell_set_u64(c, STACK_GPU_NS, r->gpu_ns);
		cell_set_u64(c, STACK_WAIT_NS, r->wait_ns);
	}
	if (r->source == STACK_SOURCE_CALLS || r->source == STACK_SOURCE_SYNCS)
		cell_set_u64(c, STACK_BLOCKED_NS, r->blocked_ns);
	cell_set_str(c, STACK_SAMPLED, r->sampled);
}

/* By the table's key: pid, source, leaf, frames (then sampled, to merge only the same). */
static int same_key(const void *a, const void *b)
{
	const struct stack_row *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	if ((c = strcmp(x->leaf, y->leaf)) || (c = strcmp(x->frames, y->frames)))
		return c;
	return strcmp(x->sampled, y->sampled);
}

/*
 * Rows of the same key summed into one: two stacks the kernel told apart (a
 * caller, a DWARF chain) may symbolize alike, and a table keeps one row a key.
 */
static void rows_merge(struct stack_rows *rs)
{
	size_t n = 0;

	qsort(rs->rows, rs->n, sizeof(*rs->rows), same_key);
	for (size_t i = 0; i < rs->n; i++) {
		struct stack_row *r = &rs->rows[i], *to = n ? &rs->rows[n - 1] : NULL;

		if (to && !same_key(to, r)) {
			to->count += r->count;
			to->gpu_ns += r->gpu_ns;
			to->wait_ns += r->wait_ns;
			to->blocked_ns += r->blocked_ns;
			free((char *)r->leaf);
			free((char *)r->sampled);
			free((char *)r->comm);
			continue;
		}
		rs->rows[n++] = *r;
	}
	rs->n = n;
}

size_t stack_rows_table(struct stack_rows *rs, struct table *t)
{
	size_t keep, left;

	if (rs->n) { /* none yet: rows is NULL, which qsort may not take */
		rows_merge(rs);
		qsort(rs->rows, rs->n, sizeof(*rs->rows), heavier);
	}
	keep = rs->n < STACK_TABLE_ROWS ? rs->n : STACK_TABLE_ROWS;
	left = rs->n - keep;
	if (table_reserve(t, t->nrows + keep) == 0)
		for (size_t i = 0; i < keep; i++)
			row_out(t, &rs->rows[i]);
	left += rs->failed;
	rows_clear(rs);
	return left;
}

void stack_rows_free(struct stack_rows *rs)
{
	rows_clear(rs);
	free(rs->rows);
	rs->rows = NULL;
	rs->n = rs->cap = 0;
}

/* A stacks table's source word back as the source (row_out's); -1: another word. */
static int source_of(const char *word)
{
	static const enum stack_source all[] = { STACK_SOURCE_LAUNCHES, STACK_SOURCE_JOBS, STACK_SOURCE_CALLS,
						 STACK_SOURCE_SYNCS };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(word, source_name(all[i])))
			return (int)all[i];
	return -1;
}

/* A count cell as a number; 0 where unknown (a recording's null). */
static uint64_t cell_u64(const struct table *t, size_t row, unsigned int col)
{
	const struct cell *c = table_cell(t, row, col);

	return c && c->known ? c->u : 0;
}

size_t stack_table_rows(const struct table *t, stack_row_fn fn, void *arg)
{
	size_t n = 0;

	for (size_t i = 0; t && t->desc->cols == stack_cols && i < t->nrows; i++) {
		const struct cell *gpu = table_cell(t, i, STACK_GPU_NS), *wait = table_cell(t, i, STACK_WAIT_NS);
		const char *comm = table_str(t, i, "comm");
		int src = source_of(table_str(t, i, "source"));
		struct stack_row r = {
			.pid = (uint32_t)cell_u64(t, i, STACK_PID),
			.comm = *comm ? comm : "?",
			.source = (enum stack_source)src,
			.leaf = table_str(t, i, "leaf"),
			.frames = table_str(t, i, "frames"),
			.sampled = table_str(t, i, "sampled"),
			.count = cell_u64(t, i, STACK_COUNT),
			.timed = gpu && gpu->known && wait && wait->known,
			.gpu_ns = cell_u64(t, i, STACK_GPU_NS),
			.wait_ns = cell_u64(t, i, STACK_WAIT_NS),
			.blocked_ns = cell_u64(t, i, STACK_BLOCKED_NS),
		};

		if (src < 0)
			continue;
		fn(arg, &r);
		n++;
	}
	return n;
}
