// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The recording reader alone (not a test; bench/replay-scale.sh): each line of
 * a recording parsed into a snapshot, its derived tables made and freed, as the
 * replay's reader thread does, timed; prints the lines' bytes, the parse time
 * and the derivation's time per line, the first (cold heap) apart from the rest.
 *   read_bench RECORDING
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/snapshot.h"
#include "recording/json_read.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static struct json_read_hints hints; /* as the replay's reader keeps them */
	double ms[4096], derive_ms[4096], first = 0, derive_first = 0;
	size_t cap = 0, n = 0, bytes = 0;
	char *line = NULL, err[640];
	ssize_t len;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "re"))) {
		fprintf(stderr, "usage: read_bench RECORDING\n");
		return 2;
	}
	/* as replay_open: the heap's pages kept from one snapshot to the next */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	while ((len = getline(&line, &cap, f)) > 0 && n < sizeof(ms) / sizeof(ms[0])) {
		double t0 = now_ms(), t1;
		struct snapshot *s = snapshot_from_json_hinted(line, &hints, err, sizeof(err));

		if (!s) {
			fprintf(stderr, "read_bench: line %zu: %s\n", n + 1, err);
			return 1;
		}
		t1 = now_ms();
		if (snapshot_derive(s)) {
			fprintf(stderr, "read_bench: line %zu: out of memory\n", n + 1);
			return 1;
		}
		derive_ms[n] = now_ms() - t1;
		snapshot_free(s);
		ms[n] = now_ms() - t0 - derive_ms[n];
		if (!n) {
			first = ms[0];
			derive_first = derive_ms[0];
		}
		bytes = (size_t)len > bytes ? (size_t)len : bytes;
		n++;
	}
	free(line);
	fclose(f);
	if (n < 2) {
		fprintf(stderr, "read_bench: fewer than two lines\n");
		return 1;
	}
	qsort(ms + 1, n - 1, sizeof(ms[0]), by_value);
	qsort(derive_ms + 1, n - 1, sizeof(derive_ms[0]), by_value);
	printf("reader: lines up to %zu bytes; first %.0f ms; the %zu after it: median %.0f ms, worst %.0f ms\n",
	       bytes, first, n - 1, ms[1 + (n - 1) / 2], ms[n - 1]);
	printf("derived tables (gpu.processes, nvidia.process_gpus' joined columns): first %.0f ms; the %zu after it: "
	       "median %.0f ms, worst %.0f ms\n",
	       derive_first, n - 1, derive_ms[1 + (n - 1) / 2], derive_ms[n - 1]);
	return 0;
}
