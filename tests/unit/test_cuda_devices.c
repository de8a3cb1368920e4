// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A process's CUDA device on NVML's GPUs: placed by the bus id it asked for, by
 * the GPU files it holds (with its environment's CUDA_VISIBLE_DEVICES), or as
 * the only GPU; otherwise unknown, never its ordinal taken for NVML's index.
 */
#include "tests/unit/cmocka_all.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/types.h>
#include "bpf/nvidia.h"
#include "collectors/nvidia/cuda_devices.h"

static const struct nv_gpu_list two = { .n = 2, .bus = { "00000000:17:00.0", "00000000:3B:00.0" } };
static const struct nv_gpu_list one = { .n = 1, .bus = { "00000000:00:06.0" } };

static void by_bus_id(void **state)
{
	struct cuda_dev_where w;

	(void)state;
	cuda_dev_locate(&two, 0, "0000:3B:00.0", NULL, &w); /* CUDA's 0 is NVML's 1 */
	assert_int_equal(w.gpu, 1);
	assert_string_equal(w.bus, "00000000:3B:00.0");
	assert_string_equal(w.how, "cuDeviceGetPCIBusId");
	cuda_dev_locate(&two, 1, "0000:17:00.0", NULL, &w);
	assert_int_equal(w.gpu, 0);
	cuda_dev_locate(&two, 1, "0000:99:00.0", NULL, &w); /* not one of NVML's: its bus known, no index */
	assert_int_equal(w.gpu, -1);
	assert_string_equal(w.bus, "0000:99:00.0");
	cuda_dev_locate(NULL, 0, "0000:3B:00.0", NULL, &w); /* no NVML */
	assert_int_equal(w.gpu, -1);
	assert_string_equal(w.bus, "0000:3B:00.0");
}

static void unknown_unless_certain(void **state)
{
	struct cuda_dev_where w;

	(void)state;
	cuda_dev_locate(&two, 0, "", NULL, &w); /* two GPUs, no bus id asked: either */
	assert_int_equal(w.gpu, -1);
	assert_string_equal(w.bus, "");
	assert_null(w.how);
	cuda_dev_locate(&one, 0, "", NULL, &w); /* one GPU: every ordinal 0 is it */
	assert_int_equal(w.gpu, 0);
	assert_string_equal(w.bus, "00000000:00:06.0");
	assert_string_equal(w.how, "only GPU");
	cuda_dev_locate(&one, 1, "", NULL, &w); /* an ordinal one GPU cannot have */
	assert_int_equal(w.gpu, -1);
	cuda_dev_locate(&one, NV_DEV_UNKNOWN, "0000:00:06.0", NULL, &w); /* calls in no known context */
	assert_int_equal(w.gpu, -1);
	assert_null(w.how);
}

/* Two H200s (one model) at minors 0 and 1, NVML's index 0 the second in PCI order; a third of another model. */
static const struct nv_gpu_list h200s = { 2,
					  { "00000000:3B:00.0", "00000000:17:00.0" },
					  { true, true },
					  { 1, 0 },
					  true };
static const struct nv_gpu_list mixed = { 2,
					  { "00000000:17:00.0", "00000000:3B:00.0" },
					  { true, true },
					  { 0, 1 },
					  false };

#define ENV(s) s, sizeof(s)

static struct cuda_proc_view view(uint64_t held, const char *env, size_t len)
{
	struct cuda_proc_view v = { .held = held, .nheld = (unsigned int)__builtin_popcountll(held) };

	cuda_environ_scan(env, len, &v);
	return v;
}

static void by_files_held(void **state)
{
	struct cuda_proc_view v;
	struct cuda_dev_where w;

	(void)state;
	v = view(1ULL << 1, ENV("HOME=/root")); /* one file, /dev/nvidia1: NVML's 0 */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, 0);
	assert_string_equal(w.bus, "00000000:3B:00.0");
	assert_string_equal(w.how, "held GPU file (one)");
	cuda_dev_locate(&h200s, 1, "", &v, &w); /* one GPU visible: no ordinal 1 */
	assert_int_equal(w.gpu, -1);
	cuda_dev_locate(&h200s, NV_DEV_UNKNOWN, "", &v, &w); /* a context made before the monitor: the same GPU */
	assert_int_equal(w.gpu, 0);
	v = view(3, ENV("A=1"));
	cuda_dev_locate(&h200s, NV_DEV_UNKNOWN, "", &v, &w); /* two visible: which, unknown */
	assert_int_equal(w.gpu, -1);
	v = view(3, ENV("A=1")); /* both files, all visible: CUDA's 0 is the first in PCI order */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, 1);
	assert_string_equal(w.how, "held GPU files, PCI order");
	cuda_dev_locate(&h200s, 1, "", &v, &w);
	assert_int_equal(w.gpu, 0);
	cuda_dev_locate(&h200s, 2, "", &v, &w);
	assert_int_equal(w.gpu, -1);
	v = view(3, ENV("CUDA_VISIBLE_DEVICES=1,0")); /* reordered: CUDA's 0 is PCI's second */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, 0);
	assert_string_equal(w.how, "CUDA_VISIBLE_DEVICES + held GPU files");
	cuda_dev_locate(&mixed, 0, "", &v, &w); /* two models, CUDA's order its own: unknown */
	assert_int_equal(w.gpu, -1);
	v = view(3, ENV("CUDA_VISIBLE_DEVICES=1,0\0CUDA_DEVICE_ORDER=PCI_BUS_ID"));
	cuda_dev_locate(&mixed, 0, "", &v, &w); /* ... unless it asked for PCI's */
	assert_int_equal(w.gpu, 1);
}

