// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "collector.h"

void collector_set_state(struct collector *c, enum collector_state st, const char *reason,
			 const char *fix)
{
	c->status.state = st;
	snprintf(c->status.reason, sizeof(c->status.reason), "%s", reason ? reason : "");
	snprintf(c->status.fix, sizeof(c->status.fix), "%s", fix ? fix : "");
}

struct tracepoint_status *collector_add_tracepoint(struct collector *c, const char *group,
						   const char *event, enum tracepoint_state st,
						   const char *note)
{
	struct tracepoint_status *tp = collector_status_add_tracepoint(&c->status);

	if (!tp)
		return NULL;
	snprintf(tp->group, sizeof(tp->group), "%s", group);
	snprintf(tp->event, sizeof(tp->event), "%s", event);
	tp->state = st;
	snprintf(tp->note, sizeof(tp->note), "%s", note ? note : "");
	return tp;
}

void collector_set_tracepoint(struct collector *c, const char *group, const char *event,
			      enum tracepoint_state st, const char *note)
{
	for (size_t i = 0; i < c->status.ntracepoints; i++) {
		struct tracepoint_status *tp = &c->status.tracepoints[i];

		if (strcmp(tp->group, group) || strcmp(tp->event, event))
			continue;
		tp->state = st;
		if (note)
			snprintf(tp->note, sizeof(tp->note), "%s", note);
	}
}

void collector_set_drop(struct collector *c, const char *name, uint64_t count)
{
	collector_status_set_drop(&c->status, name, count);
}

void collector_start(struct collector *c)
{
	collector_status_clear(&c->status);
	memset(&c->status, 0, sizeof(c->status));
	snprintf(c->status.name, sizeof(c->status.name), "%s", c->ops->name);
	snprintf(c->status.description, sizeof(c->status.description), "%s",
		 c->ops->description);
	c->status.state = COLLECTOR_ATTACHED;
	c->ops->probe(c);
	if (c->status.state != COLLECTOR_ATTACHED)
		return;
	if (c->ops->open && c->ops->open(c))
		return;
	if (c->ops->attach)
		c->ops->attach(c);
}

void collector_stop(struct collector *c)
{
	if (c->ops->close)
		c->ops->close(c);
	c->priv = NULL;
	collector_status_clear(&c->status);
}
