// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decoding of synthetic gpu_scheduler records of every layout. Records are built
 * byte by byte at the offsets the kernels' format files give (reference
 * GPU_TRACEPOINTS.md §3), not through our struct declarations, so a wrong
 * declaration fails here.
 */
#include "cmocka_all.h"
#include <string.h>
#include "../../bpf/sched_decode.h"

struct record {
	_Alignas(8) unsigned char b[256];
	size_t dyn; /* next free byte of the dynamic area */
};

static void put(struct record *r, size_t off, const void *v, size_t n)
{
	memcpy(r->b + off, v, n);
}

static void put_u32(struct record *r, size_t off, uint32_t v)
{
	put(r, off, &v, 4);
}

static void put_u64(struct record *r, size_t off, uint64_t v)
{
	put(r, off, &v, 8);
}

/* Appends a __data_loc string and stores its locator (offset | len << 16) at off. */
static void put_loc_str(struct record *r, size_t off, const char *s)
{
	size_t len = strlen(s) + 1;

	memcpy(r->b + r->dyn, s, len);
	put_u32(r, off, (uint32_t)(r->dyn | (len << 16)));
	r->dyn += len;
}

static void record_init(struct record *r, size_t fixed_size)
{
	memset(r, 0xa5, sizeof(*r)); /* garbage where nothing was written */
	r->dyn = fixed_size;
}

static void job_v617(void **state)
{
	struct record r;
	struct sched_job_ev ev;

	(void)state;
	record_init(&r, 48);
	put_loc_str(&r, 8, "gfx_0.0.0");
	put_u32(&r, 12, 3); /* job_count */
	put_u32(&r, 16, 2); /* hw_job_count */
	put_loc_str(&r, 20, "0000:03:00.0");
	put_u64(&r, 24, 0x1234); /* fence_context */
	put_u64(&r, 32, 77); /* fence_seqno */
	put_u64(&r, 40, 9); /* client_id */
	sched_decode_job_v617((const void *)r.b, &ev);
	assert_string_equal(ev.ring.name, "gfx_0.0.0");
	assert_string_equal(ev.ring.dev, "0000:03:00.0");
	assert_int_equal(ev.key.a, 0x1234);
	assert_int_equal(ev.key.b, 77);
	assert_int_equal(ev.job_count, 3);
	assert_int_equal(ev.hw_job_count, 2);
	assert_int_equal(ev.client_id, 9);
	assert_int_equal(ev.entity, 0);
}

static void job_v61(void **state)
{
	struct record r;
	struct sched_job_ev ev;

	(void)state;
	record_init(&r, 48);
	put_u64(&r, 8, 0xffff888001000000ULL); /* entity */
	put_u64(&r, 16, 0xffff888002000040ULL); /* fence */
	put_loc_str(&r, 24, "comp_1.0.0");
	put_u64(&r, 32, 5555); /* id */
	put_u32(&r, 40, 4); /* job_count */
	put_u32(&r, 44, 1); /* hw_job_count */
	sched_decode_job_v61((const void *)r.b, &ev);
	assert_string_equal(ev.ring.name, "comp_1.0.0");
	assert_string_equal(ev.ring.dev, "");
	assert_int_equal(ev.key.a, 0xffff888002000040ULL);
	assert_int_equal(ev.key.b, 0);
	assert_int_equal(ev.entity, 0xffff888001000000ULL);
	assert_int_equal(ev.job_count, 4);
	assert_int_equal(ev.hw_job_count, 1);
}

static void job_v515_reads_name_through_pointer(void **state)
{
	static const char ring_name[] = "sdma0";
	struct record r;
	struct sched_job_ev ev;

	(void)state;
	record_init(&r, 48);
	put_u64(&r, 8, 0x1000);
	put_u64(&r, 16, 0x2000);
	put_u64(&r, 24, (uint64_t)(uintptr_t)ring_name);
	put_u64(&r, 32, 1);
	put_u32(&r, 40, 0);
	put_u32(&r, 44, 6);
	sched_decode_job_v515((const void *)r.b, &ev);
	assert_string_equal(ev.ring.name, "sdma0");
	assert_int_equal(ev.key.a, 0x2000);
	assert_int_equal(ev.entity, 0x1000);
	assert_int_equal(ev.hw_job_count, 6);
}

static void long_ring_name_is_truncated_not_overrun(void **state)
{
	struct record r;
	struct sched_job_ev ev;

	(void)state;
	record_init(&r, 48);
	put_loc_str(&r, 8, "a_ring_name_much_longer_than_thirty_two_bytes");
	put_loc_str(&r, 20, "dev");
	sched_decode_job_v617((const void *)r.b, &ev);
	assert_int_equal(strlen(ev.ring.name), RING_NAME_LEN - 1);
	assert_memory_equal(ev.ring.name, "a_ring_name_much_longer_than_th", RING_NAME_LEN - 1);
}

static void dependencies_all_layouts(void **state)
{
	static const char ring_name[] = "gfx";
	struct ring_key ring;
	struct job_key key;
	struct record r;

	(void)state;
	record_init(&r, 48); /* 6.1: name@8 id@16 fence@24 ctx@32 seqno@40 */
	put_loc_str(&r, 8, "sdma0");
	put_u64(&r, 16, 3);
	sched_decode_wait_dep_v61((const void *)r.b, &ring);
	assert_string_equal(ring.name, "sdma0");

	record_init(&r, 48); /* 5.15: name is a pointer */
	put_u64(&r, 8, (uint64_t)(uintptr_t)ring_name);
	sched_decode_wait_dep_v515((const void *)r.b, &ring);
	assert_string_equal(ring.name, "gfx");

	record_init(&r, 40); /* 6.17 add_dep/unschedulable: job fence@8,16; dependency@24,32 */
	put_u64(&r, 8, 0x99);
	put_u64(&r, 16, 12);
	put_u64(&r, 24, 0x55);
	put_u64(&r, 32, 4);
	sched_decode_dep_v617((const void *)r.b, &key);
	assert_int_equal(key.a, 0x99);
	assert_int_equal(key.b, 12);
}

/* The host layout of our declarations equals the kernels' (what CO-RE relocates from). */
static void declared_offsets_match_the_kernels(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job, __data_loc_name), 8);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job, __data_loc_dev), 20);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job, fence_context), 24);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job, client_id), 40);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job___v61, __data_loc_name), 24);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job___v61, hw_job_count), 44);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job___v515, name), 24);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job_wait_dep, seqno), 40);
	assert_int_equal(offsetof(struct trace_event_raw_drm_sched_job_add_dep, seqno), 32);
	assert_int_equal(sizeof(struct trace_event_raw_drm_sched_job___v61), 48);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(job_v617),
		cmocka_unit_test(job_v61),
		cmocka_unit_test(job_v515_reads_name_through_pointer),
		cmocka_unit_test(long_ring_name_is_truncated_not_overrun),
		cmocka_unit_test(dependencies_all_layouts),
		cmocka_unit_test(declared_offsets_match_the_kernels),
	};
	return cmocka_run_group_tests_name("sched_decode", tests, NULL, NULL);
}
