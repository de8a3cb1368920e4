// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stddef.h>
#include "collectors/kit/stack_copy.h"

bool stack_copy_unwind(struct stack_proc *p, const struct user_stack *s, size_t size,
		       struct unwind_result *r)
{
	const size_t head = offsetof(struct user_stack, data);

	if (size < head || s->size > size - head || !p || !p->captured)
		return false;
	if (!p->unw && !(p->unw = unwind_proc_new((pid_t)p->pid, &p->sp.maps)))
		return false;
	unwind_stack(p->unw,
		     &(struct unwind_input){ .ip = s->ip,
					     .sp = s->sp,
					     .bp = s->bp,
					     .stack = s->data,
					     .len = s->size,
					     .cut = s->flags & USER_STACK_CUT },
		     r);
	return true;
}
