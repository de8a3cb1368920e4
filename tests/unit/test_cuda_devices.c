// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A process's CUDA device on NVML's GPUs: placed by the bus id it asked for, or
 * as the only GPU; otherwise unknown, never its ordinal taken for NVML's index.
 */
#include "tests/unit/cmocka_all.h"
#include <string.h>
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "collectors/nvidia/cuda_devices.h"

static const struct nv_gpu_list two = { 2, { "00000000:17:00.0", "00000000:3B:00.0" } };
static const struct nv_gpu_list one = { 1, { "00000000:00:06.0" } };

static void by_bus_id(void **state)
{
	struct cuda_dev_where w;

	(void)state;
	cuda_dev_locate(&two, 0, "0000:3B:00.0", &w); /* CUDA's 0 is NVML's 1 */
	assert_int_equal(w.gpu, 1);
	assert_string_equal(w.bus, "00000000:3B:00.0");
	assert_string_equal(w.how, "cuDeviceGetPCIBusId");
	cuda_dev_locate(&two, 1, "0000:17:00.0", &w);
	assert_int_equal(w.gpu, 0);
	cuda_dev_locate(&two, 1, "0000:99:00.0", &w); /* not one of NVML's: its bus known, no index */
	assert_int_equal(w.gpu, -1);
	assert_string_equal(w.bus, "0000:99:00.0");
	cuda_dev_locate(NULL, 0, "0000:3B:00.0", &w); /* no NVML */
	assert_int_equal(w.gpu, -1);
	assert_string_equal(w.bus, "0000:3B:00.0");
}

static void unknown_unless_certain(void **state)
{
	struct cuda_dev_where w;

	(void)state;
	cuda_dev_locate(&two, 0, "", &w); /* two GPUs, no bus id asked: either */
	assert_int_equal(w.gpu, -1);
	assert_string_equal(w.bus, "");
	assert_null(w.how);
	cuda_dev_locate(&one, 0, "", &w); /* one GPU: every ordinal 0 is it */
	assert_int_equal(w.gpu, 0);
	assert_string_equal(w.bus, "00000000:00:06.0");
	assert_string_equal(w.how, "the only GPU");
	cuda_dev_locate(&one, 1, "", &w); /* an ordinal one GPU cannot have */
	assert_int_equal(w.gpu, -1);
	cuda_dev_locate(&one, NV_DEV_UNKNOWN, "0000:00:06.0", &w); /* calls in no known context */
	assert_int_equal(w.gpu, -1);
	assert_null(w.how);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(by_bus_id), cmocka_unit_test(unknown_unless_certain) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
