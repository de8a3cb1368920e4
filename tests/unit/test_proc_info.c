// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Container ids from cgroup paths, and this process's own procfs facts. */
#include "tests/unit/cmocka_all.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/proc_info.h"

#define ID64 "4f3a9c2b1d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"

static void container_ids(void **state)
{
	char buf[40];

	(void)state;
	cgroup_container("/system.slice/docker-" ID64 ".scope", buf, sizeof(buf));
	assert_string_equal(buf, "docker:4f3a9c2b1d0e");
	cgroup_container("/docker/" ID64, buf, sizeof(buf));
	assert_string_equal(buf, "docker:4f3a9c2b1d0e");
	cgroup_container("/kubepods.slice/kubepods-pod1.slice/cri-containerd-" ID64 ".scope", buf,
			 sizeof(buf));
	assert_string_equal(buf, "containerd:4f3a9c2b1d0e");
	cgroup_container("/machine.slice/libpod-" ID64 ".scope/container", buf, sizeof(buf));
	assert_string_equal(buf, "podman:4f3a9c2b1d0e");
	cgroup_container("/kubepods/burstable/pod1/crio-" ID64, buf, sizeof(buf));
	assert_string_equal(buf, "cri-o:4f3a9c2b1d0e");
	/* not a container: too short, not hex, no runtime prefix */
	cgroup_container("/system.slice/docker-4f3a9c2b.scope", buf, sizeof(buf));
	assert_string_equal(buf, "");
	cgroup_container("/system.slice/docker-" "zz3a9c2b1d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a", buf, sizeof(buf));
	assert_string_equal(buf, "");
	cgroup_container("/user.slice/user-1000.slice/session-2.scope", buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* the first id wins when a runtime's prefix comes twice and the first is not an id */
	cgroup_container("/docker-x/docker-" ID64, buf, sizeof(buf));
	assert_string_equal(buf, "docker:4f3a9c2b1d0e");
}

static void own_process(void **state)
{
	char comm[16], cg[256], want[64];
	FILE *f;

	(void)state;
	proc_comm((uint32_t)getpid(), comm, sizeof(comm));
	f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(want, sizeof(want), f));
	fclose(f);
	want[strcspn(want, "\n")] = '\0';
	assert_string_equal(comm, want);
	proc_comm(0, comm, sizeof(comm));
	assert_string_equal(comm, "[kernel]");
	proc_cgroup((uint32_t)getpid(), cg, sizeof(cg));
	assert_true(cg[0] == '/' || strchr(cg, ':'));
	assert_false(proc_gone((uint32_t)getpid()));
}

#define ARGS(s) s, sizeof(s) /* a command line as /proc/PID/cmdline has it: its last NUL too */

/* A program run through the dynamic loader is named as the program, not "ld-linux-x86-64". */
static void loader_started_names(void **state)
{
	char comm[17];

	(void)state;
	assert_true(loader_comm("ld-linux-x86-64"));
	assert_true(loader_comm("ld-linux-aarch6"));
	assert_false(loader_comm("python3"));
	assert_false(loader_comm("ldconfig"));
	assert_true(
		loader_program(ARGS("/lib64/ld-linux-x86-64.so.2\0/usr/bin/python3.12\0train.py"), comm, sizeof(comm)));
	assert_string_equal(comm, "python3.12");
	assert_true(loader_program(ARGS("ld.so\0--library-path\0/opt/lib\0--inhibit-cache\0./a-very-long-program-name"),
				   comm, sizeof(comm)));
	assert_string_equal(comm, "a-very-long-pro"); /* 15 bytes, as a comm */
	assert_true(loader_program(ARGS("ld.so\0--argv0\0torchrun\0/usr/bin/python3\0x"), comm, sizeof(comm)));
	assert_string_equal(comm, "torchrun");
	assert_false(loader_program(ARGS("ld.so\0--preload"), comm, sizeof(comm))); /* no program */
	assert_false(loader_program(ARGS("ld.so"), comm, sizeof(comm)));
	assert_false(loader_program("ld.so\0python3", 13, comm, sizeof(comm))); /* cut: no last NUL */
	assert_false(loader_program("", 0, comm, sizeof(comm)));
	assert_false(loader_program(ARGS("ld.so\0/usr/bin/"), comm, sizeof(comm))); /* a folder, no name */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(container_ids),
		cmocka_unit_test(own_process),
		cmocka_unit_test(loader_started_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
