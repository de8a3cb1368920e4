/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel frames from /proc/kallsyms: its text symbols sorted once. Where
 * kptr_restrict hides the addresses (all read as 0), no name is given: every
 * kernel frame is then "[kernel]", never a wrong name.
 */
#ifndef GPUTOP_SYMBOLS_KALLSYMS_H
#define GPUTOP_SYMBOLS_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include "symbols/symtab.h"

#define KALLSYMS_FILE_MAX (256u << 20)
#define KALLSYMS_SYMS_MAX (4u << 20)
/* No kernel function is larger: further from the last symbol is no symbol's. */
#define KALLSYMS_FUNC_MAX (1u << 20)

struct kallsyms {
	struct symtab syms; /* text symbols: t, T, w, W */
	bool hidden; /* every address was 0 */
	size_t bad_lines;
};

/* The text of a kallsyms file into k (sorted). 0 or -ENOMEM. */
int kallsyms_parse(struct kallsyms *k, const char *text, size_t len);
/* kallsyms under the procfs root. 0, or -errno. */
int kallsyms_load(struct kallsyms *k);
/* The symbol that holds addr and the offset into it; NULL (say "[kernel]") if hidden or outside. */
const char *kallsyms_find(const struct kallsyms *k, uint64_t addr, uint64_t *off);
void kallsyms_free(struct kallsyms *k);

#endif
