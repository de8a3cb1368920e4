// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdatomic.h>
#include <stddef.h>
#include "collectors/kit/stack_copy.h"
#include "core/clock.h"

/*
 * What unwinding has cost, every thread that unwinds together: the time is
 * added before the count (release), and read after it (acquire), so that a
 * reading's time covers at least its copies.
 */
static _Atomic uint64_t unwound, unwind_cpu_ns, cfi_refused;

bool stack_copy_unwind(struct stack_proc *p, const struct user_stack *s, size_t size,
		       struct unwind_result *r)
{
	const size_t head = offsetof(struct user_stack, data);
	uint64_t t0, refused;

	if (size < head || s->size > size - head || !p || !p->captured)
		return false;
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID); /* the unwinder's making (files opened) included */
	if (!p->unw && !(p->unw = unwind_proc_new((pid_t)p->pid, &p->sp.maps)))
		return false;
	refused = unwind_cfi_refused(p->unw, NULL);
	unwind_stack(p->unw,
		     &(struct unwind_input){ .ip = s->ip,
					     .sp = s->sp,
					     .bp = s->bp,
					     .stack = s->data,
					     .len = s->size,
					     .cut = s->flags & USER_STACK_CUT },
		     r);
	atomic_fetch_add_explicit(&cfi_refused, unwind_cfi_refused(p->unw, NULL) - refused, memory_order_relaxed);
	atomic_fetch_add_explicit(&unwind_cpu_ns, clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&unwound, 1, memory_order_release);
	return true;
}

struct stack_copy_cost stack_copy_cost_read(void)
{
	struct stack_copy_cost c;

	c.copies = atomic_load_explicit(&unwound, memory_order_acquire);
	c.cpu_ns = atomic_load_explicit(&unwind_cpu_ns, memory_order_relaxed);
	c.cfi_refused = atomic_load_explicit(&cfi_refused, memory_order_relaxed);
	return c;
}
