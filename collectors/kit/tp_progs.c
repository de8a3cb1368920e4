// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "collectors/kit/tp_progs.h"
#include "collectors/kit/tracefs.h"
#include "collectors/kit/link_reaper.h"

size_t tp_specs_count(const struct tp_spec *specs, size_t n)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += 1 + specs[i].twins;
	return total;
}

static const char *missing_note(const struct tp_spec *s, char *buf, size_t size)
{
	if (tracepoint_group_exists(s->group))
		return s->missing ? s->missing : "not in this kernel";
	if (s->absent)
		return s->absent;
	snprintf(buf, size, "the %s module is not loaded", s->group);
	return buf;
}

size_t tp_specs_list(struct collector *c, const struct tp_spec *specs, size_t n)
{
	size_t found = 0;

	for (size_t i = 0; i < n; i++) {
		const struct tp_spec *s = &specs[i];
		char buf[96];
		bool ok;

		if (!s->event)
			continue;
		ok = tracepoint_exists(s->group, s->event);
		found += ok;
		collector_add_tracepoint(c, s->group, s->event,
					 ok ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
					 ok ? "" : missing_note(s, buf, sizeof(buf)));
	}
	return found;
}

int tp_progs_open(struct tp_prog *tps, const struct tp_spec *specs, size_t n,
		  struct bpf_object *obj, const __u64 *rescued)
{
	size_t t = 0;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const struct tp_spec *s = &specs[i];
		bool wanted = s->event && tracepoint_exists(s->group, s->event);

		for (unsigned int k = 0; k <= s->twins; k++, t++) {
			char name[64];

			if (k)
				snprintf(name, sizeof(name), "%s%u", s->prog, k + 1);
			else
				snprintf(name, sizeof(name), "%s", s->prog);
			tps[t] = (struct tp_prog){
				.group = s->group,
				.event = s->event ? s->event : "",
				.prog = bpf_object__find_program_by_name(obj, name),
				.wanted = wanted,
				.raw = s->raw,
			};
			if (k && rescued) {
				tps[t].rescued = &rescued[i * (s->twins + 1) + k];
				tps[t].lost_name = s->lost;
			}
			if (!tps[t].prog)
				rc = -1;
			else
				bpf_program__set_autoload(tps[t].prog, wanted);
		}
	}
	return rc;
}

size_t tp_progs_attach(struct collector *c, struct tp_prog *tps, size_t n)
{
	size_t attached = 0;

	for (size_t i = 0; i < n; i++) {
		char note[96];

		if (!tps[i].wanted || !tps[i].prog)
			continue;
		tps[i].link = tps[i].raw ? bpf_program__attach_raw_tracepoint(tps[i].prog, tps[i].event) :
					   bpf_program__attach(tps[i].prog);
		if (!tps[i].link) {
			snprintf(note, sizeof(note), "attach failed: %s", strerror(errno));
			collector_set_tracepoint(c, tps[i].group, tps[i].event, TRACEPOINT_FAILED,
						 note);
			continue;
		}
		if (!tps[i].rescued) /* a twin's tracepoint is its primary's */
			collector_set_tracepoint(c, tps[i].group, tps[i].event, TRACEPOINT_ATTACHED,
						 NULL);
		attached++;
	}
	return attached;
}

/* The core kernel's tracepoint groups the collectors use: a link on one holds no module. */
static bool core_group(const char *group)
{
	static const char *const core[] = { "syscalls", "raw_syscalls", "irq", "dma_fence", "sched" };

	for (size_t i = 0; group && i < sizeof(core) / sizeof(core[0]); i++)
		if (!strcmp(group, core[i]))
			return true;
	return false;
}

void tp_progs_detach(struct tp_prog *tps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (core_group(tps[i].group))
			link_reaper_defer_no_module(&tps[i].link, 1);
		else
			link_reaper_defer(tps[i].link);
		tps[i].link = NULL;
	}
}
