// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A trace file drawn as --trace FILE.svg draws the trace it writes (output/trace_svg.h), for the
 * pictures of docs/ and the tests: render IN.pftrace OUT.svg [FROM_MS TO_MS] (a window of it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/trace_svg.h"

#define IN_MAX (256u << 20)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(IN_MAX);

	*len = 0;
	if (!f || !buf) {
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, IN_MAX, f);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	uint64_t from = 0, to = UINT64_MAX;
	size_t len;
	char *in;
	FILE *out;
	int err;

	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: %s IN.pftrace OUT.svg [FROM_MS TO_MS]\n", argv[0]);
		return 2;
	}
	if (argc == 5) {
		from = (uint64_t)(strtod(argv[3], NULL) * 1e6);
		to = (uint64_t)(strtod(argv[4], NULL) * 1e6);
	}
	in = slurp(argv[1], &len);
	out = fopen(argv[2], "w");
	if (!in || !out) {
		fprintf(stderr, "%s: %s\n", argv[in ? 2 : 1], strerror(errno));
		return 1;
	}
	err = trace_svg_write_window(in, len, out, "gputop-bpf trace", from, to);
	if (fclose(out) && !err)
		err = -EIO;
	free(in);
	if (err)
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-err));
	return err ? 1 : 0;
}
