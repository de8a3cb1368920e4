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
	struct tracepoint_status *tp;

	if (c->status.ntracepoints >= COLLECTOR_MAX_TPS)
		return NULL;
	tp = &c->status.tracepoints[c->status.ntracepoints++];
	snprintf(tp->group, sizeof(tp->group), "%s", group);
	snprintf(tp->event, sizeof(tp->event), "%s", event);
	tp->state = st;
	snprintf(tp->note, sizeof(tp->note), "%s", note ? note : "");
	return tp;
}

void collector_set_drop(struct collector *c, unsigned int i, const char *name, uint64_t count)
{
	if (i >= COLLECTOR_MAX_DROPS)
		return;
	snprintf(c->status.drops[i].name, sizeof(c->status.drops[i].name), "%s", name);
	c->status.drops[i].count = count;
	if (c->status.ndrops <= i)
		c->status.ndrops = i + 1;
}

void collector_start(struct collector *c)
{
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
}
