// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "collector.h"

void collector_set_state(struct collector *c, enum collector_state st, const char *reason,
			 const char *fix)
{
	c->info.state = st;
	snprintf(c->info.reason, sizeof(c->info.reason), "%s", reason ? reason : "");
	snprintf(c->info.fix, sizeof(c->info.fix), "%s", fix ? fix : "");
}

struct tracepoint_status *collector_add_tracepoint(struct collector *c, const char *group,
						   const char *event, enum tracepoint_state st,
						   const char *note)
{
	struct tracepoint_status *tp = collector_info_add_tracepoint(&c->info);

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
	for (size_t i = 0; i < c->info.ntracepoints; i++) {
		struct tracepoint_status *tp = &c->info.tracepoints[i];

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
	collector_info_clear(&c->info);
	memset(&c->status, 0, sizeof(c->status));
	memset(&c->info, 0, sizeof(c->info));
	c->status.info = &c->info;
	snprintf(c->info.name, sizeof(c->info.name), "%s", c->ops->name);
	snprintf(c->info.description, sizeof(c->info.description), "%s", c->ops->description);
	c->info.state = COLLECTOR_ATTACHED;
	c->ops->probe(c);
	if (c->info.state != COLLECTOR_ATTACHED)
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
	collector_info_clear(&c->info);
}
