// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmocka_all.h"
#include <stdio.h>
#include "collectors/kit/key_text.h"

struct key {
	unsigned int a, b;
	unsigned long long c;
};

/* Texts by key: each kept once, found again by the key's bytes, not by an equal text. */
static void kept_by_key(void **state)
{
	struct key_text kt;
	struct key k = { 1, 2, 3 }, other = { 1, 2, 4 };
	char text[32];

	(void)state;
	key_text_init(&kt, sizeof(k));
	assert_null(key_text_get(&kt, &k));
	assert_string_equal(key_text_put(&kt, &k, "main;f", false), "main;f");
	assert_null(key_text_put(&kt, &k, "again", false)); /* one text a key */
	assert_string_equal(key_text_get(&kt, &k), "main;f");
	assert_null(key_text_get(&kt, &other));
	for (unsigned int i = 0; i < 5000; i++) {
		struct key n = { i, i * 7, i };

		snprintf(text, sizeof(text), "t%u", i);
		assert_non_null(key_text_put(&kt, &n, text, false));
	}
	for (unsigned int i = 0; i < 5000; i++) {
		struct key n = { i, i * 7, i };

		snprintf(text, sizeof(text), "t%u", i);
		assert_string_equal(key_text_get(&kt, &n), text);
	}
	assert_string_equal(key_text_get(&kt, &k), "main;f");
	key_text_free(&kt);
}

/*
 * A text whose frames were partly unknown for now (the symbolizer late): not
 * given, replaced by the next put, kept from then on once made in full.
 */
static void made_again(void **state)
{
	struct key_text kt;
	struct key k = { 1, 2, 3 }, other = { 5, 6, 7 };

	(void)state;
	key_text_init(&kt, sizeof(k));
	assert_string_equal(key_text_put(&kt, &k, "main;[unknown]", true), "main;[unknown]");
	assert_non_null(key_text_put(&kt, &other, "main;g", false));
	assert_null(key_text_get(&kt, &k));
	assert_string_equal(key_text_put(&kt, &k, "main;[unknown]", true), "main;[unknown]");
	assert_null(key_text_get(&kt, &k));
	assert_string_equal(key_text_put(&kt, &k, "main;f", false), "main;f");
	assert_string_equal(key_text_get(&kt, &k), "main;f");
	assert_null(key_text_put(&kt, &k, "main;h", false));
	assert_string_equal(key_text_get(&kt, &k), "main;f");
	assert_string_equal(key_text_get(&kt, &other), "main;g");
	key_text_free(&kt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_by_key),
		cmocka_unit_test(made_again),
	};
	return cmocka_run_group_tests_name("key_text", tests, NULL, NULL);
}
