// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Interrupt collector: per-line rates and handler time for the GPU drivers' lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpf_util.h"
#include "collector.h"
#include "irq_lines.h"
#include "irq_tables.h"
#include "tracefs.h"
#include <linux/types.h>
#include "../bpf/irq.h"
#include "irq.skel.h"

#define SYSFS_IRQ "/sys/kernel/irq"
#define RESCAN_TICKS 10 /* new lines appear when a driver loads */

struct irq_priv {
	struct irq_bpf *skel;
	struct tp_prog tps[2]; /* irq_handler_entry, irq_handler_exit */
	struct irq_line *lines;
	int nlines;
	unsigned int ticks;
	int ncpus;
	struct irq_stats *percpu; /* one lookup's values, one per possible CPU */
	struct irq_stats *last; /* per IRQ number, at the last read: rates over the interval */
};

static void irq_probe(struct collector *c)
{
	bool entry = tracepoint_exists("irq", "irq_handler_entry");
	bool exit = tracepoint_exists("irq", "irq_handler_exit");

	collector_add_tracepoint(c, "irq", "irq_handler_entry",
				 entry ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
				 entry ? "" : "not in this kernel");
	collector_add_tracepoint(c, "irq", "irq_handler_exit",
				 exit ? TRACEPOINT_AVAILABLE : TRACEPOINT_MISSING,
				 exit ? "" : "not in this kernel");
	if (!entry || !exit) {
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

	p->ncpus = libbpf_num_possible_cpus();
	p->percpu = p->ncpus > 0 ? calloc((size_t)p->ncpus, sizeof(*p->percpu)) : NULL;
	p->last = calloc(IRQ_MAX, sizeof(*p->last));
	p->skel = irq_bpf__open_and_load();
	if (!p->percpu || !p->last || !p->skel) {
		collector_load_failed(c, errno);
		return -1;
	}
	p->tps[0] = (struct tp_prog){ .group = "irq", .event = "irq_handler_entry",
				      .prog = p->skel->progs.irq_entry, .wanted = true };
	p->tps[1] = (struct tp_prog){ .group = "irq", .event = "irq_handler_exit",
				      .prog = p->skel->progs.irq_exit, .wanted = true };
	irq_rescan(c);
	return 0;
}

static int irq_attach(struct collector *c)
{
	struct irq_priv *p = c->priv;

	if (tp_progs_attach(c, p->tps, 2) != 2) {
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
		cell_set_u64(row, IRQ_NUM, l->irq);
		cell_set_str(row, IRQ_NAME, l->actions);
		cell_set_u64(row, IRQ_GPU, l->gpu);
		cell_set_u64(row, IRQ_TOTAL, now.count);
		cell_set_f64(row, IRQ_PER_S,
			     (double)(now.count >= last->count ? now.count - last->count : 0) / iv);
		cell_set_f64(row, IRQ_HANDLER_PCT,
			     (double)(now.handler_ns >= last->handler_ns ?
					      now.handler_ns - last->handler_ns : 0) /
				     (iv * 1e9) * 100.0);
		*last = now;
	}
	collector_set_drop(c, "irq_number_too_large", p->skel->bss->irq_overflow);
	tp_progs_report(c, p->tps, 2, m);
	return 0;
}

static void irq_close(struct collector *c)
{
	struct irq_priv *p = c->priv;

	if (!p)
		return;
	tp_progs_detach(p->tps, 2);
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
