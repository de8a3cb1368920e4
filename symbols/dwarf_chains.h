/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks, the DWARF half of any stack source: its stack copies (bpf/user_stack.h,
 * samples), each unwound as it arrives (symbols/unwind.h) and kept as a count
 * per (key, unwound chain), the key being what the source counts exactly under
 * (a launch's, a job's frame-pointer stack; opaque here). At the end each key's
 * exact weight is shared among its chains in proportion to their samples: exact
 * where every event of the key was sampled, and the totals per key always.
 */
#ifndef GPUTOP_SYMBOLS_DWARF_CHAINS_H
#define GPUTOP_SYMBOLS_DWARF_CHAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/unwind.h"

/* Distinct (key, chain) pairs kept; samples of more are counted as lost. */
#define DWARF_CHAINS_MAX 16384

/* A source's key, its bytes copied in (zero-padded): compared whole. */
struct dwarf_key {
	uint64_t w[4];
};

struct dwarf_chain {
	struct dwarf_key key;
	uint64_t samples;
	bool truncated, complete; /* as in struct unwind_result */
	uint32_t n;
	uint64_t ips[UNWIND_FRAMES_MAX]; /* the leaf first */
	char *text; /* its frames symbolized at its first use, once (the source's); NULL: not yet */
	bool text_again; /* text had frames unknown for now: made again at its next use */
};

struct dwarf_chains {
	struct dwarf_chain *chains;
	size_t n, cap;
	bool sorted; /* by key, for dwarf_chains_of */
	uint64_t samples, lost; /* unwound; not kept (the table full, or a malformed record) */
};

/* The key of a source's key of size bytes (at most sizeof(struct dwarf_key)). */
struct dwarf_key dwarf_key_of(const void *key, size_t size);
/* One unwound sample of key. */
void dwarf_chains_add(struct dwarf_chains *d, const struct dwarf_key *k, const struct unwind_result *r);
/* The chains of key: *n of them from the returned one (sorted by key first). NULL: none. */
struct dwarf_chain *dwarf_chains_of(struct dwarf_chains *d, const struct dwarf_key *k, size_t *n);
/* The samples of key k (0: it has no chain). */
uint64_t dwarf_chains_samples(struct dwarf_chains *d, const struct dwarf_key *k);

/* Weights a source's key carries (jobs, GPU time, queue wait: 3). */
#define DWARF_WEIGHTS_MAX 3

/* A part of a key's weights to its source's rows: chain c's share; c NULL: the frame pointers' part. */
typedef void (*dwarf_part_fn)(void *arg, struct dwarf_chain *c, const uint64_t *w);

struct dwarf_split {
	const uint64_t *w; /* the key's exact weights, nw of them (at most DWARF_WEIGHTS_MAX) */
	size_t nw;
	size_t (*fp_depth)(void *arg); /* the key's frame-pointer stack's depth: asked once at most */
	dwarf_part_fn part;
	void *arg; /* fp_depth's and part's */
};

/*
 * Key k's exact weights split among its chains: each chain's share to part (its
 * share of the key's samples, the remainders one each to the first chains, so
 * that the shares add up to each weight),
 * but the shares of chains that stopped short of the outermost frame (the byte
 * budget, code without CFI such as a JIT's) where the frame pointers went
 * deeper summed into the frame pointers' part, which is the whole where k has
 * no chain. A part of all zero weights is not given. Whether k has chains.
 */
bool dwarf_chains_split(struct dwarf_chains *d, const struct dwarf_key *k, const struct dwarf_split *s);
void dwarf_chains_free(struct dwarf_chains *d);

/* c's text, NULL when it has none yet or is to make it again (dwarf_chain_text_set's again). */
const char *dwarf_chain_text(const struct dwarf_chain *c);
/* text copied as c's, again: its frames partly unknown for now; the copy, NULL: no memory. */
const char *dwarf_chain_text_set(struct dwarf_chain *c, const char *text, bool again);

#endif
