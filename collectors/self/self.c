// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What gputop-bpf costs while it runs: its own CPU time and memory, and (from
 * the rows the BPF collectors added to self.programs this tick) the run time
 * of its BPF programs, and its DWARF unwinding of --stacks' stack copies (done
 * in the stack copies' reader threads: collectors/kit/stack_copy.h, ring_reader.h).
 * Read last, after every other collector.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/prog_stats.h"
#include "collectors/kit/stack_copy.h"
#include "symbols/sym_child.h"
#include "collectors/collector.h"
#include "collectors/self/self_tables.h"

struct self_priv {
	struct self_reading last;
	long page;
};

static void self_probe(struct collector *c)
{
	struct self_priv *p = calloc(1, sizeof(*p));
	const char *why;

	if (!p) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return;
	}
	p->page = sysconf(_SC_PAGESIZE);
	c->priv = p;
	if (bpf_cost_available(&why))
		snprintf(c->status.detail, sizeof(c->status.detail),
			 "BPF run-time statistics on while gputop-bpf runs");
	else
		snprintf(c->status.detail, sizeof(c->status.detail),
			 "no per-program BPF cost: %s", why);
}

/* utime + stime of this process, in clock ticks; false when /proc says nothing. */
static bool cpu_ticks(uint64_t *ticks)
{
	unsigned long long utime = 0, stime = 0;
	char buf[1024], *p;
	FILE *f = fopen("/proc/self/stat", "re");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
			 &stime) != 2)
		return false;
	*ticks = utime + stime;
	return true;
}

static long rss_pages(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident;
}

static int self_read(struct collector *c, struct model *m)
{
	struct self_priv *p = c->priv;
	struct table *t = model_table(m, &self_process_table);
	struct table *progs = model_table(m, &self_programs_table);
	long rss = rss_pages();
	struct self_reading now = {
		.pid = (uint32_t)getpid(),
		.clk_tck = sysconf(_SC_CLK_TCK),
		.rss_bytes = rss >= 0 ? (int64_t)rss * p->page : -1,
		.bpf_cpu_pct = NAN,
		.unwind_known = true,
		.unwind_cpu_ns = stack_copy_cost_read().cpu_ns,
	};
	struct cell *row = t ? table_row_add(t) : NULL;

	if (!row)
		return -1;
	now.cpu_known = cpu_ticks(&now.cpu_ticks);
	if (now.clk_tck > 0) /* and its symbolizing child's (symbols/sym_child.h), the dead ones' too */
		now.cpu_ticks += sym_child_stats().cpu_ns / (1000000000ull / (uint64_t)now.clk_tck);
	if (bpf_cost_available(NULL) && progs) {
		now.bpf_cpu_pct = 0;
		for (size_t i = 0; i < progs->nrows; i++) {
			double v = cell_number(progs->desc, table_row(progs, i), SELF_PROG_CPU);

			if (!isnan(v))
				now.bpf_cpu_pct += v;
		}
	}
	self_process_row(row, &now, &p->last, model_interval_s(m));
	p->last = now;
	return 0;
}

static void self_close(struct collector *c)
{
	free(c->priv);
}

static const struct collector_ops self_collector = {
	.name = "self", /* id */
	.order = 90, /* last: it sums what the others reported */
	.unprivileged = true,
	.description = "what gputop-bpf costs: its CPU and memory, its BPF programs' run time",
	.probe = self_probe, /* /proc/self, and whether BPF statistics are on */
	.open = NULL,
	.attach = NULL,
	.read = self_read, /* self.process (self.programs comes from each BPF collector) */
	.close = self_close,
};
COLLECTOR_REGISTER(self_collector);
