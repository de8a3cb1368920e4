// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Perfetto writer: packets against hand-computed bytes, the lane allocator,
 * the interning index, the size limit and what it drops, names that are not
 * UTF-8. (tests/perfetto/run.sh decodes whole traces with protoc.)
 */
#include "tests/unit/cmocka_all.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/perfetto.h"
#include "tests/unit/pb_read.h"
#include "tests/unit/utf8_judge.h"

/* A writer into memory: the bytes so far are mem.buf[0..mem.len) after a flush. */
struct mem_trace {
	char *buf;
	size_t len;
	FILE *f;
	struct perfetto_writer w;
};

static void mem_open(struct mem_trace *m, uint64_t limit)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	assert_int_equal(perfetto_writer_init(&m->w, m->f, limit), 0);
}

static void mem_close(struct mem_trace *m)
{
	assert_int_equal(perfetto_writer_finish(&m->w), 0);
	fclose(m->f);
	free(m->buf);
}

/* The bytes written since *at, which moves past them. */
static void assert_written(struct mem_trace *m, size_t *at, const uint8_t *want, size_t n)
{
	fflush(m->f);
	assert_int_equal(m->len - *at, n);
	assert_memory_equal(m->buf + *at, want, n);
	*at = m->len;
}

/* Each message kind, byte for byte (field numbers: output/perfetto.c, perfetto/trace.proto). */
static void packets_byte_for_byte(void **state)
{
	static const uint8_t process[] = {
		0x0a, 0x12, /* Trace.packet, 18 bytes */
		0x50, 0x01, /* trusted_packet_sequence_id 1 */
		0x68, 0x01, /* sequence_flags SEQ_INCREMENTAL_STATE_CLEARED */
		0xe2, 0x03, 0x0b, /* track_descriptor (60), 11 */
		0x08, 0x0a, /* uuid 10 */
		0x1a, 0x07, 0x08, 0x92, 0x21, /* process { pid 4242 */
		0x32, 0x02, 'g', 'l', /* process_name "gl" } */
	};
	static const uint8_t instant[] = {
		0x0a, 0x1a, 0x40, 0xe8, 0x07, /* timestamp 1000 */
		0x50, 0x01, 0x68, 0x02, /* SEQ_NEEDS_INCREMENTAL_STATE */
		/* interned_data { event_names { iid 1 name "vb" } } */
		0x62, 0x08, 0x12, 0x06, 0x08, 0x01, 0x12, 0x02, 'v', 'b',
		0x5a, 0x07, 0x48, 0x03, /* track_event { TYPE_INSTANT */
		0x58, 0xac, 0x02, 0x50, 0x01, /* track_uuid 300, name_iid 1 } */
	};
	static const uint8_t slice[] = {
		0x0a, 0x30, 0x40, 0x01, 0x50, 0x01, 0x68, 0x02,
		/* interned_data { debug_annotation_names { iid 1 name "n" } } */
		0x62, 0x07, 0x1a, 0x05, 0x08, 0x01, 0x12, 0x01, 'n',
		0x5a, 0x1f, 0x48, 0x01, 0x58, 0x05, 0x50, 0x01, /* SLICE_BEGIN on 5, "vb" again */
		0xf9, 0x02, 0x07, 0, 0, 0, 0, 0, 0, 0, /* flow_ids 7 (fixed64) */
		0x22, 0x0d, 0x08, 0x01, /* debug_annotations { name_iid 1 */
		/* int_value -2 } */
		0x20, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
	};
	static const uint8_t counter[] = {
		0x0a, 0x18, 0x40, 0xd0, 0x0f, 0x50, 0x01, /* timestamp 2000, no flags */
		0x5a, 0x11, 0x48, 0x04, 0x58, 0x90, 0x03, /* TYPE_COUNTER on 400 */
		/* counter_value -1 */
		0xf0, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
	};
	static const uint8_t dcounter[] = {
		0x0a, 0x16, 0x40, 0xd0, 0x0f, 0x50, 0x01, 0x5a, 0x0f, 0x48, 0x04, 0x58, 0x90, 0x03,
		0xe1, 0x02, 0, 0, 0, 0, 0, 0, 0x29, 0x40, /* double_counter_value 12.5 */
	};
	static const uint8_t counter_track[] = {
		0x0a, 0x11, 0x50, 0x01, 0xe2, 0x03, 0x0c, 0x08, 0x90, 0x03, /* uuid 400 */
		0x28, 0x0a, /* parent_uuid 10 */
		0x12, 0x01, 'V', /* name "V" */
		0x42, 0x02, 0x18, 0x03, /* counter { unit UNIT_SIZE_BYTES } */
	};
	const struct perfetto_track p = {
		.uuid = 10, .kind = PERFETTO_TRACK_PROCESS, .pid = 4242, .name = "gl"
	};
	const struct perfetto_track c = { .uuid = 400, .parent_uuid = 10,
					  .kind = PERFETTO_TRACK_COUNTER, .name = "V",
					  .unit = PERFETTO_UNIT_BYTES };
	const struct perfetto_event i = {
		.ts_ns = 1000, .track_uuid = 300, .type = PERFETTO_INSTANT, .name = "vb"
	};
	const uint64_t flow = 7;
	const struct perfetto_arg arg = { .name = "n", .type = PERFETTO_ARG_INT, .i = -2 };
	const struct perfetto_event s = { .ts_ns = 1, .track_uuid = 5, .type = PERFETTO_SLICE_BEGIN,
					  .name = "vb", .flow_ids = &flow, .n_flow_ids = 1,
					  .args = &arg, .n_args = 1 };
	struct mem_trace m;
	size_t at = 0;

	(void)state;
	mem_open(&m, 1 << 20);
	assert_int_equal(perfetto_track(&m.w, &p), 0);
	assert_written(&m, &at, process, sizeof(process));
	assert_int_equal(perfetto_event(&m.w, &i), 0);
	assert_written(&m, &at, instant, sizeof(instant));
	assert_int_equal(perfetto_event(&m.w, &s), 0);
	assert_written(&m, &at, slice, sizeof(slice));
	assert_int_equal(perfetto_counter(&m.w, 2000, 400, -1), 0);
	assert_written(&m, &at, counter, sizeof(counter));
	assert_int_equal(perfetto_counter_double(&m.w, 2000, 400, 12.5), 0);
	assert_written(&m, &at, dcounter, sizeof(dcounter));
	assert_int_equal(perfetto_track(&m.w, &c), 0);
	assert_written(&m, &at, counter_track, sizeof(counter_track));
	assert_int_equal(m.w.dropped, 0);
	assert_int_equal(m.w.packets, 6);
	mem_close(&m);
}

