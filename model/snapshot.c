// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include "snapshot.h"

void snapshot_free(struct snapshot *s)
{
	if (!s)
		return;
	free(s->collectors);
	free(s->devices);
	free(s->rings);
	free(s->procs);
	free(s->proc_rings);
	free(s->irqs);
	free(s->memory);
	free(s->displays);
	free(s);
}

const char *collector_state_name(enum collector_state st)
{
	switch (st) {
	case COLLECTOR_ATTACHED:
		return "attached";
	case COLLECTOR_UNAVAILABLE:
		return "unavailable";
	case COLLECTOR_FAILED:
		return "failed";
	}
	return "unknown";
}

const char *tracepoint_state_name(enum tracepoint_state st)
{
	switch (st) {
	case TRACEPOINT_ATTACHED:
		return "attached";
	case TRACEPOINT_AVAILABLE:
		return "available";
	case TRACEPOINT_MISSING:
		return "missing";
	case TRACEPOINT_FAILED:
		return "failed";
	}
	return "unknown";
}
