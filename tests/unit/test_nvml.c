// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* NVML's clock event reasons as words: every bit nvml.h defines, none invented, cut whole. */
#include "tests/unit/cmocka_all.h"
#include <string.h>
#include "collectors/nvidia/nvml.h"

static void throttle_names(void **state)
{
	char out[160];

	(void)state;
	nvml_throttle_names(0, out, sizeof(out));
	assert_string_equal(out, "none");
	nvml_throttle_names(0x1, out, sizeof(out));
	assert_string_equal(out, "idle");
	nvml_throttle_names(0x4 | 0x20, out, sizeof(out));
	assert_string_equal(out, "power cap, thermal (software)");
	nvml_throttle_names(0x8 | 0x40 | 0x80, out, sizeof(out));
	assert_string_equal(out, "hardware slowdown, thermal (hardware), power brake");
	nvml_throttle_names(0x2 | 0x10 | 0x100, out, sizeof(out));
	assert_string_equal(out, "application clocks, sync boost, display clocks");
	nvml_throttle_names(0x200 | 0x1, out, sizeof(out)); /* a bit this version does not know */
	assert_string_equal(out, "idle, other (0x200)");
	nvml_throttle_names(0x4 | 0x20, out, 16); /* no room for the second: the first whole */
	assert_string_equal(out, "power cap");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(throttle_names) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
