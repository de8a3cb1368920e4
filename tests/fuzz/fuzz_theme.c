// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer: a theme file's text (--theme FILE). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256];
	struct theme t;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&t, 0, sizeof(t));
	theme_parse(text, "fuzz.theme", &t, err, sizeof(err));
	free(text);
	return 0;
}
