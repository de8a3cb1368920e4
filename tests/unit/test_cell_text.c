// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Names others chose, printed in batch text: no control character gets through; widths in cells. */
#include "tests/unit/cmocka_all.h"
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/cell_text.h"

static char *printed(const char *in, int width, bool left)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	text_print_cell(f, in, width, left, true);
	fclose(f);
	return buf;
}

static void controls_become_question_marks(void **state)
{
	(void)state;
	/* OSC 52 (sets the clipboard) in a 15-byte comm, BEL-terminated */
	assert_string_equal(printed("\x1b]52;c;aGk=\x07x", 0, true), "?]52;c;aGk=?x");
	/* CSI, DEL, a C1 control (U+009B, the one-byte CSI) and a byte that is not UTF-8 */
	assert_string_equal(printed("a\x1b[2Jb\x7f" "c\xc2\x9b" "d\xff", 0, true), "a?[2Jb?c?d?");
	assert_null(strchr(printed("\r\n\t", 0, true), '\r'));
}

static void padded_by_cells(void **state)
{
	(void)state;
	/* two wide characters are four cells: four spaces make eight */
	assert_string_equal(printed("\xe9\x80\xb2\xe7\xa8\x8b", 8, true), "\xe9\x80\xb2\xe7\xa8\x8b    ");
	assert_string_equal(printed("ab", 5, false), "   ab");
	assert_int_equal(strspn(printed("ab", 150, false), " "), 148); /* more than one block of spaces */
	assert_string_equal(printed("ab", 150, false) + 148, "ab");
	/* longer than the width: printed whole, never cut */
	assert_string_equal(printed("abcdefgh", 3, true), "abcdefgh");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(controls_become_question_marks),
					    cmocka_unit_test(padded_by_cells) };

	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "SKIP test_cell_text: no C.UTF-8 locale\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
