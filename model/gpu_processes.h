/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One process table for every GPU ("gpu.processes"), merged by PID from the
 * tables of the collectors that see processes: the DRM scheduler's jobs,
 * DRM fdinfo's engines and memory, NVML's per-GPU use and memory, the CUDA
 * uprobes' launches and syncs, the KFD's ROCm processes. It is derived: built
 * from a snapshot's own tables, live and in replay alike, so a recording made
 * before it existed shows it too.
 */
#ifndef GPUTOP_GPU_PROCESSES_H
#define GPUTOP_GPU_PROCESSES_H

#include "model/snapshot.h"

extern const struct table_desc gpu_processes_table;

/* Builds s's gpu.processes from its other tables, replacing one it has; -1 out of memory (s unchanged). */
int gpu_processes_derive(struct snapshot *s);

#endif
