// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Interrupt collector: per-line rates and handler time for the GPU drivers' lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/tp_progs.h"
#include "collectors/collector.h"
#include "collectors/irq/irq_lines.h"
#include "collectors/irq/irq_tables.h"
#include "collectors/kit/tracefs.h"
#include <linux/types.h>
#include "bpf/irq.h"
#include "irq.skel.h"

#define SYSFS_IRQ "/sys/kernel/irq"
#define RESCAN_TICKS 10 /* new lines appear when a driver loads */

static const struct tp_spec specs[] = {
	{ .group = "irq", .event = "irq_handler_entry", .prog = "irq_entry" },
	{ .group = "irq", .event = "irq_handler_exit", .prog = "irq_exit" },
};
#define NTPS (sizeof(specs) / sizeof(specs[0]))

struct irq_priv {
	struct irq_bpf *skel;
	struct tp_prog tps[NTPS];
	struct irq_line *lines;
	int nlines;
	unsigned int ticks;
	int ncpus;
	struct irq_stats *percpu; /* one lookup's values, one per possible CPU */
	struct irq_stats *last; /* per IRQ number, at the last read: rates over the interval */
};

static void irq_probe(struct collector *c)
{
	if (tp_specs_list(c, specs, NTPS) != NTPS) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE, "irq:irq_handler_* tracepoints missing",
				    "use a kernel with CONFIG_TRACING=y");
		return;
	}
	if (access(SYSFS_IRQ, F_OK)) {
		collector_set_state(c, COLLECTOR_UNAVAILABLE,
				    "no " SYSFS_IRQ ": interrupt handler names are unknown",
				    "use a kernel with CONFIG_SPARSE_IRQ=y");
		return;
	}
	c->priv = calloc(1, sizeof(struct irq_priv));
	if (!c->priv)
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
}

/* Rescans the lines and marks the watched ones in the BPF map. */
static void irq_rescan(struct collector *c)
{
	struct irq_priv *p = c->priv;
	int fd = bpf_map__fd(p->skel->maps.watch), ngpu = 0;
	struct irq_line *lines;
	int n = irq_lines_scan(SYSFS_IRQ, &lines);

	if (n < 0)
		return;
	free(p->lines);
	p->lines = lines;
	p->nlines = n;
	for (int i = 0; i < n; i++) {
		__u8 on = lines[i].gpu || c->config->all_irqs;

		if (lines[i].irq < IRQ_MAX)
			bpf_map_update_elem(fd, &lines[i].irq, &on, BPF_ANY);
		ngpu += lines[i].gpu;
	}
	snprintf(c->status.detail, sizeof(c->status.detail), "%d GPU line%s of %d%s", ngpu,
		 ngpu == 1 ? "" : "s", n, c->config->all_irqs ? ", watching all" : "");
}

static int irq_open(struct collector *c)
{
	struct irq_priv *p = c->priv;
	int err;

	p->ncpus = libbpf_num_possible_cpus();
	p->percpu = p->ncpus > 0 ? calloc((size_t)p->ncpus, sizeof(*p->percpu)) : NULL;
	p->last = calloc(IRQ_MAX, sizeof(*p->last));
	p->skel = irq_bpf__open();
	if (!p->percpu || !p->last || !p->skel ||
	    tp_progs_open(p->tps, specs, NTPS, p->skel->obj, NULL)) {
		collector_load_failed(c, -ENOMEM);
		return -1;
	}
	err = irq_bpf__load(p->skel);
	if (err) {
		collector_load_failed(c, err);
		return -1;
	}
	irq_rescan(c);
	return 0;
}

static int irq_attach(struct collector *c)
{
	struct irq_priv *p = c->priv;

	if (tp_progs_attach(c, p->tps, NTPS) != NTPS) {
		collector_set_state(c, COLLECTOR_FAILED, "attaching to the irq tracepoints failed",
				    "run with -v to see libbpf's messages");
		return -1;
	}
	return 0;
}

static int irq_read(struct collector *c, struct model *m)
{
	struct irq_priv *p = c->priv;
	int fd = bpf_map__fd(p->skel->maps.stats);
	struct table *t = model_table(m, &irq_lines_table);
	double iv = model_interval_s(m);

	if (++p->ticks % RESCAN_TICKS == 0)
		irq_rescan(c);
	for (int i = 0; t && i < p->nlines; i++) {
		const struct irq_line *l = &p->lines[i];
		struct irq_stats now = { 0 }, *last;
		struct cell *row;

		if (l->irq >= IRQ_MAX || !(l->gpu || c->config->all_irqs))
			continue;
		if (bpf_map_lookup_elem(fd, &l->irq, p->percpu))
			continue;
		for (int cpu = 0; cpu < p->ncpus; cpu++) {
			now.count += p->percpu[cpu].count;
			now.handler_ns += p->percpu[cpu].handler_ns;
		}
		row = table_row_add(t);
		if (!row)
			break;
		last = &p->last[l->irq];
		irq_line_row(row, l, &now, last, iv);
		*last = now;
	}
	collector_set_drop(c, "irq_number_too_large", p->skel->bss->irq_overflow);
	tp_progs_report(c, p->tps, NTPS, m);
	return 0;
}

static void irq_close(struct collector *c)
{
	struct irq_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, NTPS);
	irq_bpf__destroy(p->skel);
	free(p->lines);
	free(p->percpu);
	free(p->last);
	free(p);
}

static const struct collector_ops irq_collector = {
	.name = "irq", /* id */
	.order = 30,
	.description = "interrupt lines of GPU drivers: rate and handler time",
	.probe = irq_probe, /* irq tracepoints and /sys/kernel/irq */
	.open = irq_open, /* load, mark the GPU lines watched */
	.attach = irq_attach,
	.read = irq_read, /* per-CPU sums -> model; rescans lines every few ticks */
	.close = irq_close,
};
COLLECTOR_REGISTER(irq_collector);
