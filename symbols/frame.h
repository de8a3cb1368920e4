/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One resolved stack frame, as the symbolizer gives it and the folded-stack writer takes it. */
#ifndef GPUTOP_SYMBOLS_FRAME_H
#define GPUTOP_SYMBOLS_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FRAME_NAME_MAX 512
#define FRAME_MODULE_MAX 128

struct frame {
	char name[FRAME_NAME_MAX]; /* the function, demangled; "" when unknown */
	/*
	 * Into the function; with no name, into the module: the ELF's own address
	 * (what addr2line takes) where its segments were read, else the file offset.
	 */
	uint64_t offset;
	bool module_offset; /* no name: offset is meaningful in module */
	char module[FRAME_MODULE_MAX]; /* "libfoo.so", "[vdso]", "[kernel]", "[perf-map]"; "" */
};

/*
 * The frame as text into out[size] (cut): "name+0xoff" (with_offset) or "name";
 * "module+0xoff" with no name; "[kernel]" and the like as they are; else
 * "[unknown]". Not escaped: folded.h does that.
 */
void frame_text(const struct frame *f, bool with_offset, char *out, size_t size);

#endif
