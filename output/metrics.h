/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A snapshot as Prometheus metrics: the text exposition format (0.0.4) or
 * OpenMetrics 1.0. Driven by the tables' column descriptors, so every collector's
 * tables are exported without code of their own:
 *   - gputop_<collector>_<table>_<column>; base units (ns -> seconds, % -> ratio);
 *   - "*_total" columns are counters; COL_HIST columns real histograms (le in
 *     seconds); depths, memory and interval statistics are gauges; a per-second
 *     rate is left out when its "*_total" counter is there (rate() it);
 *   - a row's key columns, its comm and its cgroup (as "container") are labels;
 *     with private_names, comm and container only for the viewer's processes.
 */
#ifndef GPUTOP_OUTPUT_METRICS_H
#define GPUTOP_OUTPUT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/snapshot.h"

#define METRICS_TYPE_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_TYPE_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define METRICS_NAME_MAX 160
#define METRICS_LABEL_MAX (TABLE_STR_MAX * 2 + 1) /* an escaped value: each byte at most doubled */

enum metrics_format {
	METRICS_TEXT,
	METRICS_OPENMETRICS,
};

enum metric_kind {
	METRIC_GAUGE,
	METRIC_COUNTER, /* samples are family + "_total" */
	METRIC_HISTOGRAM,
};

/* How one column is exported. */
struct metric_column {
	enum metric_kind kind;
	char family[METRICS_NAME_MAX]; /* a counter's without "_total" */
	double scale; /* the cell times this is the value in base units */
};

/* The format an HTTP Accept header asks for (NULL: the text format), as Prometheus negotiates. */
enum metrics_format metrics_negotiate(const char *accept);
/* Fills out and returns 0 when column col is a metric; -1 when it is a label or left out. */
int metrics_column(const struct table_desc *t, unsigned int col, struct metric_column *out);
/* Fills name and returns 0 when column col is a label of the table's series; else -1. */
int metrics_label_name(const struct table_desc *t, unsigned int col, char *name, size_t size);
/*
 * A label value as the formats want it: '\' '"' and newline escaped; other
 * control characters and invalid UTF-8 become '?'. Cut to fit size (at least 1).
 */
void metrics_escape_label(const char *in, char *out, size_t size);

/* Histogram buckets: le = 2^k ns for k in [METRICS_LE_LOG2_MIN, HIST_MAX_LOG2], then +Inf. */
#define METRICS_LE_LOG2_MIN 10
#define METRICS_BUCKETS (HIST_MAX_LOG2 - METRICS_LE_LOG2_MIN + 1)
/*
 * Cumulative counts for each finite bucket: values below 2^k ns (values are whole
 * nanoseconds). The +Inf bucket is histogram_count(). le_ns gets each bound.
 */
void metrics_histogram_buckets(const struct histogram *h, uint64_t le_ns[METRICS_BUCKETS],
			       uint64_t cum[METRICS_BUCKETS]);
/* ns as seconds, exactly, in decimal ("0.000001024"). Returns buf. */
const char *metrics_ns_as_seconds(uint64_t ns, char *buf, size_t size);

/*
 * What is exported across snapshots: the per-table cap and the rows over it
 * (counted: a counter of what was left out), and whose process names may show.
 */
struct metrics_export {
	size_t max_rows; /* per table; the busiest (its default sort) are kept; 0: no cap */
	uint64_t *dropped; /* per registered table (table_registry order), cumulative */
	size_t ntables;
	/*
	 * --metrics-private: the comm and container labels only of rows whose
	 * process (their pid) belongs to viewer_uid; a row whose key is such a
	 * label (a container's sums) and that no pid owns is left out.
	 */
	bool private_names;
	uint32_t viewer_uid;
	/* The owner of process pid: 0 and *uid set, -1 when unknown (gone). NULL: /proc. */
	int (*owner)(uint32_t pid, uint32_t *uid);
};

/* Adds this snapshot's rows over the cap to d (once per snapshot); -1 on allocation failure. */
int metrics_count_drops(const struct snapshot *s, struct metrics_export *d);
void metrics_export_free(struct metrics_export *d);
/* Writes s in format f; -1 on a write or allocation failure. */
int metrics_write(FILE *out, const struct snapshot *s, enum metrics_format f,
		  const struct metrics_export *d);

#endif
