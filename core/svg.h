/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What the SVG writers (flame graphs, timelines) share: text made safe, colours from names. */
#ifndef GPUTOP_SVG_H
#define GPUTOP_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A picture's start: the document of width x height px in a monospace font of font_px, a light
 * background, and an open centred <text> of title_px at title_y for the caller's title and </text>.
 */
void svg_begin(FILE *out, double width, double height, int font_px, int title_px, int title_y);
/*
 * s into SVG text: XML's five escaped, control bytes as '?', bytes that are not UTF-8 as U+FFFD (XML
 * takes only UTF-8 here), cut to max characters with "..".
 */
void svg_put_text(FILE *out, const char *s, size_t max);
/* Whether a file a user named is to hold a picture: its name ends in .svg (any case). */
bool svg_path(const char *path);
/* A hash of name (FNV-1a): the same name the same colour in every picture. */
uint32_t svg_name_hash(const char *name);

#endif