/*
 * Callstacks (perfetto_callstack.c) byte for byte: a name shared by a native
 * and a kernel frame interned once, a repeated frame once, an event pointing
 * at its callstack, a second callstack that writes only what is new.
 */
static void callstacks_byte_for_byte(void **state)
{
	static const uint8_t first[] = {
		0x0a, 0x27, 0x50, 0x01, /* no timestamp */
		0x68, 0x03, /* SEQ_INCREMENTAL_STATE_CLEARED | SEQ_NEEDS_INCREMENTAL_STATE */
		0x62, 0x21, /* interned_data, 33 bytes */
		0x2a, 0x05, 0x08, 0x01, 0x12, 0x01, 'm', /* function_names { iid 1 str "m" } */
		0x32, 0x06, 0x08, 0x01, 0x10, 0x01, 0x38, 0x01, /* frames { 1, name 1, KIND_NATIVE } */
		0x32, 0x06, 0x08, 0x02, 0x10, 0x01, 0x38, 0x02, /* frames { 2, name 1, KIND_KERNEL } */
		/* callstacks { iid 1 frame_ids 1 2 1 } */
		0x3a, 0x08, 0x08, 0x01, 0x10, 0x01, 0x10, 0x02, 0x10, 0x01,
	};
	static const uint8_t event[] = {
		0x0a, 0x0f, 0x40, 0x05, 0x50, 0x01, 0x68, 0x02,
		0x5a, 0x07, 0x48, 0x03, 0x58, 0x09, /* track_event { TYPE_INSTANT on 9 */
		0xc0, 0x03, 0x01, /* callstack_iid (56) 1 } */
	};
	static const uint8_t second[] = {
		0x0a, 0x1f, 0x40, 0x06, 0x50, 0x01, 0x68, 0x02, 0x62, 0x17, /* timestamp 6 */
		0x2a, 0x05, 0x08, 0x02, 0x12, 0x01, 'g', /* function_names { iid 2 str "g" } */
		0x32, 0x06, 0x08, 0x03, 0x10, 0x02, 0x38, 0x01, /* frames { 3, name 2, KIND_NATIVE } */
		0x3a, 0x06, 0x08, 0x02, 0x10, 0x01, 0x10, 0x03, /* callstacks { iid 2 frame_ids 1 3 } */
	};
	const struct perfetto_frame a[] = { { "m", false }, { "m", true }, { "m", false } };
	const struct perfetto_frame b[] = { { "m", false }, { "g", false } };
	const struct perfetto_event e = { .ts_ns = 5, .track_uuid = 9, .type = PERFETTO_INSTANT,
					  .callstack_iid = 1 };
	struct mem_trace m;
	size_t at = 0;
	uint64_t iid;

	(void)state;
	mem_open(&m, 1 << 20);
	assert_int_equal(perfetto_callstack(&m.w, 0, a, 3, &iid), 0);
	assert_int_equal(iid, 1);
	assert_written(&m, &at, first, sizeof(first));
	assert_int_equal(perfetto_event(&m.w, &e), 0);
	assert_written(&m, &at, event, sizeof(event));
	assert_int_equal(perfetto_callstack(&m.w, 6, b, 2, &iid), 0);
	assert_int_equal(iid, 2);
	assert_written(&m, &at, second, sizeof(second));
	assert_int_equal(m.w.function_names.n, 2);
	assert_int_equal(m.w.frames.n, 3);
	assert_int_equal(m.w.dropped, 0);
	mem_close(&m);
}

