// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer: the config file's text ($XDG_CONFIG_HOME/gputop-bpf/config). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tui/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256];
	struct tui_prefs p;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	prefs_defaults(&p);
	prefs_parse(text, "config", &p, err, sizeof(err));
	free(text);
	return 0;
}
