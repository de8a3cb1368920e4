/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What other tables say of a CUDA process on one GPU (a row of
 * nvidia.process_gpus with NVML's index): its ioctls on that GPU's own device
 * file (calls.ioctls' nvidia<minor>, the minor from nvidia.gpus) and the memory
 * NVML accounts to it there (nvidia.gpu_processes). Joined here, live and in
 * replay alike, so a recording made before the join has it where its tables
 * allow; unknown where the GPU, its minor number or such a row is not known.
 */
#ifndef GPUTOP_PROCESS_GPU_JOIN_H
#define GPUTOP_PROCESS_GPU_JOIN_H

#include "model/snapshot.h"

/* Fills (or clears) the joined columns of s's nvidia.process_gpus, if it has one; -1 out of memory. */
int process_gpu_join(struct snapshot *s);

#endif
