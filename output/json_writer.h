/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one JSON writer: a small streaming writer into one growing buffer that
 * puts the commas and escapes the strings (bpftool's json_writer is the model).
 * Plain style, no spaces; strings escaped as json-c escapes them (no '/');
 * doubles as json-c writes them with "%.15g" ("2.0", "0.125", "1e+20"):
 * recordings written before it replay to the same bytes.
 */
#ifndef GPUTOP_JSON_WRITER_H
#define GPUTOP_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	char *p;
	size_t len, cap;
	bool failed; /* out of memory, or nested too deep: the rest is not written */
	bool after_key; /* the next value is a member's, after its key */
	unsigned int depth;
	bool first[JSONW_MAX_DEPTH + 1]; /* no member written yet in the container at each depth */
};

void jsonw_init(struct jsonw *w);
/* The text written, NUL-terminated (the caller frees it); NULL when anything failed. */
char *jsonw_finish(struct jsonw *w);

void jsonw_object_begin(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
/* A member's key in the object open; its value comes next. */
void jsonw_key(struct jsonw *w, const char *key, size_t len);
void jsonw_string(struct jsonw *w, const char *s, size_t len);
void jsonw_u64(struct jsonw *w, uint64_t v);
/* A finite double (see above); callers make non-finite values null. */
void jsonw_double(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);

/* Members with a NUL-terminated string, an integer, a double. */
void jsonw_str_member(struct jsonw *w, const char *key, const char *s);
void jsonw_u64_member(struct jsonw *w, const char *key, uint64_t v);
void jsonw_double_member(struct jsonw *w, const char *key, double v);

/* A finite double as json-c writes it with "%.15g" ("2.0", "0.125", "1e+20"); buf holds 48 bytes. */
size_t json_format_double(char *buf, double v);

#endif
