// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the monitor's DWARF unwinding costs (collectors/kit/stack_copy.c): the
 * copies unwound and the symbolizing child's CPU time for them (it unwinds:
 * symbols/sym_child.h), counted on the unwinder's fixture
 * (tests/unit/unwind_fixture.h) from one thread and from several at once.
 */
#include "tests/unit/cmocka_all.h"
#include <pthread.h>
#include <unistd.h>
#include "collectors/kit/stack_copy.h"
#include "core/clock.h"
#include "symbols/sym_child.h"
#include "tests/unit/unwind_fixture.h"

#define THREADS 3
#define ROUNDS 200

static struct nv_stack_sample sample;
static size_t copy_size; /* the bytes received of sample.stack */
static pthread_barrier_t start; /* the threads' rounds at once */

/* A process as the stacks sources hold it: the fixture's, its mappings captured. */
static int proc_open(struct stack_proc *p)
{
	memset(p, 0, sizeof(*p));
	if (unwind_fixture_process(&p->sp))
		return -1;
	p->pid = p->sp.pid;
	p->captured = true;
	return 0;
}

static void proc_close(struct stack_proc *p)
{
	sym_child_forget(&p->sp);
	sym_process_free(&p->sp);
}

static int setup(void **state)
{
	size_t n = unwind_fixture_sample(&sample);

	(void)state;
	if (!n)
		return -1;
	copy_size = n - offsetof(struct nv_stack_sample, stack);
	return 0;
}

/* One copy unwound: one more, with its time; what is not unwound counts nothing. */
static void counted(void **state)
{
	struct stack_copy_cost before = stack_copy_cost_read(), after;
	struct unwind_result r;
	struct stack_proc p;

	(void)state;
	assert_int_equal(proc_open(&p), 0);
	assert_true(stack_copy_unwind(&p, &sample.stack, copy_size, &r));
	assert_int_equal(r.n, 5); /* cuLaunchKernel, phase_a, child, main, main's caller */
	after = stack_copy_cost_read();
	assert_int_equal(after.copies - before.copies, 1);
	assert_true(after.cpu_ns > before.cpu_ns);
	/* malformed (shorter than its header, or than it says), or its process not captured */
	before = after;
	assert_false(stack_copy_unwind(&p, &sample.stack, 8, &r));
	assert_false(stack_copy_unwind(&p, &sample.stack, copy_size - 1, &r));
	p.captured = false;
	assert_false(stack_copy_unwind(&p, &sample.stack, copy_size, &r));
	assert_false(stack_copy_unwind(NULL, &sample.stack, copy_size, &r));
	after = stack_copy_cost_read();
	assert_int_equal(after.copies, before.copies);
	assert_int_equal(after.cpu_ns, before.cpu_ns);
	p.captured = true;
	proc_close(&p);
}

struct worker {
	pthread_t t;
	uint64_t cpu_ns; /* the thread's own CPU time over its rounds */
	int unwound;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct unwind_result r;
	struct stack_proc p;
	bool open = !proc_open(&p);
	uint64_t t0;

	pthread_barrier_wait(&start);
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; open && i < ROUNDS; i++)
		w->unwound += stack_copy_unwind(&p, &sample.stack, copy_size, &r);
	w->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	if (open)
		proc_close(&p);
	return NULL;
}

/*
 * Threads unwinding at once: every copy counted; the time the child's, no more
 * than its CPU grew (read from /proc in clock ticks: a tick's slack).
 */
static void threads(void **state)
{
	struct stack_copy_cost before = stack_copy_cost_read(), after;
	uint64_t child_before = sym_child_stats().cpu_ns, child_cpu;
	struct worker w[THREADS] = { 0 };
	uint64_t cpu_ns = 0;

	(void)state;
	assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&w[i].t, NULL, work, &w[i]), 0);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(w[i].t, NULL);
		assert_int_equal(w[i].unwound, ROUNDS);
		cpu_ns += w[i].cpu_ns;
	}
	pthread_barrier_destroy(&start);
	after = stack_copy_cost_read();
	child_cpu = sym_child_stats().cpu_ns - child_before;
	assert_int_equal(after.copies - before.copies, THREADS * ROUNDS);
	assert_true(after.cpu_ns > before.cpu_ns);
	assert_true(after.cpu_ns - before.cpu_ns <= child_cpu + 20000000);
	print_message("%d copies unwound in %.1f ms of the child's CPU (its own count: %.1f ms; the threads' "
		      "asking: %.1f ms)\n",
		      THREADS * ROUNDS, (double)(after.cpu_ns - before.cpu_ns) / 1e6, (double)child_cpu / 1e6,
		      (double)cpu_ns / 1e6);
}

/* One copy unwound by a thread of its own, which then ends. */
static void *unwind_once(void *arg)
{
	struct unwind_result r;
	struct stack_proc *p = arg;

	return stack_copy_unwind(p, &sample.stack, copy_size, &r) ? arg : NULL;
}

/*
 * A child started by a thread that then ended lives on (the kernel's death signal follows the thread
 * that forked: a ring's reader ends before the monitor); the next copy is unwound, no death counted.
 */
static void outlives_the_asking_thread(void **state)
{
	struct sym_child_stats st;
	struct unwind_result r;
	struct stack_proc p;
	pthread_t t;
	void *ok;

	(void)state;
	sym_child_stop(); /* none: the thread below starts it */
	assert_int_equal(proc_open(&p), 0);
	assert_int_equal(pthread_create(&t, NULL, unwind_once, &p), 0);
	pthread_join(t, &ok);
	assert_non_null(ok);
	st = sym_child_stats();
	usleep(100000); /* a death signal, were one sent, delivered */
	assert_true(stack_copy_unwind(&p, &sample.stack, copy_size, &r));
	assert_int_equal(sym_child_stats().died, st.died);
	assert_int_equal(sym_child_stats().started, st.started);
	proc_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counted),
		cmocka_unit_test(threads),
		cmocka_unit_test(outlives_the_asking_thread),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
