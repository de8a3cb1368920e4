// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmocka_all.h"
#include <string.h>
#include "symbols/dwarf_chains.h"

/* What dwarf_chains_split gave: each part's chain (its first ip; 0: the frame pointers') and weights. */
struct parts {
	size_t n, depth_asked, fp_depth;
	uint64_t chain[8], w[8][2];
};

static size_t fp_depth(void *arg)
{
	struct parts *p = arg;

	p->depth_asked++;
	return p->fp_depth;
}

static void part(void *arg, struct dwarf_chain *c, const uint64_t *w)
{
	struct parts *p = arg;

	assert_true(p->n < 8);
	p->chain[p->n] = c ? c->ips[0] : 0;
	p->w[p->n][0] = w[0];
	p->w[p->n][1] = w[1];
	p->n++;
}

/* samples copies of key k unwound to n frames (first ip leaf), complete or stopped short. */
static void add(struct dwarf_chains *d, uint64_t k, uint64_t leaf, size_t n, bool complete, int samples)
{
	struct unwind_result r = { .n = n, .complete = complete };
	struct dwarf_key dk = dwarf_key_of(&k, sizeof(k));

	for (size_t i = 0; i < n; i++)
		r.ips[i] = leaf + i;
	for (int i = 0; i < samples; i++)
		dwarf_chains_add(d, &dk, &r);
}

static struct parts split(struct dwarf_chains *d, uint64_t k, const uint64_t *w, size_t fp)
{
	struct parts p = { .fp_depth = fp };
	struct dwarf_key dk = dwarf_key_of(&k, sizeof(k));

	dwarf_chains_split(d, &dk, &(struct dwarf_split){ .w = w, .nw = 2, .fp_depth = fp_depth, .part = part,
							   .arg = &p });
	return p;
}

/*
 * A key's exact weights shared among its chains by samples (the remainder to
 * the first), a chain that stopped short of the frame pointers' depth on the
 * frame pointers' part, a key without chains wholly there, zero parts left out.
 */
static void split_shares(void **state)
{
	struct dwarf_chains d = { 0 };
	const uint64_t w[2] = { 10, 1000 }, zero[2] = { 0, 0 };
	struct parts p;

	(void)state;
	add(&d, 1, 0x100, 3, true, 3); /* key 1: two whole chains, 3 and 1 samples */
	add(&d, 1, 0x200, 4, true, 1);
	p = split(&d, 1, w, 9);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.depth_asked, 0); /* no chain stopped short: the map is not read */
	assert_int_equal(p.chain[0] + p.chain[1], 0x300);
	for (size_t i = 0; i < 2; i++) {
		bool first = p.chain[i] == 0x100;

		assert_int_equal(p.w[i][0], first ? 8 : 2); /* 7.5 and 2.5: the remainder to the first */
		assert_int_equal(p.w[i][1], first ? 750 : 250);
	}
	assert_int_equal(dwarf_chains_samples(&d, &(struct dwarf_key){ { 1 } }), 4);
	add(&d, 2, 0x300, 2, false, 1); /* key 2: one stopped short at 2 frames, one at 6 */
	add(&d, 2, 0x400, 6, false, 1);
	p = split(&d, 2, w, 5);
	assert_int_equal(p.depth_asked, 1);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.chain[0], 0x400); /* deeper than the frame pointers: its own */
	assert_int_equal(p.w[0][0], 5);
	assert_int_equal(p.chain[1], 0); /* shorter: the frame pointers' */
	assert_int_equal(p.w[1][0], 5);
	assert_int_equal(p.w[1][1], 500);
	p = split(&d, 3, w, 5); /* key 3: no chain */
	assert_int_equal(p.n, 1);
	assert_int_equal(p.chain[0], 0);
	assert_int_equal(p.w[0][0], 10);
	assert_int_equal(dwarf_chains_samples(&d, &(struct dwarf_key){ { 3 } }), 0);
	p = split(&d, 1, zero, 9);
	assert_int_equal(p.n, 0);
	dwarf_chains_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
