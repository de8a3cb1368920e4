// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The flame graph writer on folded stacks: boxes as wide as their share, a
 * caller's box spanning its callees, stacks of one path merged, hostile frame
 * text escaped for XML and cut to its box, bad lines skipped.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/flame_svg.h"
#include "tests/unit/utf8_judge.h"

/* The SVG of the folded text in; the caller frees it. */
static char *svg_of(const char *in)
{
	FILE *f = fmemopen((void *)in, strlen(in), "r"), *out;
	char *buf = NULL;
	size_t len = 0;

	assert_non_null(f);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(flame_svg_write(f, out, "launches", "launches"), 0);
	fclose(out);
	fclose(f);
	return buf;
}

/* The width of the box whose tooltip starts with title (-1: none). */
static double width_of(const char *svg, const char *title)
{
	char key[128];
	const char *at;

	snprintf(key, sizeof(key), "<title>%s (", title);
	at = strstr(svg, key);
	if (!at || !(at = strstr(at, "width=\"")))
		return -1;
	return atof(at + 7);
}

static void widths_are_shares(void **state)
{
	char *svg = svg_of("python3;main;phase_a;cuLaunchKernel 3\n"
			   "python3;main;phase_b;cuLaunchKernel 1\n"
			   "python3;main;phase_a;cuLaunchKernel 0\n" /* no weight: skipped */
			   "not a line\n");

	(void)state;
	assert_non_null(strstr(svg, "launches (4 in all)"));
	assert_true(width_of(svg, "all") > 1199.9);
	assert_true(width_of(svg, "main") > 1199.9); /* one box: the stacks of one path merged */
	assert_true(width_of(svg, "phase_a") > 899.9 && width_of(svg, "phase_a") < 900.1);
	assert_true(width_of(svg, "phase_b") > 299.9 && width_of(svg, "phase_b") < 300.1);
	assert_non_null(strstr(svg, "<title>phase_a (3 launches, 75.00%)")); /* the weight with its unit */
	assert_null(strstr(svg, "not a line"));
	free(svg);
}

static void hostile_text_escaped(void **state)
{
	char *svg = svg_of("evil</text><script>&\"'\x01;x 2\n");

	(void)state;
	assert_null(strstr(svg, "<script>"));
	assert_null(strstr(svg, "\x01"));
	assert_non_null(strstr(svg, "evil&lt;/text&gt;&lt;script&gt;&amp;&quot;&apos;?"));
	free(svg);
}

/* Bytes that are not UTF-8 in a frame (XML takes none): U+FFFD each, the document valid UTF-8. */
static void not_utf8_replaced(void **state)
{
	char *svg = svg_of("caf\xe9;\x80x\xc0\xaf;\xed\xa0\x80 2\n");

	(void)state;
	assert_true(utf8_judge_valid(svg, strlen(svg)));
	assert_non_null(strstr(svg, "<title>caf\xef\xbf\xbd (2 launches, 100.00%)"));
	assert_non_null(strstr(svg, "<title>\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd (2 launches,"));
	free(svg);
}

static void long_names_cut_to_their_box(void **state)
{
	char name[400], line[500];
	char *svg, *text;

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(line, sizeof(line), "%s;short 1\nother 3\n", name);
	svg = svg_of(line);
	/* its box is a quarter of 1200 px (after other's three quarters): about 40 characters of
	 * 7.2 px, the cut said by ".." */
	text = strstr(svg, "<text x=\"903.0\" y=");
	assert_non_null(text);
	text = strstr(text, ">nnn");
	assert_non_null(text);
	assert_true(strchr(text, '<') - text - 1 <= 42);
	assert_non_null(strstr(text, "..</text>"));
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(widths_are_shares),
		cmocka_unit_test(hostile_text_escaped),
		cmocka_unit_test(not_utf8_replaced),
		cmocka_unit_test(long_names_cut_to_their_box),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
