// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "symbols/stack_procs.h"
#include "symbols/sym_child.h"

struct stack_proc *stack_procs_find(struct stack_procs *ps, uint32_t pid)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->procs[i].pid == pid)
			return &ps->procs[i];
	return NULL;
}

struct stack_proc *stack_procs_add(struct stack_procs *ps, uint32_t pid, const char *comm)
{
	struct stack_proc *p;

	if (stack_procs_find(ps, pid) || !(p = array_push(&ps->procs, &ps->n, &ps->cap, sizeof(*p))))
		return NULL;
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->captured = !sym_process_capture(&p->sp, (pid_t)pid);
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)sizeof(p->comm) - 1,
		 comm && *comm ? comm : "?");
	return p;
}

void stack_procs_frame(struct stack_proc *p, uint64_t addr, struct frame *out)
{
	if (p && p->captured)
		sym_child_frame(&p->sp, addr, out); /* their files parsed away from our privileges */
	else
		memset(out, 0, sizeof(*out)); /* "[unknown]": it exited before it was seen */
}

uint64_t stack_frames_mark(void)
{
	return sym_child_provisional();
}

bool stack_frames_provisional(uint64_t mark)
{
	return sym_child_provisional() != mark;
}

void stack_procs_count_reset(struct stack_procs *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		ps->procs[i].events = ps->procs[i].dwarf_events = ps->procs[i].dwarf_samples = 0;
}

void stack_proc_count(struct stack_proc *p, uint64_t events, uint64_t samples)
{
	if (!p)
		return;
	p->events += events;
	if (!samples)
		return;
	p->dwarf_events += events;
	p->dwarf_samples += samples;
}

void stack_proc_sampled(const struct stack_proc *p, const char *unit, char *out, size_t size)
{
	const char *why = p ? p->cfi_why : "";
	uint64_t refused = p ? p->cfi_refused : 0;
	int n = 0;

	if (size)
		out[0] = 0;
	if (p && p->dwarf_samples < p->dwarf_events)
		n = snprintf(out, size, "DWARF: %" PRIu64 " of %" PRIu64 " %s unwound", p->dwarf_samples,
			     p->dwarf_events, unit);
	if (refused && n >= 0 && (size_t)n < size) /* where its CFI was refused: by frame pointers */
		snprintf(out + n, size - (size_t)n, "%s%" PRIu64 " %s CFI refused (%s)", n ? "; " : "DWARF: ", refused,
			 refused == 1 ? "file's" : "files'", why);
}

void stack_procs_free(struct stack_procs *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		if (!ps->procs[i].captured)
			continue;
		sym_child_forget(&ps->procs[i].sp);
		sym_process_free(&ps->procs[i].sp);
	}
	free(ps->procs);
	memset(ps, 0, sizeof(*ps));
}
