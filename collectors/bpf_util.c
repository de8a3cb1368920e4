// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <bpf/bpf.h>
#include "bpf_util.h"

uint64_t bpf_recursion_misses(struct bpf_program *const *progs, struct bpf_link *const *links,
			      size_t n)
{
	uint64_t misses = 0;

	for (size_t i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd;

		if (!links[i])
			continue;
		fd = bpf_program__fd(progs[i]);
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			misses += info.recursion_misses;
	}
	return misses;
}
