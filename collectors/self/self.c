// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What gputop-bpf costs while it runs: its own CPU time and memory, and (from
 * the rows the BPF collectors added to self.programs this tick) the run time
 * of its BPF programs. Read last, after every other collector.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collectors/kit/prog_stats.h"
#include "collectors/collector.h"
#include "collectors/self/self_tables.h"

struct self_priv {
	unsigned long long last_ticks; /* utime + stime at the last read */
	long clk_tck, page;
	bool first;
};

static void self_probe(struct collector *c)
{
	struct self_priv *p = calloc(1, sizeof(*p));
	const char *why;

	if (!p) {
		collector_set_state(c, COLLECTOR_FAILED, "out of memory", NULL);
		return;
	}
	p->clk_tck = sysconf(_SC_CLK_TCK);
	p->page = sysconf(_SC_PAGESIZE);
	p->first = true;
	c->priv = p;
	if (bpf_cost_available(&why))
		snprintf(c->status.detail, sizeof(c->status.detail),
			 "BPF run-time statistics on while gputop-bpf runs");
	else
		snprintf(c->status.detail, sizeof(c->status.detail),
			 "no per-program BPF cost: %s", why);
}

/* utime + stime of this process, in clock ticks; 0 when /proc says nothing. */
static unsigned long long cpu_ticks(void)
{
	unsigned long long utime = 0, stime = 0;
	char buf[1024], *p;
	FILE *f = fopen("/proc/self/stat", "re");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
			 &stime) != 2)
		return 0;
	return utime + stime;
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
	unsigned long long ticks = cpu_ticks();
	double iv = model_interval_s(m), bpf = 0;
	long rss = rss_pages();
	struct cell *row = t ? table_row_add(t) : NULL;

	if (!row)
		return -1;
	cell_set_u64(row, SELF_PID, (uint64_t)getpid());
	if (!p->first && ticks >= p->last_ticks && p->clk_tck > 0)
		cell_set_f64(row, SELF_CPU,
			     (double)(ticks - p->last_ticks) / (double)p->clk_tck / iv * 100.0);
	p->last_ticks = ticks;
	p->first = false;
	if (rss >= 0)
		cell_set_u64(row, SELF_RSS, (uint64_t)rss * (uint64_t)p->page);
	if (bpf_cost_available(NULL) && progs) {
		for (size_t i = 0; i < progs->nrows; i++) {
			double v = cell_number(progs->desc, table_row(progs, i), SELF_PROG_CPU);

			if (!isnan(v))
				bpf += v;
		}
		cell_set_f64(row, SELF_BPF_CPU, bpf);
	}
	return 0;
}

static void self_close(struct collector *c)
{
	free(c->priv);
}

static const struct collector_ops self_collector = {
	.name = "self", /* id */
	.order = 90, /* last: it sums what the others reported */
	.description = "what gputop-bpf costs: its CPU and memory, its BPF programs' run time",
	.probe = self_probe, /* /proc/self, and whether BPF statistics are on */
	.open = NULL,
	.attach = NULL,
	.read = self_read, /* self.process (self.programs comes from each BPF collector) */
	.close = self_close,
};
COLLECTOR_REGISTER(self_collector);
