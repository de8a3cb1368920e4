/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the VM, BPF and CUDA suites change in a collector to test what no GPU
 * here can make happen (tests/README.md): read from GPUTOP_TEST_* variables,
 * and only in a test build (make TEST_HOOKS=1). Every other build compiles
 * these to their defaults: its binary names no such variable, and nothing in
 * the environment changes what a privileged monitor attaches to.
 */
#ifndef GPUTOP_TEST_HOOKS_H
#define GPUTOP_TEST_HOOKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef GPUTOP_TEST_HOOKS
#define TEST_HOOKS_BUILT_IN true
/* The variable GPUTOP_TEST_<name>, or NULL when unset or empty. */
#define test_hook(name) test_hook_get("GPUTOP_TEST_" name)
static inline const char *test_hook_get(const char *var)
{
	const char *v = getenv(var);

	return v && *v ? v : NULL;
}
#else
#define TEST_HOOKS_BUILT_IN false
#define test_hook(name) ((const char *)NULL)
#endif

/* The variable as a number (deflt when unset), at most max. */
#define test_hook_u64(name, deflt, max) test_hook_number(test_hook(name), deflt, max)
static inline uint64_t test_hook_number(const char *v, uint64_t deflt, uint64_t max)
{
	unsigned long long n = v ? strtoull(v, NULL, 10) : deflt;

	return n > max ? max : n;
}

#endif
