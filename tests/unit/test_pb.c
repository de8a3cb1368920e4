// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The protobuf wire encoder against hand-computed bytes; bounds; valid UTF-8 from any bytes. */
#include "tests/unit/cmocka_all.h"
#include <stdlib.h>
#include <string.h>
#include "core/utf8_clean.h"
#include "output/pb.h"
#include "tests/unit/utf8_judge.h"

#define CANARY 0xa5

static void assert_bytes(const struct pb_buf *b, const uint8_t *want, size_t n)
{
	assert_true(pb_ok(b));
	assert_int_equal(b->len, n);
	assert_memory_equal(b->p, want, n);
}

static void varints_at_the_boundaries(void **state)
{
	static const struct {
		uint64_t v;
		uint8_t bytes[PB_VARINT_MAX];
		size_t n;
	} cases[] = {
		{ 0, { 0x00 }, 1 },
		{ 1, { 0x01 }, 1 },
		{ 127, { 0x7f }, 1 },
		{ 128, { 0x80, 0x01 }, 2 },
		{ 300, { 0xac, 0x02 }, 2 },
		{ 16383, { 0xff, 0x7f }, 2 },
		{ 16384, { 0x80, 0x80, 0x01 }, 3 },
		{ (1ULL << 32) - 1, { 0xff, 0xff, 0xff, 0xff, 0x0f }, 5 },
		{ 1ULL << 32, { 0x80, 0x80, 0x80, 0x80, 0x10 }, 5 },
		{ 1ULL << 63, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 }, 10 },
		{ UINT64_MAX, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 }, 10 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t out[PB_VARINT_MAX + 1];

		memset(out, CANARY, sizeof(out));
		assert_int_equal(pb_varint_encode(out, cases[i].v), cases[i].n);
		assert_int_equal(pb_varint_size(cases[i].v), cases[i].n);
		assert_memory_equal(out, cases[i].bytes, cases[i].n);
		assert_int_equal(out[cases[i].n], CANARY);
	}
}

