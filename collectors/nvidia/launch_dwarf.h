/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks, the DWARF half: the launches' stack copies (nvidia.bpf.c, samples),
 * each unwound as it arrives (symbols/unwind.h) and kept as a count per
 * (launch key, unwound chain). At the end each key's exact launch count is
 * shared among its chains in proportion to their samples: exact where every
 * launch of the key was sampled, and the totals per key and process always.
 */
#ifndef GPUTOP_LAUNCH_DWARF_H
#define GPUTOP_LAUNCH_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bpf/nvidia.h"
#include "symbols/unwind.h"

/* Distinct (key, chain) pairs kept; samples of more are counted as lost. */
#define LAUNCH_DWARF_CHAINS_MAX 16384

struct dwarf_chain {
	struct nv_stack_key key;
	uint64_t samples;
	bool truncated, complete; /* as in struct unwind_result */
	uint32_t n;
	uint64_t ips[UNWIND_FRAMES_MAX]; /* the leaf first */
	char *text; /* its frames symbolized at its first row, once (launch_stacks.c); NULL: not yet */
};

struct launch_dwarf {
	struct dwarf_chain *chains;
	size_t n, cap;
	bool sorted; /* by key, for launch_dwarf_of */
	uint64_t samples, lost; /* unwound; not kept (the table full, or a malformed record) */
};

/* One unwound sample of key. */
void launch_dwarf_add(struct launch_dwarf *d, const struct nv_stack_key *k, const struct unwind_result *r);
/* The chains of key: *n of them from the returned one (sorted by key first). NULL: none. */
struct dwarf_chain *launch_dwarf_of(struct launch_dwarf *d, const struct nv_stack_key *k, size_t *n);
/*
 * The launches of chains[i] out of count, the key's exact total: its share of
 * the key's samples, the remainder to the first chains, so that the shares add up to count.
 */
uint64_t launch_dwarf_share(const struct dwarf_chain *chains, size_t n, size_t i, uint64_t count);
void launch_dwarf_free(struct launch_dwarf *d);

#endif
