// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * C++ names demangled, at a bounded cost: a name whose demangled form grows
 * exponentially (templates of substitutions of the one before) is left as it is,
 * at once; the rest as c++filt gives them, cut to the buffer.
 */
#include "tests/unit/cmocka_all.h"
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "symbols/demangle.h"
#include "tests/unit/hostile_elf.h"

static const char exponential[] = HOSTILE_MANGLED_EXPONENTIAL;

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void names(void **state)
{
	char out[64];

	(void)state;
	assert_true(demangle("_Z3fooi", out, sizeof(out)));
	assert_string_equal(out, "foo(int)");
	assert_true(demangle("_ZN2at6native18elementwise_kernelILi128ELi2EfEEviT1_", out, sizeof(out)));
	assert_string_equal(out, "void at::native::elementwise_kernel<128, 2, float>(int, float)");
	assert_false(demangle("cudaLaunchKernel", out, sizeof(out))); /* no C++ name: as it is */
	assert_string_equal(out, "cudaLaunchKernel");
	assert_false(demangle("_Zgarbage", out, sizeof(out)));
	assert_string_equal(out, "_Zgarbage");
	assert_true(demangle("_ZN2at6native18elementwise_kernelILi128ELi2EfEEviT1_", out, 12)); /* cut */
	assert_string_equal(out, "void at::na");
}

static void exponential_left_as_it_is(void **state)
{
	char out[512];
	double t0 = cpu_s();

	(void)state;
	alarm(10); /* a demangler that does not stop: killed, the test failed */
	assert_int_equal(strlen(exponential), 287);
	assert_false(demangle(exponential, out, sizeof(out)));
	assert_string_equal(out, exponential);
	assert_true(cpu_s() - t0 < 0.5); /* c++filt takes more than 5 s of it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(exponential_left_as_it_is),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