/*
 * Bad calls refused; an iid never given refused; a callstack past the limit
 * neither written nor counted as an event dropped; events without their stack
 * counted in the note.
 */
static void callstacks_bounded(void **state)
{
	static struct perfetto_frame many[PERFETTO_STACK_MAX + 1];
	struct perfetto_event e = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
				    .name = "launch", .callstack_iid = 1 };
	const struct perfetto_frame f = { "main", false };
	struct mem_trace m;
	uint64_t iid = 7;
	int err = 0;

	(void)state;
	for (size_t i = 0; i < PERFETTO_STACK_MAX + 1; i++)
		many[i] = (struct perfetto_frame){ "a_long_function_name_of_forty_bytes_abcd", false };
	mem_open(&m, PERFETTO_LIMIT_MIN);
	assert_int_equal(perfetto_callstack(&m.w, 1, &f, 0, &iid), -EINVAL);
	assert_int_equal(iid, 0);
	assert_int_equal(perfetto_callstack(&m.w, 1, many, PERFETTO_STACK_MAX + 1, &iid), -EINVAL);
	assert_int_equal(perfetto_event(&m.w, &e), -EINVAL); /* iid 1 not given yet */
	assert_int_equal(m.w.dropped, 1);
	for (int i = 0; i < 200 && !err; i++) {
		char name[16];
		struct perfetto_frame g = { name, false };

		snprintf(name, sizeof(name), "f%d", i);
		err = perfetto_callstack(&m.w, 1, &g, 1, &iid);
	}
	assert_int_equal(err, -ENOSPC);
	assert_int_equal(m.w.dropped, 1);
	assert_true(m.w.bytes <= PERFETTO_LIMIT_MIN - PERFETTO_NOTE_RESERVE);
	assert_int_equal(m.w.frames.n, m.w.callstacks); /* the one that did not fit kept nothing */
	perfetto_count_stack_lost(&m.w, 3);
	assert_int_equal(perfetto_writer_finish(&m.w), 0);
	fflush(m.f);
	assert_true(memmem(m.buf, m.len,
			   "1 events not written (too large, no track or lane), 3 events without their stacks",
			   80) != NULL);
	assert_true(memmem(m.buf, m.len, "stacks_lost", 11) != NULL);
	fclose(m.f);
	free(m.buf);
}

