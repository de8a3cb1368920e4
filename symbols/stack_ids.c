// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "symbols/stack_ids.h"

void stack_frame_named(struct frame *f, const char *fmt, const char *a, const char *b)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), fmt, a, b);
}

/* The tracing machinery's own frames, above the traced code's (the BPF program has no name). */
static bool tracing_frame(const char *name)
{
	return !*name || !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) ||
	       !strncmp(name, "__traceiter_", 12) || !strncmp(name, "trace_", 6);
}

size_t stack_kernel_frames(struct symbolizer *sym, const uint64_t *ips, size_t depth, bool mark,
			   struct frame *out)
{
	size_t n = 0, len;
	bool top = true;

	for (size_t i = 0; i < depth && ips[i]; i++) {
		symbolize_kernel(sym, ips[i], &out[n]);
		if (top && tracing_frame(out[n].name))
			continue;
		top = false;
		len = strlen(out[n].name);
		if (mark && len && len + 4 < sizeof(out[n].name))
			memcpy(out[n].name + len, "_[k]", 5); /* flamegraph.pl's kernel mark */
		n++;
	}
	return n;
}

size_t stack_user_frames(struct stack_proc *p, const uint64_t *ips, size_t depth, uint64_t caller, struct frame *out)
{
	size_t n = 0;

	for (size_t i = 0; i < depth && ips[i]; i++) {
		stack_procs_frame(p, ips[i], &out[n++]);
		if (i == 0 && caller && (depth < 2 || ips[1] != caller))
			stack_procs_frame(p, caller, &out[n++]);
	}
	return n;
}
