/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One table cell as short text for people, by its column's unit: shared by batch text and the TUI. */
#ifndef GPUTOP_OUTPUT_CELL_FORMAT_H
#define GPUTOP_OUTPUT_CELL_FORMAT_H

#include <stddef.h>
#include "model/table.h"

/*
 * "-" when unknown; ns as 16.67ms, bytes as 1.5MiB, rates and percentages with
 * one decimal, hertz with two. Text is made safe for a terminal: control
 * characters and invalid UTF-8 become '?'. Returns buf.
 */
/* "850ns", "1.2us", "16.67ms", "1.50s": a duration in its best unit. Returns buf. */
const char *format_duration_ns(double ns, char *buf, size_t size);
/* The same, "-" for 0 (a bound nothing measured). */
const char *format_ns(double ns, char *buf, size_t size);
/* "1.5GiB" */
const char *format_bytes(double b, char *buf, size_t size);
const char *cell_format(const struct col_desc *col, const struct cell *c, char *buf, size_t size);

#endif
