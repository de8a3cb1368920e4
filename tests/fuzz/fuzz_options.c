// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer: the command line, the input split into arguments at NUL bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "src/options.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], err[256];
	struct options o;
	int argc = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "gputop-bpf";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	options_parse(argc, argv, &o, err, sizeof(err));
	free(buf);
	return 0;
}
