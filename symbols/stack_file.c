// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/privileges.h"
#include "symbols/flame_svg.h"
#include "symbols/folded.h"
#include "symbols/folded_sum.h"
#include "symbols/stack_file.h"

static const struct {
	const char *name, *title, *unit; /* --stacks-weight's word; the flame graph's "what: unit"; its tooltips' */
} weights[STACK_WEIGHT_MAX] = {
	[STACK_WEIGHT_COUNT] = { "count", "GPU work by CPU call stack: CUDA launches and scheduler jobs",
				 "launches and jobs" },
	[STACK_WEIGHT_LAUNCHES] = { "launches", "CUDA launches by CPU call stack: launches", "launches" },
	[STACK_WEIGHT_JOBS] = { "jobs", "GPU scheduler jobs by CPU call stack: jobs", "jobs" },
	[STACK_WEIGHT_GPU_TIME] = { "gpu-time", "GPU work by CPU call stack: GPU time, ns", "ns" },
	[STACK_WEIGHT_QUEUE_WAIT] = { "queue-wait", "GPU work by CPU call stack: queue wait, ns", "ns" },
	[STACK_WEIGHT_CALLS] = { "calls", "GPU ioctls and fence waits by CPU call stack: calls", "calls" },
	[STACK_WEIGHT_BLOCKED] = { "blocked", "GPU ioctls and fence waits by CPU call stack: time blocked, ns", "ns" },
	[STACK_WEIGHT_SYNCS] = { "syncs", "CUDA synchronisations by CPU call stack: syncs", "syncs" },
	[STACK_WEIGHT_SYNC_TIME] = { "sync-time", "CUDA synchronisations by CPU call stack: time blocked, ns", "ns" },
};

int stack_weight_parse(const char *word)
{
	for (int i = 0; i < STACK_WEIGHT_MAX; i++)
		if (!strcmp(word, weights[i].name))
			return i;
	return -1;
}

const char *stack_weight_name(enum stack_weight w)
{
	return w < STACK_WEIGHT_MAX ? weights[w].name : "?";
}

bool stack_weight_ns(enum stack_weight w)
{
	return w == STACK_WEIGHT_GPU_TIME || w == STACK_WEIGHT_QUEUE_WAIT || w == STACK_WEIGHT_BLOCKED ||
	       w == STACK_WEIGHT_SYNC_TIME;
}

bool stack_weight_takes(enum stack_weight w, enum stack_source s)
{
	switch (s) {
	case STACK_SOURCE_LAUNCHES: /* times: the kernels' (the CUPTI companion library's records) */
		return w == STACK_WEIGHT_COUNT || w == STACK_WEIGHT_LAUNCHES || w == STACK_WEIGHT_GPU_TIME ||
		       w == STACK_WEIGHT_QUEUE_WAIT;
	case STACK_SOURCE_JOBS:
		return w == STACK_WEIGHT_COUNT || w == STACK_WEIGHT_JOBS || w == STACK_WEIGHT_GPU_TIME ||
		       w == STACK_WEIGHT_QUEUE_WAIT;
	case STACK_SOURCE_CALLS:
		return w == STACK_WEIGHT_CALLS || w == STACK_WEIGHT_BLOCKED;
	case STACK_SOURCE_SYNCS:
		return w == STACK_WEIGHT_SYNCS || w == STACK_WEIGHT_SYNC_TIME;
	}
	return false;
}

static bool is_svg(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcasecmp(path + n - 4, ".svg");
}

int stack_file_open(struct stack_file *sf, const char *path, enum stack_weight w, char *why,
		    size_t size)
{
	int err;

	memset(sf, 0, sizeof(*sf));
	sf->weight = w;
	if (strcmp(path, "-"))
		sf->out = privileges_fopen_as_user(path, "w");
	if (strcmp(path, "-") && !sf->out) {
		err = -errno;
		snprintf(why, size, "--stacks %s: %s", path, strerror(errno));
		return err;
	}
	if (sf->out && is_svg(path)) {
		sf->svg = sf->out;
		sf->out = open_memstream(&sf->folded, &sf->folded_len);
		if (!sf->out) {
			err = -errno;
			snprintf(why, size, "--stacks: %s", strerror(errno));
			fclose(sf->svg);
			sf->svg = NULL;
			return err;
		}
	}
	err = symbolizer_init(&sf->sym, &(struct symbolizer_config){ 0 });
	if (!err && (stack_weight_takes(w, STACK_SOURCE_JOBS) ||
		     stack_weight_takes(w, STACK_SOURCE_CALLS)))
		symbolizer_load_kernel(&sf->sym); /* kernel frames: now, while privileged */
	if (err) {
		snprintf(why, size, "--stacks: the symbolizer: %s", strerror(-err));
		if (sf->out)
			fclose(sf->out);
		if (sf->svg)
			fclose(sf->svg);
		free(sf->folded);
		memset(sf, 0, sizeof(*sf));
	}
	__atomic_store_n(&sf->open, !err, __ATOMIC_RELEASE); /* the poller reads it (stack_file_on) */
	return err;
}

