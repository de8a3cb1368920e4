/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A Perfetto trace (the subset output/perfetto.c writes; other fields are
 * skipped) drawn as an SVG timeline: a row per track that has events, under
 * its parent (a process's threads, a ring's lanes), slices as boxes (nested
 * ones on rows below, at most TRACE_SVG_DEPTH), instants as ticks, counters as
 * step lines scaled to their own range, a time axis. The input may come from
 * anyone: every length is checked, names are made valid UTF-8 and escaped,
 * what falls into one pixel is merged (its box says how many), and tracks and
 * interned names beyond their bounds are counted, not kept.
 */
#ifndef GPUTOP_TRACE_SVG_H
#define GPUTOP_TRACE_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_SVG_DEPTH 4 /* rows of nested slices on one track; deeper ones drawn on the last */
#define TRACE_SVG_TRACKS_MAX 4096
#define TRACE_SVG_IIDS_MAX (1u << 16) /* interned name ids kept (ours count from 1) */

/* 0; -EINVAL when trace is not a trace (no packet read), -ENOMEM, -EIO (out). */
int trace_svg_write(const void *trace, size_t len, FILE *out, const char *title);
/* Only from_ns to to_ns after the first event (what crosses the edges cut there). */
int trace_svg_write_window(const void *trace, size_t len, FILE *out, const char *title, uint64_t from_ns,
			   uint64_t to_ns);

#endif
