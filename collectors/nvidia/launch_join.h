/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The GPU time join (docs/gpu-time.md): each CUDA kernel's GPU time onto the stack key of the
 * launch that made it, by CUPTI's correlation id, and the correlation id of each launch a capture
 * writes (the trace's flow to its kernel). While launch stacks are taken or a capture runs, uprobes
 * on every
 * CUPTI companion library file (collectors/kit/cupti_libs.h): its records (with the library's
 * semaphore: activity on) and its launch probe (with the launch semaphore: the library's launch
 * callbacks on, which cost each launch, so only then). The BPF side (nvidia.bpf.c join_launch,
 * join_records) sums per key into stack_gpu, read by launch_stacks.c with the launches.
 */
#ifndef GPUTOP_NVIDIA_LAUNCH_JOIN_H
#define GPUTOP_NVIDIA_LAUNCH_JOIN_H

#include <stdint.h>
#include "collectors/kit/cupti_libs.h"

struct nvidia_bpf;

struct launch_join {
	struct cupti_libs libs;
	struct nvidia_bpf *skel;
	uint64_t next_scan_ns; /* 0: not started */
};

void launch_join_init(struct launch_join *j, struct nvidia_bpf *skel);
/* Each read while launch stacks are taken or a capture runs: the library files found since attached (a scan each few s). */
void launch_join_tick(struct launch_join *j, uint64_t now_ns);
/* Files attached, and those that could not be (a library from before the join, or a failure). */
size_t launch_join_files(const struct launch_join *j, size_t *failed);
/* Every file detached (the library's launch callbacks off); the next tick attaches them again. */
void launch_join_detach(struct launch_join *j);

#endif
