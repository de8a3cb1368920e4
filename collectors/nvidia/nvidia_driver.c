// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/test_hooks.h"
#include "collectors/nvidia/nvidia_driver.h"
#include "collectors/nvidia/nvidia_tables.h"
#include <linux/types.h>
#include "bpf/nvidia_driver.h"
#include "nvidia_driver.skel.h"
#include "collectors/kit/link_reaper.h"

#define GROUP "nvidia.ko"
#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe"

/* What each probed function is, and its names: the current one first, then older drivers'. */
static const struct drv_fn {
	const char *what;
	const char *names[2];
} fns[NV_DRV_FNS] = {
	{ "open", { "nvidia_open", "nvidia_frontend_open" } }, /* nv-frontend.c before 545.23.06 */
	{ "close", { "nvidia_close", "nvidia_frontend_close" } },
	{ "ioctl", { "nvidia_unlocked_ioctl", "nvidia_frontend_unlocked_ioctl" } },
	{ "mmap", { "nvidia_mmap", "nvidia_frontend_mmap" } },
	{ "poll", { "nvidia_poll", "nvidia_frontend_poll" } },
	{ "page fault", { "nvidia_fault" } },
	{ "interrupt", { "nvidia_isr" } },
	{ "interrupt (MSI-X)", { "nvidia_isr_msix" } },
	{ "bottom half", { "nvidia_isr_kthread_bh" } },
	{ "bottom half (MSI-X)", { "nvidia_isr_msix_kthread_bh" } },
	{ "deferred bottom half", { "nvidia_isr_bh_unlocked" } },
	{ "P2P get pages", { "nvidia_p2p_get_pages" } },
	{ "P2P put pages", { "nvidia_p2p_put_pages" } },
	{ "P2P DMA map", { "nvidia_p2p_dma_map_pages" } },
	{ "suspend", { "nv_pmops_suspend" } },
	{ "resume", { "nv_pmops_resume" } },
};

struct nv_driver {
	struct nvidia_driver_bpf *skel;
	const char *name[NV_DRV_FNS]; /* the name found, or NULL */
	const char *what[NV_DRV_FNS];
	char test_names[NV_DRV_FNS][64]; /* GPUTOP_TEST_NV_DRIVER_FNS */
	struct bpf_link *links[NV_DRV_FNS];
	bool no_btf[NV_DRV_FNS]; /* fentry: the function is not in the kernel's or module's BTF */
	int attach_err; /* the last attach's errno */
	const char *via;
	__u64 last[NV_DRV_FNS];
	struct tp_prog cost[NV_DRV_FNS]; /* the attached ones, for the cost table (links owned above) */
	size_t ncost;
};

/* Which of the names kallsyms has (in module mod, or anywhere when mod is NULL). */
static void find_names(struct nv_driver *d, const char *mod)
{
	char line[512], sym[256], where[64];
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%*s %*s %255s %63s", sym, where);

		if (n < 1 || (mod && (n < 2 || strcmp(where, mod))))
			continue;
		for (int i = 0; i < NV_DRV_FNS; i++)
			for (int k = 0; k < 2 && d->what[i] && !d->name[i]; k++) {
				const char *want = d->test_names[i][0] ? d->test_names[i] : fns[i].names[k];

				if (want && !strcmp(sym, want))
					d->name[i] = want;
			}
	}
	fclose(f);
}

/* Test builds: GPUTOP_TEST_NV_DRIVER_FNS="f1,f2" probes these kernel functions instead. */
static bool test_names(struct nv_driver *d)
{
	const char *env = test_hook("NV_DRIVER_FNS");
	char buf[NV_DRV_FNS * 64], *save = NULL, *tok;
	int i = 0;

	if (!env)
		return false;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok && i < NV_DRV_FNS; tok = strtok_r(NULL, ",", &save), i++) {
		snprintf(d->test_names[i], sizeof(d->test_names[i]), "%s", tok);
		d->what[i] = d->test_names[i];
	}
	return true;
}

static int attach_kprobes(struct nv_driver *d)
{
	int n = 0;

	bpf_program__set_autoload(d->skel->progs.drv_kprobe, true);
	if (nvidia_driver_bpf__load(d->skel))
		return -errno;
	for (int i = 0; i < NV_DRV_FNS; i++) {
		LIBBPF_OPTS(bpf_kprobe_opts, o, .bpf_cookie = (__u64)i);

		if (!d->name[i])
			continue;
		d->links[i] = bpf_program__attach_kprobe_opts(d->skel->progs.drv_kprobe, d->name[i], &o);
		if (!d->links[i])
			d->attach_err = errno;
		else if (!d->ncost) /* one program for all: its statistics once */
			d->cost[d->ncost++] = (struct tp_prog){ .group = "nvidia.ko", .event = "kprobes",
								.prog = d->skel->progs.drv_kprobe,
								.link = d->links[i] };
		n += d->links[i] != NULL;
	}
	return n;
}

