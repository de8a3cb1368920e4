// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include "collectors/kit/stack_copy.h"
#include "symbols/sym_child.h"

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
	struct sym_child_unwound u;

	if (size < head || s->size > size - head || !p || !p->captured)
		return false;
	if (!sym_child_unwind(&p->sp,
			      &(struct unwind_input){ .ip = s->ip,
						      .sp = s->sp,
						      .bp = s->bp,
						      .stack = s->data,
						      .len = s->size,
						      .cut = s->flags & USER_STACK_CUT },
			      r, &u))
		return false;
	atomic_fetch_add_explicit(&cfi_refused, u.cfi_refused - p->cfi_refused, memory_order_relaxed);
	p->cfi_refused = u.cfi_refused;
	memcpy(p->cfi_why, u.cfi_why, sizeof(p->cfi_why));
	atomic_fetch_add_explicit(&unwind_cpu_ns, u.cpu_ns,
				  memory_order_relaxed); /* the child's, its files' reading included */
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
