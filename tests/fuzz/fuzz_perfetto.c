// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer: the Perfetto writer driven by the input. Each step is an op byte
 * and a name (bytes up to the next NUL, any bytes at all), done 16 times:
 * tracks, slices on lanes, instants with annotations, counters, into a small
 * limit. The file must stay within the limit and be a well-framed sequence of
 * Trace packets.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perfetto.h"

/* The next name: bytes up to a NUL or the end, copied NUL-terminated into name. */
static const uint8_t *next_name(const uint8_t *p, const uint8_t *end, char *name, size_t size)
{
	size_t n = 0;

	while (p < end && *p && n + 1 < size)
		name[n++] = (char)*p++;
	name[n] = '\0';
	return p < end ? p + 1 : p;
}

static void step(struct perfetto_writer *w, struct perfetto_lanes *l, int *lanes, uint8_t op,
		 const char *name, uint64_t ts)
{
	struct perfetto_track t = { .uuid = ts + 100, .parent_uuid = op & 0x40 ? 100 : 0,
				    .kind = (enum perfetto_track_kind)(op % 4), .pid = op,
				    .tid = op, .name = name, .unit = op % 4 };
	struct perfetto_arg a[] = { { .name = name, .type = PERFETTO_ARG_STRING, .s = name },
				    { .name = "n", .type = PERFETTO_ARG_INT, .i = -(int64_t)ts } };
	uint64_t flow = ts / 2;
	struct perfetto_event e = { .ts_ns = ts, .track_uuid = 7, .type = PERFETTO_INSTANT,
				    .name = name, .args = a, .n_args = 2, .flow_ids = &flow,
				    .n_flow_ids = op & 1 };

	switch ((op >> 2) % 5) {
	case 0:
		perfetto_track(w, &t);
		break;
	case 1:
		perfetto_event(w, &e);
		break;
	case 2:
		lanes[ts % 64] = perfetto_lane_begin(w, l, &e);
		break;
	case 3:
		perfetto_lane_end(w, l, lanes[op % 64], &e);
		break;
	default:
		perfetto_counter_double(w, ts, 7, (double)op / 3);
	}
}

/* Each packet a Trace.packet field (0x0a) whose length stays within the file. */
static void assert_framed(const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;

	while (p < end) {
		uint64_t len = 0;

		if (*p++ != 0x0a)
			abort();
		for (int shift = 0; p < end; shift += 7) {
			len |= (uint64_t)(*p & 0x7f) << shift;
			if (!(*p++ & 0x80))
				break;
		}
		if (len > (uint64_t)(end - p))
			abort();
		p += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	uint64_t limit = PERFETTO_LIMIT_MIN + (size ? data[0] : 0) * 64ULL;
	struct perfetto_writer w;
	struct perfetto_lanes l;
	int lanes[64] = { 0 };
	char name[PERFETTO_STR_MAX * 2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || perfetto_writer_init(&w, f, limit))
		abort();
	perfetto_lanes_init(&l, 100);
	for (uint64_t ts = 1; p < end;) {
		uint8_t op = *p++;

		p = next_name(p, end, name, sizeof(name));
		for (int i = 0; i < 16; i++) /* short inputs reach the limit too */
			step(&w, &l, lanes, op, name, ts++);
	}
	if (perfetto_writer_finish(&w) || fclose(f))
		abort();
	if (len > limit)
		abort();
	assert_framed((const uint8_t *)buf, len);
	free(buf);
	return 0;
}