static void unknown_when_files_disagree(void **state)
{
	struct cuda_proc_view v;
	struct cuda_dev_where w;

	(void)state;
	v = view(3, ENV("CUDA_VISIBLE_DEVICES=0")); /* set otherwise before cuInit: files rule, both held */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, -1);
	v = view(3, ENV("CUDA_VISIBLE_DEVICES=GPU-28771d6b-2a01-8168-40c3-f720c159e9dc,1")); /* a UUID */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, -1);
	v = view(3, "CUDA_VISIBLE_DEVICES=1,0", 24); /* an environment cut short: not read */
	assert_false(v.env_known);
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, -1);
	v = view(3, ENV("CUDA_VISIBLE_DEVICES=0,0")); /* a device twice */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, -1);
	v = view(3, ENV("CUDA_VISIBLE_DEVICES=1,0\0CUDA_VISIBLE_DEVICES=0")); /* the first counts */
	assert_int_equal(v.nvisible, 2);
	v = view(1ULL << 5, ENV("X=")); /* a file of no GPU NVML has */
	cuda_dev_locate(&h200s, 0, "", &v, &w);
	assert_int_equal(w.gpu, -1);
}

/* A process's own environment, read from procfs (a child started with a known one). */
static void environment_read(void **state)
{
	char *const envp[] = { "CUDA_VISIBLE_DEVICES=1,0", "CUDA_DEVICE_ORDER=PCI_BUS_ID", NULL };
	char *const argv[] = { "sleep", "5", NULL };
	struct cuda_proc_view v;
	pid_t pid;

	(void)state;
	pid = fork();
	if (!pid) {
		execve("/bin/sleep", argv, envp);
		_exit(127);
	}
	assert_true(pid > 0);
	for (int i = 0; i < 200; i++) { /* until it runs sleep, not our copy */
		cuda_proc_read((uint32_t)pid, &v);
		if (v.visible_set)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_true(v.env_known);
	assert_true(v.visible_ints);
	assert_int_equal(v.nvisible, 2);
	assert_int_equal(v.visible[0], 1);
	assert_true(v.pci_order);
	assert_int_equal(v.nheld, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_bus_id),	    cmocka_unit_test(unknown_unless_certain),
		cmocka_unit_test(by_files_held),    cmocka_unit_test(unknown_when_files_disagree),
		cmocka_unit_test(environment_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
