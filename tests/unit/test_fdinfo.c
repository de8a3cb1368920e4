// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DRM fdinfo as drivers print it, written from their printing code
 * (amdgpu_fdinfo.c, i915_drm_client.c, xe_drm_client.c, panfrost_drv.c,
 * msm_gpu.c, drm_file.c's drm_print_memory_stats): each field read back.
 */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <string.h>
#include "collectors/memory/fdinfo.h"

static const struct fdinfo_region *reg(const struct drm_fdinfo *f, const char *name)
{
	for (size_t i = 0; i < f->nregions; i++)
		if (!strcmp(f->regions[i].name, name))
			return &f->regions[i];
	fail_msg("no region %s", name);
	return NULL;
}

static const struct fdinfo_engine *eng(const struct drm_fdinfo *f, const char *name)
{
	for (size_t i = 0; i < f->nengines; i++)
		if (!strcmp(f->engines[i].name, name))
			return &f->engines[i];
	fail_msg("no engine %s", name);
	return NULL;
}

/* amdgpu before drm_print_memory_stats (6.1): drm-memory-<r> in KiB, "gtt: \t" with its stray space. */
static void amdgpu_61(void **state)
{
	static const char text[] = "pos:\t0\nflags:\t02100002\nmnt_id:\t25\nino:\t123\n"
				   "pasid:\t32770\n"
				   "drm-driver:\tamdgpu\n"
				   "drm-pdev:\t0000:03:00.0\n"
				   "drm-client-id:\t17\n"
				   "drm-memory-vram:\t16384 KiB\n"
				   "drm-memory-gtt: \t2048 KiB\n"
				   "drm-memory-cpu: \t0 KiB\n"
				   "amd-memory-visible-vram:\t16384 KiB\n"
				   "amd-evicted-vram:\t0 KiB\n"
				   "drm-engine-gfx:\t123456789 ns\n"
				   "drm-engine-compute:\t42 ns\n"
				   "drm-engine-dma:\t0 ns\n";
	struct drm_fdinfo f;

	(void)state;
	assert_int_equal(drm_fdinfo_parse(text, &f), 0);
	assert_string_equal(f.driver, "amdgpu");
	assert_string_equal(f.pdev, "0000:03:00.0");
	assert_true(f.has_client_id);
	assert_int_equal(f.client_id, 17);
	assert_int_equal(f.nregions, 3);
	assert_int_equal(reg(&f, "vram")->bytes[MEM_RESIDENT], 16384ULL * 1024);
	assert_int_equal(reg(&f, "gtt")->bytes[MEM_RESIDENT], 2048ULL * 1024);
	assert_int_equal(reg(&f, "gtt")->known, 1u << MEM_RESIDENT);
	assert_int_equal(eng(&f, "gfx")->ns, 123456789);
	assert_true(eng(&f, "compute")->has_ns);
	assert_int_equal(eng(&f, "dma")->capacity, 1);
	assert_int_equal(f.dropped, 0);
}

/* drm_print_memory_stats (6.5+): drm-total/-shared/-active/-resident/-purgeable per region. */
static void amdgpu_new(void **state)
{
	static const char text[] = "drm-driver:\tamdgpu\n"
				   "drm-client-id:\t4\n"
				   "drm-pdev:\t0000:0b:00.0\n"
				   "drm-total-vram:\t12 MiB\n"
				   "drm-shared-vram:\t0\n"
				   "drm-active-vram:\t4100 KiB\n"
				   "drm-resident-vram:\t12 MiB\n"
				   "drm-purgeable-vram:\t0\n"
				   "drm-memory-vram:\t12288 KiB\n" /* the alias, after: resident stays */
				   "drm-total-gtt:\t513\n"
				   "drm-resident-gtt:\t513\n"
				   "drm-engine-gfx:\t1000 ns\n";
	struct drm_fdinfo f;
	const struct fdinfo_region *v;

	(void)state;
	assert_int_equal(drm_fdinfo_parse(text, &f), 0);
	v = reg(&f, "vram");
	assert_int_equal(v->bytes[MEM_TOTAL], 12ULL << 20);
	assert_int_equal(v->bytes[MEM_ACTIVE], 4100ULL * 1024);
	assert_int_equal(v->bytes[MEM_RESIDENT], 12ULL << 20);
	assert_int_equal(v->known, (1u << MEM_KINDS) - 1);
	assert_int_equal(reg(&f, "gtt")->bytes[MEM_TOTAL], 513);
	assert_int_equal(f.dropped, 0);
}

/* i915 (6.8+): regions by memory-region name, engine classes, video capacity 2. */
static void i915(void **state)
{
	static const char text[] = "drm-driver:\ti915\n"
				   "drm-pdev:\t0000:00:02.0\n"
				   "drm-client-id:\t7\n"
				   "drm-total-system0:\t4 MiB\n"
				   "drm-shared-system0:\t0\n"
				   "drm-active-system0:\t0\n"
				   "drm-resident-system0:\t4 MiB\n"
				   "drm-purgeable-system0:\t0\n"
				   "drm-total-stolen-system0:\t0\n"
				   "drm-engine-render:\t987654321 ns\n"
				   "drm-engine-copy:\t0 ns\n"
				   "drm-engine-video:\t5 ns\n"
				   "drm-engine-capacity-video:\t2\n"
				   "drm-engine-video-enhance:\t0 ns\n";
	struct drm_fdinfo f;

	(void)state;
	assert_int_equal(drm_fdinfo_parse(text, &f), 0);
	assert_string_equal(f.driver, "i915");
	assert_int_equal(reg(&f, "system0")->bytes[MEM_TOTAL], 4ULL << 20);
	assert_int_equal(reg(&f, "stolen-system0")->known, 1u << MEM_TOTAL);
	assert_int_equal(eng(&f, "render")->ns, 987654321);
	assert_int_equal(eng(&f, "video")->capacity, 2);
	assert_true(eng(&f, "video-enhance")->has_ns);
	assert_int_equal(f.nengines, 4);
}

/* xe: cycles and total cycles per engine class instead of ns. */
static void xe(void **state)
{
	static const char text[] = "drm-driver:\txe\n"
				   "drm-client-id:\t3\n"
				   "drm-pdev:\t0000:03:00.0\n"
				   "drm-total-system:\t0\n"
				   "drm-total-gtt:\t8 KiB\n"
				   "drm-total-vram0:\t2 MiB\n"
				   "drm-resident-vram0:\t2 MiB\n"
				   "drm-total-stolen:\t0\n"
				   "drm-cycles-rcs:\t28257900\n"
				   "drm-total-cycles-rcs:\t7655183225\n"
				   "drm-cycles-bcs:\t0\n"
				   "drm-total-cycles-bcs:\t7655183225\n"
				   "drm-engine-capacity-vcs:\t2\n"
				   "drm-cycles-vcs:\t0\n"
				   "drm-total-cycles-vcs:\t7655183225\n";
	struct drm_fdinfo f;
	const struct fdinfo_engine *rcs;

	(void)state;
	assert_int_equal(drm_fdinfo_parse(text, &f), 0);
	assert_int_equal(f.nregions, 4); /* no region called "cycles-rcs" */
	assert_int_equal(reg(&f, "vram0")->bytes[MEM_RESIDENT], 2ULL << 20);
	rcs = eng(&f, "rcs");
	assert_true(rcs->has_cycles && rcs->has_total_cycles && !rcs->has_ns);
	assert_int_equal(rcs->cycles, 28257900);
	assert_int_equal(rcs->total_cycles, 7655183225ULL);
	assert_int_equal(eng(&f, "vcs")->capacity, 2);
	assert_int_equal(f.dropped, 0);
}

/* panfrost and msm: one "memory" region from drm_show_memory_stats; Hz lines ignored. */
static void panfrost_msm(void **state)
{
	static const char pan[] = "drm-driver:\tpanfrost\n"
				  "drm-client-id:\t5\n"
				  "drm-engine-fragment:\t12345 ns\n"
				  "drm-cycles-fragment:\t67890\n"
				  "drm-maxfreq-fragment:\t800000000 Hz\n"
				  "drm-curfreq-fragment:\t400000000 Hz\n"
				  "drm-engine-vertex-tiler:\t1 ns\n"
				  "drm-total-memory:\t1024 KiB\n"
				  "drm-shared-memory:\t0\n"
				  "drm-active-memory:\t0\n"
				  "drm-resident-memory:\t1024 KiB\n"
				  "drm-purgeable-memory:\t0\n";
	static const char msm[] = "drm-driver:\tmsm\n"
				  "drm-client-id:\t4\n"
				  "drm-engine-gpu:\t1234 ns\n"
				  "drm-cycles-gpu:\t5678\n"
				  "drm-maxfreq-gpu:\t587000000 Hz\n"
				  "drm-total-memory:\t3 MiB\n"
				  "drm-resident-memory:\t3 MiB\n";
	struct drm_fdinfo f;

	(void)state;
	assert_int_equal(drm_fdinfo_parse(pan, &f), 0);
	assert_string_equal(f.pdev, "");
	assert_int_equal(eng(&f, "fragment")->cycles, 67890);
	assert_int_equal(eng(&f, "vertex-tiler")->ns, 1);
	assert_int_equal(reg(&f, "memory")->bytes[MEM_TOTAL], 1024ULL * 1024);
	assert_int_equal(f.nengines, 2);
	assert_int_equal(drm_fdinfo_parse(msm, &f), 0);
	assert_int_equal(eng(&f, "gpu")->ns, 1234);
	assert_int_equal(reg(&f, "memory")->bytes[MEM_RESIDENT], 3ULL << 20);
}

/* Not DRM, bad values, too many regions, huge numbers: no crash, losses counted. */
static void hostile(void **state)
{
	char big[8192];
	struct drm_fdinfo f;
	size_t n = 0;

	(void)state;
	assert_int_equal(drm_fdinfo_parse("pos:\t0\nflags:\t02\n", &f), -1);
	assert_int_equal(drm_fdinfo_parse("", &f), -1);
	assert_int_equal(drm_fdinfo_parse("drm-driver:\tx\ndrm-total-vram:\t12 TiB\n"
					  "drm-total-gtt:\t99999999999999999999 MiB\n"
					  "drm-resident-gtt:\t18014398509481984 MiB\n" /* 2^54 MiB: overflow */
					  "drm-engine-gfx:\t-5 ns\n"
					  "drm-engine-capacity-gfx:\t0\n"
					  "drm-client-id:\tabc\n",
					  &f),
			 0);
	assert_int_equal(f.dropped, 5);
	assert_false(f.has_client_id);
	n += (size_t)snprintf(big, sizeof(big), "drm-driver:\ty\n");
	for (int i = 0; i < 20; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "drm-total-r%d:\t%d\n", i, i);
	assert_int_equal(drm_fdinfo_parse(big, &f), 0);
	assert_int_equal(f.nregions, FDINFO_REGIONS);
	assert_int_equal(f.dropped, 20 - FDINFO_REGIONS);
	memset(big, 'a', sizeof(big) - 1); /* one long line, no colon */
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(drm_fdinfo_parse(big, &f), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(amdgpu_61), cmocka_unit_test(amdgpu_new), cmocka_unit_test(i915),
		cmocka_unit_test(xe),        cmocka_unit_test(panfrost_msm), cmocka_unit_test(hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