static void lanes_lowest_free_first(void **state)
{
	struct perfetto_lanes l;

	(void)state;
	perfetto_lanes_init(&l, 11);
	assert_int_equal(perfetto_lanes_take(&l), 0);
	assert_int_equal(perfetto_lanes_take(&l), 1);
	assert_int_equal(perfetto_lanes_take(&l), 2);
	perfetto_lanes_put(&l, 1);
	assert_int_equal(perfetto_lanes_busy(&l), 2);
	assert_int_equal(perfetto_lanes_take(&l), 1); /* the lowest free, not the next */
	perfetto_lanes_put(&l, 0);
	perfetto_lanes_put(&l, 2);
	assert_int_equal(perfetto_lanes_take(&l), 0);
	assert_int_equal(perfetto_lanes_take(&l), 2);
	assert_int_equal(perfetto_lanes_take(&l), 3);
	perfetto_lanes_put(&l, 3);
	perfetto_lanes_put(&l, 3); /* twice: nothing more */
	perfetto_lanes_put(&l, -1);
	perfetto_lanes_put(&l, PERFETTO_LANES_MAX);
	assert_int_equal(perfetto_lanes_busy(&l), 3);
	for (int i = 3; i < PERFETTO_LANES_MAX; i++)
		assert_int_equal(perfetto_lanes_take(&l), i);
	assert_int_equal(perfetto_lanes_take(&l), -1); /* all busy */
	assert_int_equal(perfetto_lanes_busy(&l), PERFETTO_LANES_MAX);
	perfetto_lanes_put(&l, 63);
	assert_int_equal(perfetto_lanes_take(&l), 63);
	perfetto_lanes_put(&l, 40);
	perfetto_lanes_put(&l, 17);
	assert_int_equal(perfetto_lanes_take(&l), 17);
	assert_int_equal(perfetto_lanes_take(&l), 40);
}

/* As many lanes as jobs were ever in flight at once, checked against a plain array. */
static void lanes_match_a_reference(void **state)
{
	struct perfetto_lanes l;
	bool busy[PERFETTO_LANES_MAX] = { false };
	int peak = 0, in_flight = 0, highest = -1;

	(void)state;
	perfetto_lanes_init(&l, 11);
	srand(64);
	for (int i = 0; i < 100000; i++) {
		int lane = rand() % PERFETTO_LANES_MAX, want = 0, got;

		if (rand() % 2 && busy[lane]) {
			perfetto_lanes_put(&l, lane);
			busy[lane] = false;
			in_flight--;
			continue;
		}
		while (want < PERFETTO_LANES_MAX && busy[want])
			want++;
		got = perfetto_lanes_take(&l);
		assert_int_equal(got, want < PERFETTO_LANES_MAX ? want : -1);
		if (got < 0)
			continue;
		busy[got] = true;
		in_flight++;
		peak = in_flight > peak ? in_flight : peak;
		highest = got > highest ? got : highest;
		assert_int_equal(perfetto_lanes_busy(&l), in_flight);
	}
	assert_int_equal(highest + 1, peak);
}

static void lane_uuids_distinct(void **state)
{
	uint64_t seen[3 * PERFETTO_LANES_MAX];
	const uint64_t parents[] = { 0, 11, 12 };
	size_t n = 0;

	(void)state;
	for (size_t p = 0; p < 3; p++) {
		for (int lane = 0; lane < PERFETTO_LANES_MAX; lane++) {
			uint64_t u = perfetto_lane_uuid(parents[p], lane);

			assert_true(u != 0 && u != parents[p]);
			assert_true(u == perfetto_lane_uuid(parents[p], lane));
			for (size_t j = 0; j < n; j++)
				assert_true(seen[j] != u);
			seen[n++] = u;
		}
	}
}

