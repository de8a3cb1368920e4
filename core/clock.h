/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The clocks, in nanoseconds: one way to read them. */
#ifndef GPUTOP_CLOCK_H
#define GPUTOP_CLOCK_H

#include <stdint.h>
#include <time.h>

/* clk (CLOCK_MONOTONIC: what BPF's bpf_ktime_get_ns() reads; CLOCK_REALTIME ...) in ns. */
uint64_t clock_ns(clockid_t clk);
/* CLOCK_MONOTONIC in ns. */
uint64_t mono_ns(void);
/* ns as a timespec (an absolute time for pthread_cond_timedwait). */
struct timespec timespec_from_ns(uint64_t ns);

#endif