/* int64 -1 and INT64_MIN are ten-byte varints; sint64 zigzags; tags of large field numbers. */
static void signed_values_and_tags(void **state)
{
	uint8_t mem[64];
	struct pb_buf b;
	static const uint8_t minus_one[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t min[] = { 0x20, 0x80, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x80, 0x80, 0x01 };
	/* field 30 (tag 0xf0 0x01) -5; sint field 2 -3 (zigzag 5); bool field 1 */
	static const uint8_t mixed[] = { 0xf0, 0x01, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0x01, 0x10, 0x05, 0x08, 0x01 };

	(void)state;
	pb_init(&b, mem, sizeof(mem));
	pb_int(&b, 1, -1);
	assert_bytes(&b, minus_one, sizeof(minus_one));
	pb_reset(&b);
	pb_int(&b, 4, INT64_MIN);
	assert_bytes(&b, min, sizeof(min));
	pb_reset(&b);
	pb_int(&b, 30, -5);
	pb_sint(&b, 2, -3);
	pb_bool(&b, 1, true);
	assert_bytes(&b, mixed, sizeof(mixed));
	assert_int_equal(pb_zigzag64(0), 0);
	assert_int_equal(pb_zigzag64(-1), 1);
	assert_int_equal(pb_zigzag64(1), 2);
	assert_int_equal(pb_zigzag64(-2), 3);
	assert_true(pb_zigzag64(INT64_MAX) == UINT64_MAX - 1);
	assert_true(pb_zigzag64(INT64_MIN) == UINT64_MAX);
}

/* fixed64 little-endian (flow id 7, field 47), a double (12.5, field 44), bytes. */
static void fixed_double_and_bytes(void **state)
{
	uint8_t mem[64];
	struct pb_buf b;
	static const uint8_t want[] = {
		0xf9, 0x02, 0x07, 0, 0, 0, 0, 0, 0, 0, /* 47 << 3 | 1 = 377 */
		0xe1, 0x02, 0, 0, 0, 0, 0, 0, 0x29, 0x40, /* 0x4029000000000000 */
		0x12, 0x03, 'a', 'b', 'c', 0x1a, 0x00,
	};

	(void)state;
	pb_init(&b, mem, sizeof(mem));
	pb_fixed64(&b, 47, 7);
	pb_double(&b, 44, 12.5);
	pb_bytes(&b, 2, "abc", 3);
	pb_bytes(&b, 3, "", 0);
	assert_bytes(&b, want, sizeof(want));
}

static void nested_lengths(void **state)
{
	static uint8_t mem[20000], big[16384];
	struct pb_buf b;
	static const uint8_t small[] = { 0x0a, 0x07, 0x40, 0xe8, 0x07, 0x5a,
					 0x02, 0x48, 0x01, 0x0a, 0x00 };

	(void)state;
	pb_init(&b, mem, sizeof(mem));
	pb_begin(&b, 1);
	pb_uint(&b, 8, 1000);
	pb_begin(&b, 11);
	pb_uint(&b, 9, 1);
	pb_end(&b);
	pb_end(&b);
	pb_begin(&b, 1);
	pb_end(&b);
	assert_bytes(&b, small, sizeof(small));

	/* 200 bytes inside: the inner field is 203, its length two bytes (0xcb 0x01) */
	pb_reset(&b);
	pb_begin(&b, 1);
	pb_bytes(&b, 2, memset(big, 'x', 200), 200);
	pb_end(&b);
	assert_true(pb_ok(&b));
	assert_int_equal(b.len, 3 + 203);
	assert_memory_equal(mem, ((uint8_t[]){ 0x0a, 0xcb, 0x01, 0x12, 0xc8, 0x01, 'x' }), 7);
	assert_int_equal(mem[3 + 202], 'x');

	/* 16384 inside: 16388, three bytes of length (0x84 0x80 0x01), in a message nested twice */
	pb_reset(&b);
	pb_begin(&b, 1);
	pb_begin(&b, 3);
	pb_bytes(&b, 2, memset(big, 'y', sizeof(big)), sizeof(big));
	pb_end(&b);
	pb_end(&b);
	assert_true(pb_ok(&b));
	assert_int_equal(b.len, 4 + 4 + 16388);
	assert_memory_equal(mem,
			    ((uint8_t[]){ 0x0a, 0x88, 0x80, 0x01, 0x1a, 0x84, 0x80, 0x01, 0x12,
					  0x80, 0x80, 0x01, 'y' }),
			    13);
	assert_int_equal(mem[b.len - 1], 'y');
}

/* A buffer of cap bytes in a larger one whose tail must stay untouched. */
struct guarded {
	uint8_t mem[256];
	struct pb_buf b;
};

static void guard(struct guarded *g, size_t cap)
{
	memset(g->mem, CANARY, sizeof(g->mem));
	pb_init(&g->b, g->mem, cap);
}

static void assert_guard_intact(const struct guarded *g)
{
	for (size_t i = g->b.cap; i < sizeof(g->mem); i++)
		assert_int_equal(g->mem[i], CANARY);
}

/* What does not fit is counted, never written; after it nothing is. */
static void exhaustion_counted_never_overflowed(void **state)
{
	struct guarded g;

	(void)state;
	guard(&g, 4);
	pb_uint(&g.b, 1, 300); /* 08 ac 02 */
	assert_true(pb_ok(&g.b));
	pb_uint(&g.b, 2, 1); /* the tag fits, the value does not */
	pb_bytes(&g.b, 3, "hello", 5); /* 7 more */
	assert_false(pb_ok(&g.b));
	assert_int_equal(g.b.len, 4);
	assert_int_equal(g.b.lost, 1 + 7);
	assert_guard_intact(&g);
	pb_reset(&g.b);
	assert_true(pb_ok(&g.b));
	assert_int_equal(g.b.len, 0);

	/* the content fits, its length's second byte does not */
	guard(&g, 130);
	pb_begin(&g.b, 1);
	pb_bytes(&g.b, 2, g.mem + 200, 126); /* 128 inside: two bytes of length */
	assert_int_equal(g.b.len, 130);
	pb_end(&g.b);
	assert_false(pb_ok(&g.b));
	assert_int_equal(g.b.lost, 1);
	assert_guard_intact(&g);

	/* a cap of 0 and no memory at all */
	pb_init(&g.b, NULL, 100);
	pb_uint(&g.b, 1, 1);
	assert_int_equal(g.b.lost, 2);
	assert_int_equal(g.b.len, 0);
}

static void nesting_bounded(void **state)
{
	struct guarded g;

	(void)state;
	guard(&g, 64);
	for (int i = 0; i < PB_MAX_DEPTH; i++)
		pb_begin(&g.b, 1);
	assert_false(g.b.too_deep);
	pb_begin(&g.b, 1);
	assert_true(g.b.too_deep);
	for (int i = 0; i <= PB_MAX_DEPTH + 2; i++)
		pb_end(&g.b); /* more ends than begins: nothing */
	assert_int_equal(g.b.depth, 0);
	assert_false(pb_ok(&g.b));
	assert_guard_intact(&g);
	guard(&g, 64);
	pb_begin(&g.b, 1);
	assert_false(pb_ok(&g.b)); /* a message left open */
}

/* Random writes into every cap: it fits exactly when the unbounded result does, byte for byte. */
static void random_writes_fit_iff_they_would(void **state)
{
	static uint8_t ref_mem[4096];
	uint8_t payload[150];

	(void)state;
	memset(payload, 'p', sizeof(payload));
	srand(28);
	for (int round = 0; round < 3000; round++) {
		struct guarded g;
		struct pb_buf ref;
		unsigned int seed = (unsigned int)rand();

		guard(&g, (size_t)(rand() % 200));
		pb_init(&ref, ref_mem, sizeof(ref_mem));
		for (struct pb_buf *b = &ref; b; b = b == &ref ? &g.b : NULL) {
			unsigned int r = seed;
			int open = 0;

			for (int op = 0; op < 12; op++) {
				r = r * 1103515245 + 12345;
				switch ((r >> 16) % 5) {
				case 0:
					pb_uint(b, (r >> 8) % 70 + 1, (uint64_t)r << (r % 40));
					break;
				case 1:
					pb_fixed64(b, 47, r);
					break;
				case 2:
					pb_bytes(b, 2, payload, (r >> 4) % sizeof(payload));
					break;
				case 3:
					pb_begin(b, 11);
					open++;
					break;
				default:
					if (open) {
						pb_end(b);
						open--;
					}
				}
			}
			while (open--)
				pb_end(b);
		}
		assert_true(pb_ok(&ref));
		assert_int_equal(pb_ok(&g.b), ref.len <= g.b.cap);
		if (pb_ok(&g.b))
			assert_memory_equal(g.mem, ref_mem, ref.len);
		else
			assert_true(g.b.lost > 0 && g.b.len <= g.b.cap);
		assert_guard_intact(&g);
	}
}

static void utf8_clean_cases(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} cases[] = {
		{ "plain", 5, "plain" },
		{ "h\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", 12,
		  "h\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e" },
		{ "a\xff" "b", 3, "a\xef\xbf\xbd" "b" },
		{ "\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd" }, /* overlong '/' */
		/* an overlong form in 3 bytes */
		{ "\xe0\x80\xaf", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* a surrogate */
		/* past U+10FFFF */
		{ "\xf4\x90\x80\x80", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "x\xe2\x82", 3, "x\xef\xbf\xbd\xef\xbf\xbd" }, /* cut short */
		{ "a\0b", 3, "a\xef\xbf\xbd" "b" }, /* NUL */
		{ "\x80", 1, "\xef\xbf\xbd" }, /* a lone continuation */
	};
	char out[64];
	bool cut;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = utf8_clean(cases[i].in, cases[i].n, out, sizeof(out), &cut);

		assert_string_equal(out, cases[i].out);
		assert_int_equal(n, strlen(cases[i].out));
		assert_false(cut);
	}
	/* cut at a character, never inside one: "ab€" into 5 bytes is "ab" */
	assert_int_equal(utf8_clean("ab\xe2\x82\xac", 5, out, 5, &cut), 2);
	assert_string_equal(out, "ab");
	assert_true(cut);
	assert_int_equal(utf8_clean("ab", 2, out, 1, &cut), 0);
	assert_string_equal(out, "");
	memset(out, CANARY, sizeof(out));
	assert_int_equal(utf8_clean("ab", 2, out, 0, NULL), 0);
	assert_int_equal((uint8_t)out[0], CANARY);
}