static void intern_bounded(void **state)
{
	struct perfetto_intern t;
	char s[16];

	(void)state;
	assert_int_equal(perfetto_intern_init(&t), 0);
	assert_int_equal(perfetto_intern_find(&t, "job"), 0);
	assert_int_equal(perfetto_intern_next(&t, 0), 1);
	assert_int_equal(perfetto_intern_next(&t, 2), 3);
	assert_true(perfetto_intern_add(&t, "job"));
	assert_true(perfetto_intern_add(&t, "vblank"));
	assert_true(perfetto_intern_add(&t, "job")); /* there already: the same iid */
	assert_int_equal(perfetto_intern_find(&t, "job"), 1);
	assert_int_equal(perfetto_intern_find(&t, "vblank"), 2);
	assert_int_equal(t.n, 2);
	for (int i = 2; i < PERFETTO_INTERN_MAX; i++) {
		snprintf(s, sizeof(s), "n%d", i);
		assert_int_equal(perfetto_intern_next(&t, 0), i + 1);
		assert_true(perfetto_intern_add(&t, s));
	}
	assert_int_equal(perfetto_intern_next(&t, 0), 0); /* full */
	assert_false(perfetto_intern_add(&t, "one more"));
	assert_int_equal(perfetto_intern_find(&t, "one more"), 0);
	assert_int_equal(perfetto_intern_find(&t, "n4095"), PERFETTO_INTERN_MAX);
	perfetto_intern_free(&t);
}

/* Follows a path of (field, nth) pairs from the trace's nth packet; false where it ends. */
static bool find_path(const struct mem_trace *m, size_t packet, const uint32_t *path, size_t depth,
		      const uint8_t **out, size_t *out_n)
{
	if (!find_field((const uint8_t *)m->buf, m->len, 1, packet, out, out_n))
		return false;
	for (size_t i = 0; i < depth; i++)
		if (!find_field(*out, *out_n, path[i], 0, out, out_n))
			return false;
	return true;
}

/* Names of any bytes, as long as they like: each written as valid UTF-8 of at most 255 bytes. */
static void hostile_names_written_safely(void **state)
{
	static const uint32_t process_name[] = { 60, 3, 6 }, thread_name[] = { 60, 4, 5 },
			      arg_value[] = { 11, 4, 6 };
	char name[700];
	struct mem_trace m;
	size_t packet = 0;

	(void)state;
	mem_open(&m, 64 << 20);
	srand(255);
	for (int i = 0; i < 3000; i++) {
		size_t n = (size_t)(rand() % (int)sizeof(name));
		struct perfetto_track t = {
			.uuid = (uint64_t)i + 1, .pid = i, .tid = i, .name = name,
			.kind = i % 2 ? PERFETTO_TRACK_THREAD : PERFETTO_TRACK_PROCESS,
		};
		struct perfetto_arg a = { .name = name, .type = PERFETTO_ARG_STRING, .s = name };
		struct perfetto_event e = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
					    .name = name, .args = &a, .n_args = 1 };
		const uint8_t *s;
		size_t len;

		for (size_t j = 0; j < n; j++)
			name[j] = (char)(rand() % 255 + 1);
		name[n] = '\0';
		assert_int_equal(perfetto_track(&m.w, &t), 0);
		assert_int_equal(perfetto_event(&m.w, &e), 0);
		fflush(m.f);
		assert_true(find_path(&m, packet++, i % 2 ? thread_name : process_name, 3, &s,
				      &len));
		assert_true(len < PERFETTO_STR_MAX && utf8_judge_valid(s, len));
		assert_true(find_path(&m, packet++, arg_value, 3, &s, &len));
		assert_true(len < PERFETTO_STR_MAX && utf8_judge_valid(s, len));
	}
	assert_int_equal(m.w.dropped, 0);
	mem_close(&m);
}

