// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "collectors/calls/calls_gate.h"
#include "collectors/kit/fd_census.h"
#include "collectors/kit/map_walk.h"
#include "core/clock.h"
#include <linux/types.h>
#include "bpf/calls.h"
#include "calls.skel.h"
#include "collectors/kit/link_reaper.h"

#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe"

void calls_gate_prepare(struct calls_gate *g, struct calls_bpf *skel, bool gated)
{
	bool kprobes = !access(KPROBE_PMU, F_OK);

	g->fentry = gated && !kprobes;
	if (!gated) /* the second try, after the load with fentry failed */
		snprintf(g->why, sizeof(g->why), "always on: no kprobes, fentry refused");
	g->probe = !gated ? NULL : kprobes ? skel->progs.open_kprobe : skel->progs.open_fentry;
	bpf_program__set_autoload(skel->progs.open_kprobe, g->probe == skel->progs.open_kprobe);
	bpf_program__set_autoload(skel->progs.open_fentry, g->probe == skel->progs.open_fentry);
}

void calls_gate_open(struct calls_gate *g, struct calls_bpf *skel, const uint32_t *majors, size_t n)
{
	skel->bss->self_tgid = (__u32)getpid();
	g->open_probe = g->probe ? bpf_program__attach(g->probe) : NULL;
	if (!g->open_probe) {
		if (!g->why[0])
			snprintf(g->why, sizeof(g->why), "always on: chrdev_open not probed");
		return;
	}
	g->census = fd_census_open(majors, n, false);
	if (!g->census)
		snprintf(g->why, sizeof(g->why), "always on: out of memory");
}

static bool gate_closed(const struct calls_bpf *skel)
{
	return __atomic_load_n(&skel->bss->gpu_opens, __ATOMIC_ACQUIRE) + 1 ==
	       __atomic_load_n(&skel->bss->idle_at, __ATOMIC_ACQUIRE);
}

/* A call that entered before the gate closed: its file was closed while it ran. */
static bool entered_before(const void *key, void *value, void *arg)
{
	const struct ioctl_pending *p = value;

	(void)key;
	return p->ns < *(const uint64_t *)arg;
}

static unsigned int others_files(const struct calls_gate *g)
{
	unsigned int n = 0, self = (unsigned int)getpid();

	for (size_t i = 0; i < g->nfiles; i++)
		n += g->files[i].pid != self;
	return n;
}

uint64_t calls_gate_tick(struct calls_gate *g, struct calls_bpf *skel, const uint32_t *majors, size_t n)
{
	uint64_t opens, now;
	long taken;

	if (!g->census || gate_closed(skel))
		return 0;
	opens = __atomic_load_n(&skel->bss->gpu_opens, __ATOMIC_ACQUIRE);
	fd_census_set_majors(g->census, majors, n);
	if (fd_census_take(g->census, &g->files, &g->nfiles, &g->cap)) {
		g->opens_seen = 0;
		return 0;
	}
	g->open_files = others_files(g);
	g->counted = true;
	if (g->open_files || g->opens_seen != opens + 1) {
		/* files open, or the first census without: the next one may close it */
		g->opens_seen = g->open_files ? 0 : opens + 1;
		return 0;
	}
	now = mono_ns();
	__atomic_store_n(&skel->bss->idle_at, opens + 1, __ATOMIC_RELEASE);
	g->opens_seen = 0;
	taken = map_walk(bpf_map__fd(skel->maps.ioctl_pending), sizeof(__u64),
			 sizeof(struct ioctl_pending), entered_before, &now);
	return taken > 0 ? (uint64_t)taken : 0;
}

void calls_gate_describe(const struct calls_gate *g, const struct calls_bpf *skel, char *out, size_t size)
{
	if (!g->census)
		snprintf(out, size, "%s", g->why);
	else if (gate_closed(skel))
		snprintf(out, size, "idle: no GPU file open");
	else if (g->counted)
		snprintf(out, size, "%u GPU file%s open", g->open_files, g->open_files == 1 ? "" : "s");
	else
		snprintf(out, size, "on");
}

void calls_gate_close(struct calls_gate *g)
{
	link_reaper_defer_no_module(&g->open_probe, 1); /* chrdev_open: the core kernel's */
	fd_census_close(g->census);
	free(g->files);
	memset(g, 0, sizeof(*g));
}
