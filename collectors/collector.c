// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/clock.h"
#include "core/sysroot.h"
#include "core/privileges.h"
#include "collectors/collector.h"
#include "collectors/kit/link_reaper.h"

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

void collector_set_drops(struct collector *c, const char *const *names, const __u64 *counts,
			 size_t n)
{
	for (size_t i = 0; i < n; i++)
		collector_set_drop(c, names[i], counts[i]);
}

void collector_load_failed(struct collector *c, int err)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "loading the BPF programs failed: %s", strerror(err < 0 ? -err : err));
	collector_set_state(c, COLLECTOR_FAILED, msg,
			    "run with -v to see libbpf's and the verifier's messages");
}

/*
 * Snapshots see a copy of the info, fixed once the start is over. A restart
 * (collector_retry) publishes another and keeps the old copies, which snapshots
 * still held by a front end may point at, until collector_stop.
 */
static void publish_info(struct collector *c)
{
	struct collector_info *copy = calloc(1, sizeof(*copy)), **list;

	if (!copy)
		goto keep;
	*copy = c->info;
	copy->tracepoints = NULL;
	copy->ntracepoints = 0;
	if (c->info.ntracepoints) {
		copy->tracepoints = calloc(c->info.ntracepoints, sizeof(*copy->tracepoints));
		if (!copy->tracepoints)
			goto fail;
		memcpy(copy->tracepoints, c->info.tracepoints,
		       c->info.ntracepoints * sizeof(*copy->tracepoints));
		copy->ntracepoints = c->info.ntracepoints;
	}
	list = reallocarray(c->published, c->npublished + 1, sizeof(*list));
	if (!list)
		goto fail;
	c->published = list;
	list[c->npublished++] = copy;
	c->status.info = copy;
	return;
fail:
	collector_info_clear(copy);
	free(copy);
keep: /* out of memory: the last copy published stays, or the working info before any */
	c->status.info = c->npublished ? c->published[c->npublished - 1] : &c->info;
}

static bool unprivileged;

void collectors_unprivileged(void)
{
	unprivileged = true;
}

/* Whether none of the collector's modules is loaded ("" in why), or which are not, in why. */
static bool modules_absent(const struct collector *c, char *why, size_t size)
{
	const char *const *m = c->ops->modules;
	char path[256];
	size_t n = 0;

	for (; m && m[n]; n++)
		if (sys_path(path, sizeof(path), "module/%s", m[n]) && !access(path, F_OK))
			return false;
	if (n == 1)
		snprintf(why, size, "the %s module is not loaded", m[0]);
	else if (n == 2)
		snprintf(why, size, "neither %s nor %s is loaded", m[0], m[1]);
	else if (n)
		snprintf(why, size, "none of its modules is loaded (%s ...)", m[0]);
	return n > 0;
}

/*
 * An unprivileged start, of a collector that loads BPF programs: where the kernel modules it
 * watches are not loaded, that; else what root or the capabilities add.
 */
static void set_unprivileged(struct collector *c)
{
	char why[128], fix[256];

	if (modules_absent(c, why, sizeof(why))) {
		snprintf(fix, sizeof(fix), "%s; then run 'sudo gputop-bpf' (it loads BPF programs)",
			 c->ops->modules_fix ? c->ops->modules_fix : "load the module");
		collector_set_state(c, COLLECTOR_UNAVAILABLE, why, fix);
		return;
	}
	collector_set_state(c, COLLECTOR_UNAVAILABLE, PRIVILEGES_BPF_REASON,
			    "run 'sudo gputop-bpf', or grant them once: sudo setcap " PRIVILEGES_SETCAP
			    " $(command -v gputop-bpf)");
}

void collector_start(struct collector *c)
{
	bool opened = true;
	uint64_t t;

	collector_status_clear(&c->status);
	collector_info_clear(&c->info);
	memset(&c->status, 0, sizeof(c->status));
	memset(&c->info, 0, sizeof(c->info));
	memset(c->start_ns, 0, sizeof(c->start_ns));
	c->status.info = &c->info; /* while it starts (the poller's thread alone looks) */
	snprintf(c->info.name, sizeof(c->info.name), "%s", c->ops->name);
	snprintf(c->info.description, sizeof(c->info.description), "%s", c->ops->description);
	c->info.state = COLLECTOR_ATTACHED;
	if (unprivileged && !c->ops->unprivileged) {
		set_unprivileged(c);
		publish_info(c);
		return;
	}
	t = mono_ns();
	c->ops->probe(c);
	c->start_ns[0] = mono_ns() - t;
	if (c->info.state == COLLECTOR_ATTACHED && c->ops->open) {
		t = mono_ns();
		opened = !c->ops->open(c);
		c->start_ns[1] = mono_ns() - t;
	}
	if (c->info.state == COLLECTOR_ATTACHED && opened && c->ops->attach) {
		t = mono_ns();
		c->ops->attach(c);
		c->start_ns[2] = mono_ns() - t;
	}
	publish_info(c);
}

void collector_retry(struct collector *c)
{
	if (c->ops->close)
		c->ops->close(c);
	link_reaper_flush(false); /* the old programs off before the new ones attach */
	c->priv = NULL;
	collector_start(c);
}

void collector_stop(struct collector *c)
{
	if (c->ops->close)
		c->ops->close(c);
	c->priv = NULL;
	collector_status_clear(&c->status);
	collector_info_clear(&c->info);
	for (size_t i = 0; i < c->npublished; i++) {
		collector_info_clear(c->published[i]);
		free(c->published[i]);
	}
	free(c->published);
	c->published = NULL;
	c->npublished = 0;
	c->status.info = NULL;
}