/* A name in a buffer of 255 bytes without a NUL (a fixed-size field): read no further. */
static void unterminated_name_read_within_bound(void **state)
{
	static const uint32_t track_name[] = { 60, 2 };
	char *raw = malloc(PERFETTO_STR_MAX - 1);
	struct perfetto_track t = { .uuid = 1, .name = raw };
	struct mem_trace m;
	const uint8_t *s;
	size_t len;

	(void)state;
	assert_non_null(raw);
	memset(raw, 'a', PERFETTO_STR_MAX - 1);
	mem_open(&m, 1 << 20);
	assert_int_equal(perfetto_track(&m.w, &t), 0);
	fflush(m.f);
	assert_true(find_path(&m, 0, track_name, 2, &s, &len));
	assert_int_equal(len, PERFETTO_STR_MAX - 1);
	assert_memory_equal(s, raw, len);
	free(raw);
	mem_close(&m);
}

/* A storm into the smallest limit: the file stays within it, each drop counted, the note last. */
static void limit_kept_and_drops_counted(void **state)
{
	const struct perfetto_event e = { .ts_ns = 5, .track_uuid = 1, .type = PERFETTO_INSTANT,
					  .name = "vblank" };
	static const uint32_t note_track[] = { 60, 2 }, note_value[] = { 11, 4 };
	struct mem_trace m;
	size_t written = 0, packets;
	const uint8_t *s;
	size_t len;
	uint64_t dropped;
	char text[160];

	(void)state;
	mem_open(&m, PERFETTO_LIMIT_MIN);
	perfetto_count_lost(&m.w, 2);
	for (int i = 0; i < 1000; i++) {
		int err = perfetto_event(&m.w, &e);

		assert_true(err == 0 || err == -ENOSPC);
		written += !err;
	}
	fflush(m.f);
	assert_true(m.len <= PERFETTO_LIMIT_MIN - PERFETTO_NOTE_RESERVE);
	assert_true(m.len > PERFETTO_LIMIT_MIN - PERFETTO_NOTE_RESERVE - 32);
	assert_int_equal(written + m.w.over_limit, 1000); /* the size limit's, by its name */
	assert_int_equal(m.w.lost, 2);
	assert_int_equal(m.w.dropped, 0);
	packets = m.w.packets;
	assert_int_equal(packets, written);
	assert_int_equal(perfetto_writer_finish(&m.w), 0);
	fflush(m.f);
	assert_true(m.len <= PERFETTO_LIMIT_MIN);
	assert_true(find_path(&m, packets, note_track, 2, &s, &len));
	assert_int_equal(len, strlen("gputop-bpf"));
	assert_memory_equal(s, "gputop-bpf", len);
	assert_true(find_path(&m, packets + 1, note_value, 2, &s, &len)); /* the first annotation */
	assert_int_equal(s[0], 0x08); /* name_iid 1: "over_limit" */
	assert_int_equal(s[2], 0x18); /* uint_value */
	assert_true(find_varint(s, len, 3, &dropped));
	assert_int_equal(dropped, 1000 - written);
	snprintf(text, sizeof(text),
		 "%zu events did not fit the size limit (%d bytes); 2 events lost in a full buffer before the writer",
		 1000 - written, PERFETTO_LIMIT_MIN);
	assert_true(memmem(m.buf, m.len, text, strlen(text)) != NULL);
	fclose(m.f);
	free(m.buf);
}

