/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The unwinder's fixture (tests/unit/unwind/), for its unit test and its fuzz
 * target: a launch's stack copy as the BPF program sent it (sample.bin) and
 * its process's maps (maps.txt), re-pointed at the client and stand-in libcuda
 * kept beside them (their device and inode now); every other file made
 * anonymous, so that the walk ends at main's caller whatever this machine's C
 * library is. Paths are from the repository's root.
 */
#ifndef GPUTOP_TESTS_UNWIND_FIXTURE_H
#define GPUTOP_TESTS_UNWIND_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bpf/nvidia.h"
#include "symbols/symbolizer.h"

#define UNWIND_FIXTURE "tests/unit/unwind/"
#define UNWIND_FIXTURE_PID 4194303 /* above any pid_max: files opened by path, checked by inode */

/* The sample into *s; its size, 0 when unreadable or malformed. */
static inline size_t unwind_fixture_sample(struct nv_stack_sample *s)
{
	FILE *f = fopen(UNWIND_FIXTURE "sample.bin", "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(s, 1, sizeof(*s), f);
	fclose(f);
	if (n < offsetof(struct nv_stack_sample, stack.data) ||
	    s->stack.size > n - offsetof(struct nv_stack_sample, stack.data))
		return 0;
	return n;
}

/* One maps line re-pointed at the kept file of its name, or made anonymous. 0, or -1. */
static inline int unwind_fixture_line(const char *line, FILE *out)
{
	static const char *const kept[] = { "cuda-client", "libcuda.so.1" };
	char range[64], perms[8], off[32], abs[4096], rel[128];
	const char *path = strchr(line, '/');
	struct stat st;

	if (sscanf(line, "%63s %7s %31s", range, perms, off) != 3)
		return -1;
	for (size_t i = 0; path && i < 2; i++) {
		size_t n = strcspn(path, "\n"), k = strlen(kept[i]);

		if (n < k || strncmp(path + n - k, kept[i], k))
			continue;
		snprintf(rel, sizeof(rel), UNWIND_FIXTURE "%s", kept[i]);
		if (!realpath(rel, abs) || stat(abs, &st))
			return -1;
		fprintf(out, "%s %s %s %02x:%02x %lu %s\n", range, perms, off, major(st.st_dev),
			minor(st.st_dev), (unsigned long)st.st_ino, abs);
		return 0;
	}
	fprintf(out, "%s %s %s 00:00 0\n", range, perms, off);
	return 0;
}

/* The process as the monitor would have captured it, re-pointed. 0, or -1. */
static inline int unwind_fixture_process(struct sym_process *p)
{
	FILE *in = fopen(UNWIND_FIXTURE "maps.txt", "r"), *out;
	char line[8192], *text = NULL;
	size_t len = 0;
	int err = 0;

	if (!in)
		return -1;
	if (!(out = open_memstream(&text, &len))) {
		fclose(in);
		return -1;
	}
	while (!err && fgets(line, sizeof(line), in))
		err = unwind_fixture_line(line, out);
	fclose(in);
	fclose(out);
	memset(p, 0, sizeof(*p));
	p->pid = UNWIND_FIXTURE_PID;
	p->uid = getuid();
	p->perf_err = 1;
	if (!err && proc_maps_parse(&p->maps, text, len))
		err = -1;
	free(text);
	return err;
}

#endif
