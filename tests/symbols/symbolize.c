// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A test helper, not in the product: addresses of a live process (or of the
 * kernel, PID 0) to frames, as the symbolizer gives them.
 *   symbolize [-d DEBUG_DIR] [-f] PID ADDR...
 * One "ADDR frame+0xoff" line an address; with -f one folded-stack line of
 * the addresses as a stack, leaf first (every address after the first is a
 * return address: looked up one byte before, inside the call).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/folded.h"
#include "symbols/symbolizer.h"

#define ADDRS_MAX 256

static int usage(void)
{
	fprintf(stderr, "usage: symbolize [-d DEBUG_DIR] [-f] PID ADDR...\n");
	return 2;
}

static void resolve(struct symbolizer *s, struct sym_process *p, pid_t pid, uint64_t addr,
		    struct frame *f)
{
	if (pid)
		symbolize_user(s, p, addr, f);
	else
		symbolize_kernel(s, addr, f);
}

int main(int argc, char **argv)
{
	struct symbolizer_config cfg = { 0 };
	static struct frame frames[ADDRS_MAX];
	struct symbolizer s;
	struct sym_process p = { 0 };
	bool folded = false;
	int opt, i, n, err;
	pid_t pid;

	while ((opt = getopt(argc, argv, "d:f")) != -1) {
		if (opt == 'd')
			cfg.debug_dir = optarg;
		else if (opt == 'f')
			folded = true;
		else
			return usage();
	}
	if (argc - optind < 2 || argc - optind - 1 > ADDRS_MAX)
		return usage();
	pid = (pid_t)atoi(argv[optind]);
	if (symbolizer_init(&s, &cfg))
		return 1;
	if (pid && (err = sym_process_capture(&p, pid))) {
		fprintf(stderr, "symbolize: process %d: %s\n", (int)pid, strerror(-err));
		return 1;
	}
	for (i = optind + 1, n = 0; i < argc; i++, n++) {
		uint64_t addr = strtoull(argv[i], NULL, 16);
		char text[FRAME_NAME_MAX + FRAME_MODULE_MAX + 32];

		resolve(&s, &p, pid, folded && n ? addr - 1 : addr, &frames[n]);
		if (!folded) {
			frame_text(&frames[n], true, text, sizeof(text));
			printf("%#" PRIx64 " %s\n", addr, text);
		}
	}
	if (folded)
		folded_write(stdout, frames, (size_t)n, false, 1);
	sym_process_free(&p);
	symbolizer_free(&s);
	return 0;
}
