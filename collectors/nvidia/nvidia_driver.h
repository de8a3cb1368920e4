/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The NVIDIA collector's probes on nvidia.ko functions (the seed's
 * nvidia_driver.bt): calls per function, by kprobe where the kernel has
 * kprobes, else by fentry where it allows it; where neither, each function's
 * status says so and what takes its place.
 */
#ifndef GPUTOP_NVIDIA_DRIVER_PROBES_H
#define GPUTOP_NVIDIA_DRIVER_PROBES_H

#include "collectors/collector.h"

struct nv_driver;

/* Finds, loads and attaches what it can, adding a status per function (group "nvidia.ko"). */
struct nv_driver *nv_driver_start(struct collector *c);
/* The nvidia.driver table: calls and rate per attached function; their programs' cost rows. Returns their recursion misses. */
uint64_t nv_driver_read(struct nv_driver *d, struct collector *c, struct model *m);
/* "kprobes", "fentry" or NULL when nothing is attached. */
const char *nv_driver_via(const struct nv_driver *d);
void nv_driver_stop(struct nv_driver *d);

#endif
