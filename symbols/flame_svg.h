/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A flame graph as SVG, from folded stacks ("root;caller;leaf weight" lines, as
 * folded_write writes them): one box per frame, as wide as its weight's share
 * of the whole, its callers below it; the stacks of one root merged. Frame text
 * is escaped for XML and cut to its box; each box's tooltip has the whole name,
 * the weight with its unit and its share. Bounded: at most FLAME_NODES_MAX distinct frames
 * (the rest counted under "[more frames]"), lines of any length.
 */
#ifndef GPUTOP_SYMBOLS_FLAME_SVG_H
#define GPUTOP_SYMBOLS_FLAME_SVG_H

#include <stdio.h>

#define FLAME_NODES_MAX 200000

/*
 * Reads every folded line of in, writes the SVG to out titled title ("what: unit"), each
 * tooltip's weight followed by unit ("ns", "launches"); 0, or -errno.
 */
int flame_svg_write(FILE *in, FILE *out, const char *title, const char *unit);

#endif
