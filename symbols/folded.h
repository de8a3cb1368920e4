/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Folded stacks, the format flamegraph.pl, inferno and speedscope read:
 * "root;caller;leaf weight\n". A frame's text comes from other users' files, so
 * every byte that could break a line apart is escaped as \xNN: ';' (the frame
 * separator), '\\' (so the escaping reads back one way), control bytes (a
 * newline would start a new stack); a byte that starts no UTF-8 character
 * becomes U+FFFD, so that the file is UTF-8 whatever the names held. A stack cut short: its joined frames start
 * with [truncated], which the file's line puts right after the command (the
 * root), where the missing root-most frames would be.
 */
#ifndef GPUTOP_SYMBOLS_FOLDED_H
#define GPUTOP_SYMBOLS_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "symbols/frame.h"

/* At most this many frames a line: the rest, root-most, are cut and the line says [truncated]. */
#define FOLDED_FRAMES_MAX 512
#define FOLDED_TRUNCATED "[truncated]"
/* The longest joined stack text (folded_join), its NUL included: root-most frames past it are cut. */
#define FOLDED_TEXT_MAX 4096

/*
 * in escaped into out[size], cut whole (never inside an escape or a UTF-8
 * character) with "..." when it does not fit; "[unknown]" for an empty frame.
 * The length written.
 */
size_t folded_escape(const char *in, char *out, size_t size);
/*
 * frames[0..n) given leaf first, escaped and joined root first by ';' into
 * out[FOLDED_TEXT_MAX]; truncated (the walk stopped before the root), or the
 * root-most frames that do not fit cut whole: "[truncated]" first. "" for no
 * frame. Whether it starts with "[truncated]".
 */
bool folded_join(const struct frame *frames, size_t n, bool truncated, char *out);
/*
 * One line: frames[0..n) given leaf first (as a stack walk gives them), written
 * root first; truncated: the walk stopped before the root. 0, or -EIO.
 */
int folded_write(FILE *f, const struct frame *frames, size_t n, bool truncated, uint64_t weight);
/*
 * A joined text (folded_join's, or a recording's claim of one) written as it
 * is, but for the bytes that would break the line (control bytes: \xNN) and
 * those that start no UTF-8 character (U+FFFD).
 */
void folded_put_joined(FILE *f, const char *joined);

#endif
