/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Small libbpf helpers shared by the BPF collectors. */
#ifndef GPUTOP_BPF_UTIL_H
#define GPUTOP_BPF_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <bpf/libbpf.h>

/*
 * Runs of these programs the kernel skipped because one of them was already
 * running on that CPU (bpf_prog_info.recursion_misses, kernel >= 5.12); only
 * programs whose link is non-NULL count.
 */
uint64_t bpf_recursion_misses(struct bpf_program *const *progs, struct bpf_link *const *links,
			      size_t n);

#endif
