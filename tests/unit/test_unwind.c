// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The DWARF unwinder (symbols/unwind.c) on a real capture (tests/unit/unwind/):
 * a launch's stack copy and registers (sample.bin, struct nv_stack_sample as
 * the BPF program sends it) and its process's maps (maps.txt), taken with
 * GPUTOP_TEST_STACK_DUMP from the stand-in client and libcuda built -O2
 * -fomit-frame-pointer, both kept beside them (tests/unit/unwind_fixture.h).
 */
#include "tests/unit/cmocka_all.h"
#include "symbols/unwind.h"
#include "tests/unit/unwind_fixture.h"

static struct nv_stack_sample sample;
static struct sym_process proc;
static struct unwind_proc *unw;
static struct unwind_result res;

/* The fixture loaded and an unwinder made for each test: the first unwind attaches it. */
static int setup(void **state)
{
	(void)state;
	if (!unwind_fixture_sample(&sample) || unwind_fixture_process(&proc))
		return -1;
	unw = unwind_proc_new(proc.pid, &proc.maps);
	return unw ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unwind_proc_free(unw);
	sym_process_free(&proc);
	return 0;
}

static void unwind_copy(size_t len, bool cut)
{
	struct unwind_input in = { .ip = sample.stack.ip, .sp = sample.stack.sp, .bp = sample.stack.bp,
				   .stack = sample.stack.data, .len = len, .cut = cut };

	unwind_stack(unw, &in, &res);
}

/* The whole copy: cuLaunchKernel, phase_a, child, main, then main's caller (no module: the end). */
static void whole_chain(void **state)
{
	static const char *const want[] = { "cuLaunchKernel", "phase_a", "child", "main" };
	struct symbolizer s;

	(void)state;
	assert_int_equal(symbolizer_init(&s, &(struct symbolizer_config){ 0 }), 0);
	unwind_copy(sample.stack.size, sample.stack.flags & USER_STACK_CUT);
	assert_int_equal(res.n, 5);
	assert_false(res.truncated);
	assert_false(res.complete); /* it stopped at the C library, anonymous here */
	for (size_t i = 0; i < 4; i++) {
		struct frame f;

		symbolize_user(&s, &proc, res.ips[i], &f);
		assert_string_equal(f.name, want[i]);
	}
	/* the client and libcuda, each opened once; the anonymous C library never */
	assert_int_equal(unwind_files_opened(unw), 2);
	symbolizer_free(&s);
}

/* The copy cut short: [truncated] when the budget cut it, a plain end when the stack did. */
static void cut_short(void **state)
{
	(void)state;
	unwind_copy(16, true);
	assert_true(res.n >= 1 && res.n < 5);
	assert_true(res.truncated);
	unwind_copy(16, false);
	assert_true(res.n >= 1 && res.n < 5);
	assert_false(res.truncated);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(whole_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(cut_short, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
