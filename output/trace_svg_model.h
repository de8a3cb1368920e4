/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* trace_svg.h's inside: the trace read into rows of pixels (trace_svg.c), then drawn (trace_svg_draw.c). */
#ifndef GPUTOP_TRACE_SVG_MODEL_H
#define GPUTOP_TRACE_SVG_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "output/trace_svg.h"

#define TSVG_WIDTH 1200.0
#define TSVG_LABEL 250.0 /* px of the track names */
#define TSVG_COLS 930 /* px of the time axis */
#define TSVG_STACK 16 /* slices open on one track followed; deeper ones counted */
#define TSVG_RUNS_MAX (4 * TSVG_COLS) /* boxes of one row; more merge into the last */
#define TSVG_NAME_MAX 256 /* bytes of a name kept */
#define TSVG_MIXED UINT32_MAX /* a merged box's name: several */
#define TSVG_NAMES_MAX (4 * TRACE_SVG_IIDS_MAX) /* names kept in all (interned again after a clear) */

enum tsvg_kind { TSVG_PLAIN, TSVG_PROCESS, TSVG_THREAD, TSVG_COUNTER };

/* Boxes of one row: slices that fell into the same pixels merged (n of them). */
struct tsvg_run {
	double x0, x1; /* px from the axis' start */
	uint64_t ns; /* the slices' time, summed */
	uint32_t name, n;
	bool open; /* a slice the trace never ended */
};

struct tsvg_open {
	uint64_t ts;
	uint32_t name;
};

struct tsvg_track {
	uint64_t uuid, parent;
	char name[TSVG_NAME_MAX];
	enum tsvg_kind kind;
	int32_t pid, tid;
	size_t first_child, next_sibling; /* indices + 1; 0: none */
	bool has_parent, visible;
	unsigned int level;
	struct tsvg_run *runs[TRACE_SVG_DEPTH];
	size_t nruns[TRACE_SVG_DEPTH], capruns[TRACE_SVG_DEPTH];
	struct tsvg_open stack[TSVG_STACK];
	unsigned int depth; /* slices open, may pass TSVG_STACK */
	uint32_t *ticks, *tick_name; /* instants per pixel column (TSVG_COLS), NULL: none */
	double *cmin, *cmax, *clast; /* counters per pixel column, NULL: none */
	uint8_t *chas;
	double vmin, vmax; /* the counter's range over the trace */
	double carry; /* its last value before the window, held into it */
	bool has_carry;
	uint64_t events; /* drawn */
};

struct tsvg {
	struct tsvg_track *tracks;
	size_t n, cap;
	size_t *by_uuid; /* indices sorted by uuid */
	char **names; /* interned names kept, by our own index */
	size_t nnames, capnames;
	uint32_t *iid; /* iid -> names index + 1 (TRACE_SVG_IIDS_MAX) */
	uint64_t t0, t1; /* the events' first and last time; then the window's */
	uint64_t from_ns; /* the window's start after the first event (0: none) */
	bool have_time;
	bool cut; /* the file ends in the middle of a packet */
	size_t n_indexed; /* tracks in by_uuid */
	uint64_t slices, instants, samples; /* drawn */
	uint64_t packets, no_track, tracks_dropped, unended, names_dropped;
};

/* The track of uuid, NULL: none. */
struct tsvg_track *tsvg_track(const struct tsvg *t, uint64_t uuid);
/* The interned name of index (TSVG_MIXED: "several"). */
const char *tsvg_name(const struct tsvg *t, uint32_t index);
/* The rows in order and the picture (trace_svg_draw.c). */
int tsvg_draw(const struct tsvg *t, FILE *out, const char *title);

#endif