/* A packet that did not fit leaves no interned name behind: the next use defines it again. */
static void dropped_packet_interns_nothing(void **state)
{
	static uint64_t flows[2000];
	static const uint32_t event_name[] = { 12, 2, 2 };
	const struct perfetto_event big = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
					    .name = "big", .flow_ids = flows, .n_flow_ids = 2000 };
	struct perfetto_event small = big;
	struct mem_trace m;
	const uint8_t *s;
	size_t len;

	(void)state;
	mem_open(&m, 1 << 20);
	assert_int_equal(perfetto_event(&m.w, &big), -ENOSPC); /* 20 kB: more than a packet */
	assert_int_equal(m.w.dropped, 1);
	assert_int_equal(perfetto_intern_find(&m.w.event_names, "big"), 0);
	small.n_flow_ids = 1;
	assert_int_equal(perfetto_event(&m.w, &small), 0);
	fflush(m.f);
	assert_true(find_path(&m, 0, event_name, 3, &s, &len));
	assert_int_equal(len, 3);
	assert_memory_equal(s, "big", 3);
	assert_int_equal(perfetto_intern_find(&m.w.event_names, "big"), 1);
	mem_close(&m);
}

/* Two annotations of one new name in one event: one interned entry, one iid. */
static void repeated_annotation_name_interned_once(void **state)
{
	static const uint32_t names[] = { 12 };
	const struct perfetto_arg args[] = {
		{ .name = "x", .type = PERFETTO_ARG_UINT, .u = 1 },
		{ .name = "y", .type = PERFETTO_ARG_UINT, .u = 2 },
		{ .name = "x", .type = PERFETTO_ARG_UINT, .u = 3 },
	};
	const struct perfetto_event e = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
					  .args = args, .n_args = 3 };
	const uint8_t want[] = { 0x1a, 0x05, 0x08, 0x01, 0x12, 0x01, 'x',
				 0x1a, 0x05, 0x08, 0x02, 0x12, 0x01, 'y' };
	struct mem_trace m;
	const uint8_t *s;
	size_t len;

	(void)state;
	mem_open(&m, 1 << 20);
	assert_int_equal(perfetto_event(&m.w, &e), 0);
	fflush(m.f);
	assert_true(find_path(&m, 0, names, 1, &s, &len));
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(s, want, sizeof(want));
	assert_int_equal(perfetto_intern_find(&m.w.arg_names, "x"), 1);
	assert_int_equal(perfetto_intern_find(&m.w.arg_names, "y"), 2);
	assert_int_equal(m.w.arg_names.n, 2);
	mem_close(&m);
}

static void bad_calls_refused_and_counted(void **state)
{
	struct perfetto_arg args[PERFETTO_ARGS_MAX + 1] = { 0 };
	struct perfetto_event e = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
				    .args = args, .n_args = PERFETTO_ARGS_MAX + 1 };
	const struct perfetto_track no_uuid = { .name = "x" };
	const struct perfetto_track own_parent = { .uuid = 3, .parent_uuid = 3 };
	struct perfetto_writer w;
	struct perfetto_lanes l;
	struct mem_trace m;

	(void)state;
	assert_int_equal(perfetto_writer_init(&w, stdout, PERFETTO_LIMIT_MIN - 1), -EINVAL);
	assert_int_equal(perfetto_writer_init(&w, NULL, 1 << 20), -EINVAL);
	mem_open(&m, 1 << 20);
	assert_int_equal(perfetto_event(&m.w, &e), -EINVAL);
	e.n_args = 0;
	e.type = PERFETTO_COUNTER; /* counters: perfetto_counter */
	assert_int_equal(perfetto_event(&m.w, &e), -EINVAL);
	e.type = PERFETTO_INSTANT;
	e.n_flow_ids = 1; /* and no flow_ids */
	assert_int_equal(perfetto_event(&m.w, &e), -EINVAL);
	assert_int_equal(perfetto_track(&m.w, &no_uuid), -EINVAL);
	assert_int_equal(perfetto_track(&m.w, &own_parent), -EINVAL);
	perfetto_lanes_init(&l, 11);
	l.busy = UINT64_MAX;
	e.n_flow_ids = 0;
	assert_int_equal(perfetto_lane_begin(&m.w, &l, &e), -1);
	l.busy = 0;
	assert_int_equal(perfetto_lane_end(&m.w, &l, 0, &e), -EINVAL); /* not busy */
	assert_int_equal(perfetto_lane_end(&m.w, &l, PERFETTO_LANES_MAX, &e), -EINVAL);
	assert_int_equal(m.w.dropped, 8);
	assert_int_equal(m.w.packets, 0);
	mem_close(&m);
}