bool stack_file_on(struct stack_file *sf)
{
	return __atomic_load_n(&sf->open, __ATOMIC_ACQUIRE);
}

static uint64_t row_weight(const struct stack_file *sf, const struct stack_row *r)
{
	switch (sf->weight) {
	case STACK_WEIGHT_GPU_TIME:
		return r->timed ? r->gpu_ns : 0;
	case STACK_WEIGHT_QUEUE_WAIT:
		return r->timed ? r->wait_ns : 0;
	case STACK_WEIGHT_BLOCKED:
	case STACK_WEIGHT_SYNC_TIME:
		return r->blocked_ns;
	default:
		return r->count;
	}
}

/* text escaped as one frame, after a ';' unless first. */
static void put_frame(FILE *f, const char *text, bool *first)
{
	char esc[4 * FOLDED_TEXT_MAX];

	folded_escape(text, esc, sizeof(esc));
	fprintf(f, "%s%s", *first ? "" : ";", esc);
	*first = false;
}

/* The line's text, without its weight: "comm;[sampled];[truncated];frames;leaf" (malloc'd); NULL: no memory. */
static char *row_text(const struct stack_row *r)
{
	const char *frames = r->frames;
	const size_t mark = strlen(FOLDED_TRUNCATED);
	bool first = true;
	char text[FOLDED_TEXT_MAX], *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return NULL;
	put_frame(f, r->comm, &first); /* the root: flame graphs merge a command's stacks under it */
	if (*r->sampled) {
		snprintf(text, sizeof(text), "[%s]", r->sampled);
		put_frame(f, text, &first);
	}
	if (!strncmp(frames, FOLDED_TRUNCATED, mark)) { /* the cut, where the root-most frames would be */
		put_frame(f, FOLDED_TRUNCATED, &first);
		frames += mark + (frames[mark] == ';');
	}
	if (*frames) {
		fputc(';', f);
		folded_put_joined(f, frames); /* escaped already: its control bytes too (a recording's) */
	}
	if (r->source == STACK_SOURCE_JOBS)
		snprintf(text, sizeof(text), "[ring %s]", r->leaf);
	else
		snprintf(text, sizeof(text), "%s", r->leaf);
	put_frame(f, text, &first);
	if (fclose(f)) {
		free(line);
		return NULL;
	}
	return line;
}

int stack_file_row(struct stack_file *sf, const struct stack_row *r)
{
	uint64_t weight = row_weight(sf, r);
	char *line;
	int err;

	if (stack_weight_ns(sf->weight) && r->source == STACK_SOURCE_LAUNCHES && !r->timed)
		sf->untimed += r->count;
	if (!sf->out || !weight || !stack_weight_takes(sf->weight, r->source))
		return 0;
	line = row_text(r);
	err = line ? folded_sum_add(&sf->sum, line, weight) : -ENOMEM;
	free(line);
	if (err)
		return err;
	sf->lines = sf->sum.n;
	sf->total += weight;
	return 0;
}

void stack_file_untimed_note(const struct stack_file *sf, char *out, size_t size)
{
	snprintf(out, size, "%s%llu launches without GPU time (run without the CUPTI library, or before it was on)",
		 sf->untimed ? ", " : "", (unsigned long long)sf->untimed);
	if (!sf->untimed)
		out[0] = '\0';
}

/* The folded lines written, drawn as a flame graph into the .svg file. */
static int draw_svg(struct stack_file *sf)
{
	FILE *in = fmemopen(sf->folded, sf->folded_len, "r");
	int err;

	if (!sf->folded_len) /* fmemopen refuses an empty buffer: an empty graph */
		in = fmemopen((char[1]){ 0 }, 1, "r");
	if (!in)
		return -errno;
	err = flame_svg_write(in, sf->svg, weights[sf->weight].title, weights[sf->weight].unit);
	fclose(in);
	return err;
}

int stack_file_close(struct stack_file *sf)
{
	int err = 0;

	if (!sf->out) {
		if (sf->open)
			symbolizer_free(&sf->sym);
		memset(sf, 0, sizeof(*sf));
		return 0;
	}
	err = folded_sum_write(&sf->sum, sf->out);
	if (fflush(sf->out) && !err)
		err = -errno;
	if (!err && sf->svg)
		err = draw_svg(sf);
	if (fclose(sf->out) && !err)
		err = -EIO;
	if (sf->svg && fclose(sf->svg) && !err)
		err = -EIO;
	symbolizer_free(&sf->sym);
	free(sf->folded);
	folded_sum_free(&sf->sum);
	memset(sf, 0, sizeof(*sf));
	return err;
}
