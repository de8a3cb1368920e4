/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * GPU time per process and CUDA device (nvidia.gpu_busy), from the GPU time BPF program's
 * cupti_busy map: its kernels' and copies' GPU time, how long the GPU was busy with it (the union
 * of its activities' intervals), that as a share of the interval, and its kernels' share of all
 * the kernel time on the device. No kernel name: the metrics' per-process GPU seconds.
 */
#ifndef GPUTOP_GPU_BUSY_H
#define GPUTOP_GPU_BUSY_H

#include <stdbool.h>
#include <stdint.h>
#include "collectors/kit/map_delta.h"
#include "model/model.h"

struct gpu_busy_row;

struct gpu_busy_sum {
	uint32_t device;
	uint64_t kernel_delta;
};

struct gpu_busy {
	struct map_delta delta;
	struct gpu_busy_row *rows; /* this read's */
	size_t n, cap;
	struct gpu_busy_sum *sums; /* per device */
	size_t nsums, sums_cap;
	bool failed;
	/* the collector's: whether pid's rows go now (it was seen gone at the read before), arg */
	bool (*gone)(void *arg, uint32_t pid);
	void *arg;
};

/* 0, or -1 when out of memory. */
int gpu_busy_init(struct gpu_busy *b, bool (*gone)(void *arg, uint32_t pid), void *arg);
/* The rows of map fd into m's nvidia.gpu_busy; the entries of processes gone before deleted. */
void gpu_busy_read(struct gpu_busy *b, int fd, struct model *m);
void gpu_busy_free(struct gpu_busy *b);

#endif