/* Overlapping slices through the writer: lanes described once, ends on their begin's lane. */
static void lane_slices_through_the_writer(void **state)
{
	struct perfetto_event e = { .name = "job" };
	struct perfetto_lanes l;
	struct mem_trace m;
	int a, b, c;

	(void)state;
	mem_open(&m, 1 << 20);
	perfetto_lanes_init(&l, 11);
	a = perfetto_lane_begin(&m.w, &l, &e);
	assert_int_equal(e.track_uuid, perfetto_lane_uuid(11, 0));
	assert_int_equal(e.type, PERFETTO_SLICE_BEGIN);
	b = perfetto_lane_begin(&m.w, &l, &e);
	assert_int_equal(e.track_uuid, perfetto_lane_uuid(11, 1));
	assert_int_equal(perfetto_lane_end(&m.w, &l, a, &e), 0);
	assert_int_equal(e.track_uuid, perfetto_lane_uuid(11, 0));
	assert_int_equal(e.type, PERFETTO_SLICE_END);
	c = perfetto_lane_begin(&m.w, &l, &e);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	assert_int_equal(c, 0);
	assert_int_equal(l.described, 3);
	assert_int_equal(m.w.packets, 2 + 4); /* two lane tracks, three begins, one end */
	mem_close(&m);
}

/* A slice whose lane's track does not fit: both counted, the lane free again, nothing to end. */
static void lane_that_does_not_fit_is_given_back(void **state)
{
	const struct perfetto_event fill = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
					     .name = "x" };
	struct perfetto_event e = { .ts_ns = 2, .name = "job" };
	struct perfetto_lanes l;
	struct mem_trace m;
	uint64_t dropped;

	(void)state;
	mem_open(&m, PERFETTO_LIMIT_MIN);
	while (perfetto_event(&m.w, &fill) == 0)
		;
	dropped = perfetto_unwritten(&m.w);
	perfetto_lanes_init(&l, 11);
	assert_int_equal(perfetto_lane_begin(&m.w, &l, &e), -1);
	assert_int_equal(perfetto_unwritten(&m.w), dropped + 2); /* the lane's track and the slice */
	assert_int_equal(perfetto_lanes_busy(&l), 0);
	assert_int_equal(l.described, 0);
	mem_close(&m);
}

/* A write that fails is -EIO, from then on too, and at the end. */
static void io_errors_reported(void **state)
{
	const struct perfetto_event e = { .ts_ns = 1, .track_uuid = 1, .type = PERFETTO_INSTANT,
					  .name = "x" };
	struct perfetto_writer w;
	FILE *f = fopen("/dev/null", "r");

	(void)state;
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	assert_int_equal(perfetto_writer_init(&w, f, 1 << 20), 0);
	assert_int_equal(perfetto_event(&w, &e), -EIO);
	assert_int_equal(perfetto_counter(&w, 1, 1, 1), -EIO);
	assert_int_equal(perfetto_writer_finish(&w), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(packets_byte_for_byte),
		cmocka_unit_test(callstacks_byte_for_byte),
		cmocka_unit_test(callstacks_bounded),
		cmocka_unit_test(lanes_lowest_free_first),
		cmocka_unit_test(lanes_match_a_reference),
		cmocka_unit_test(lane_uuids_distinct),
		cmocka_unit_test(intern_bounded),
		cmocka_unit_test(hostile_names_written_safely),
		cmocka_unit_test(unterminated_name_read_within_bound),
		cmocka_unit_test(limit_kept_and_drops_counted),
		cmocka_unit_test(dropped_packet_interns_nothing),
		cmocka_unit_test(repeated_annotation_name_interned_once),
		cmocka_unit_test(bad_calls_refused_and_counted),
		cmocka_unit_test(lane_slices_through_the_writer),
		cmocka_unit_test(lane_that_does_not_fit_is_given_back),
		cmocka_unit_test(io_errors_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
