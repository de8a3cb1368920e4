// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "privileges.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool cap_effective(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1U << (cap % 32));
}

bool privileges_sufficient(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return cap_effective(data, CAP_SYS_ADMIN) ||
	       (cap_effective(data, CAP_BPF) && cap_effective(data, CAP_PERFMON));
}