/*
 * Every 1- and 2-byte input and random longer ones: valid by iconv, within the
 * size, unchanged when valid.
 */
static void utf8_clean_any_bytes(void **state)
{
	char in[8], out[32], big_out[64];

	(void)state;
	srand(8);
	for (uint32_t v = 0; v < (1u << 16) + 200000; v++) {
		size_t n = v < 256 ? 1 : v < (1u << 16) ? 2 : (size_t)(rand() % 8) + 1;
		size_t size = v < (1u << 16) ? sizeof(out) : (size_t)(rand() % 12) + 1;
		size_t w;

		in[0] = (char)v;
		in[1] = (char)(v >> 8);
		for (size_t i = v < (1u << 16) ? 2 : 0; i < n; i++)
			in[i] = (char)(rand() & 0xff);
		w = utf8_clean(in, n, out, size, NULL);
		assert_true(w < size && out[w] == '\0');
		assert_true(utf8_judge_valid(out, w));
		if (utf8_judge_valid(in, n)) {
			utf8_clean(in, n, big_out, sizeof(big_out), NULL);
			assert_memory_equal(big_out, in, n);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(varints_at_the_boundaries),
		cmocka_unit_test(signed_values_and_tags),
		cmocka_unit_test(fixed_double_and_bytes),
		cmocka_unit_test(nested_lengths),
		cmocka_unit_test(exhaustion_counted_never_overflowed),
		cmocka_unit_test(nesting_bounded),
		cmocka_unit_test(random_writes_fit_iff_they_would),
		cmocka_unit_test(utf8_clean_cases),
		cmocka_unit_test(utf8_clean_any_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