static int attach_fentry(struct nv_driver *d)
{
	struct bpf_program *prog;
	int i = 0, n = 0, err;

	bpf_object__for_each_program(prog, d->skel->obj) {
		if (prog == d->skel->progs.drv_kprobe)
			continue;
		if (i < NV_DRV_FNS && d->name[i]) {
			d->no_btf[i] = bpf_program__set_attach_target(prog, 0, d->name[i]) != 0;
			bpf_program__set_autoload(prog, !d->no_btf[i]);
		}
		i++;
	}
	err = nvidia_driver_bpf__load(d->skel);
	if (err)
		return err;
	i = 0;
	bpf_object__for_each_program(prog, d->skel->obj) {
		if (prog == d->skel->progs.drv_kprobe)
			continue;
		if (i < NV_DRV_FNS && d->name[i] && !d->no_btf[i]) {
			d->links[i] = bpf_program__attach(prog);
			if (!d->links[i])
				d->attach_err = errno;
			else
				d->cost[d->ncost++] = (struct tp_prog){ .group = "nvidia.ko", .event = d->name[i],
									.prog = prog, .link = d->links[i] };
			n += d->links[i] != NULL;
		}
		i++;
	}
	return n;
}

struct nv_driver *nv_driver_start(struct collector *c)
{
	struct nv_driver *d = calloc(1, sizeof(*d));
	const char *force = test_hook("NV_DRIVER_VIA"), *fallback, *why = NULL;
	bool test, kprobes, loaded;
	struct bpf_program *prog;
	char note[128], err[40] = "";
	int n = 0;

	if (!d)
		return NULL;
	test = test_names(d);
	if (!test)
		for (int i = 0; i < NV_DRV_FNS; i++)
			d->what[i] = fns[i].what;
	loaded = test || !access("/sys/module/nvidia", F_OK);
	if (loaded)
		find_names(d, test ? NULL : "[nvidia]");
	kprobes = !access(KPROBE_PMU, F_OK) && (!force || strcmp(force, "fentry"));
	d->skel = nvidia_driver_bpf__open();
	if (d->skel) {
		bpf_object__for_each_program(prog, d->skel->obj)
			bpf_program__set_autoload(prog, false);
		for (int i = 0; i < NV_DRV_FNS; i++)
			n += d->name[i] != NULL;
	}
	if (!d->skel) {
		why = "cannot open its BPF object";
	} else if (n && kprobes) {
		n = attach_kprobes(d);
		d->via = n > 0 ? "kprobe" : NULL;
	} else if (n) {
		n = attach_fentry(d);
		d->via = n > 0 ? "fentry" : NULL;
		if (n < 0)
			snprintf(err, sizeof(err), "%s", strerror(-n));
	}
	if (!err[0] && d->attach_err)
		snprintf(err, sizeof(err), "%s", strerror(d->attach_err));
	fallback = "instead: ioctls (syscalls), IRQs (irq)";
	for (int i = 0; i < NV_DRV_FNS && d->what[i]; i++) {
		const char *name = d->name[i] ? d->name[i] : test ? d->what[i] : fns[i].names[0];
		enum tracepoint_state st = TRACEPOINT_MISSING;

		if (d->links[i]) {
			st = TRACEPOINT_ATTACHED;
			snprintf(note, sizeof(note), "%s, by %s", d->what[i], d->via);
		} else if (!loaded) {
			snprintf(note, sizeof(note), "the nvidia module is not loaded");
		} else if (!d->name[i]) {
			snprintf(note, sizeof(note), "not in this driver (kallsyms)");
		} else if (d->no_btf[i]) {
			snprintf(note, sizeof(note), "no kprobes (CONFIG_KPROBES), not in BTF for fentry; %s",
				 fallback);
		} else {
			st = TRACEPOINT_FAILED;
			snprintf(note, sizeof(note), "%s%s%s; %s", why ? why :
				 kprobes ? "kprobe refused" : "no kprobes (CONFIG_KPROBES), fentry refused",
				 err[0] ? ": " : "", err, fallback);
		}
		collector_add_tracepoint(c, GROUP, name, st, note);
	}
	return d;
}

uint64_t nv_driver_read(struct nv_driver *d, struct collector *c, struct model *m)
{
	struct table *t = model_table(m, &nvidia_driver);
	double iv = model_interval_s(m);

	for (int i = 0; d && t && d->via && i < NV_DRV_FNS; i++) {
		__u64 now = ((volatile __u64 *)d->skel->bss->calls)[i];
		struct cell *row;

		if (!d->links[i] || !(row = table_row_add(t)))
			continue;
		nvidia_driver_row(row, d->name[i], d->what[i], d->via, now, d->last[i], iv);
		d->last[i] = now;
	}
	return d && d->ncost ? tp_progs_report_rows(c, d->cost, d->ncost, m) : 0;
}

const char *nv_driver_via(const struct nv_driver *d)
{
	return d ? d->via : NULL;
}

void nv_driver_stop(struct nv_driver *d)
{
	if (!d)
		return;
	for (int i = 0; i < NV_DRV_FNS; i++)
		link_reaper_defer(d->links[i]);
	nvidia_driver_bpf__destroy(d->skel);
	free(d);
}
