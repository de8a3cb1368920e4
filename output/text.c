// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cell_format.h"
#include "text.h"

const char *format_ns(double ns, char *buf, size_t size)
{
	if (ns > 0)
		return format_duration_ns(ns, buf, size);
	snprintf(buf, size, "-");
	return buf;
}

static void print_collectors(FILE *out, const struct snapshot *s)
{
	for (size_t i = 0; i < s->ncollectors; i++) {
		const struct collector_status *c = &s->collectors[i];
		uint64_t dropped = 0;

		for (unsigned int d = 0; d < c->ndrops; d++)
			dropped += c->drops[d].count;
		fprintf(out, "  %-10s %-11s %s", c->name, collector_state_name(c->state),
			c->state == COLLECTOR_ATTACHED ? c->detail : c->reason);
		if (dropped)
			fprintf(out, " [%llu events unmatched or dropped]", (unsigned long long)dropped);
		fputc('\n', out);
	}
}

static void print_rings(FILE *out, const struct snapshot *s)
{
	char a[16], b[16], c[16], d[16];

	if (!s->nrings)
		return;
	fprintf(out, "\n%-14s %-14s %8s %8s %6s %5s %6s %5s %6s %17s %17s\n", "RING", "DEVICE",
		"JOBS", "JOBS/S", "QUEUE", "QMAX", "INFL", "IMAX", "BUSY%", "WAIT p50/p99",
		"EXEC p50/p99");
	for (size_t i = 0; i < s->nrings; i++) {
		const struct ring_snap *r = &s->rings[i];

		fprintf(out, "%-14.14s %-14.14s %8llu %8.1f %6u %5u %6u %5u %6.1f %8s/%-8s %8s/%-8s\n",
			r->name, r->dev[0] ? r->dev : "-",
			(unsigned long long)r->completed_total, r->completed_per_s, r->queue_depth,
			r->queue_depth_max, r->in_flight, r->in_flight_max, r->busy_pct,
			format_ns(r->wait.p50_ns, a, sizeof(a)),
			format_ns(r->wait.p99_ns, b, sizeof(b)),
			format_ns(r->exec.p50_ns, c, sizeof(c)),
			format_ns(r->exec.p99_ns, d, sizeof(d)));
	}
}

static void print_procs(FILE *out, const struct snapshot *s)
{
	char a[16];

	if (!s->nprocs)
		return;
	fprintf(out, "\n%8s %-16s %8s %8s %7s %10s\n", "PID", "COMM", "JOBS/S", "JOBS", "GPU%",
		"WAIT avg");
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_snap *p = &s->procs[i];

		fprintf(out, "%8u %-16.16s %8.1f %8llu %7.1f %10s\n", p->pid, p->comm,
			p->jobs_per_s, (unsigned long long)p->jobs_total, p->gpu_pct,
			format_ns(p->wait_mean_ns, a, sizeof(a)));
	}
}

/* Every collector table, its columns as the descriptors say (drill-down columns too), in its default order. */
static void print_tables(FILE *out, const struct snapshot *s)
{
	char buf[TABLE_STR_MAX];

	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		const struct table_desc *d = t->desc;
		size_t *order;

		fprintf(out, "\n%s (%s)\n", d->title, d->name);
		if (!t->nrows) {
			fprintf(out, "  %s\n", d->empty ? d->empty : "(none)");
			continue;
		}
		order = calloc(t->nrows, sizeof(*order));
		if (!order)
			continue;
		table_sort(t, d->sort_col, false, order);
		for (unsigned int c = 0; c < d->ncols; c++)
			fprintf(out, "%s%*s", c ? " " : "", -d->cols[c].width, d->cols[c].title);
		fputc('\n', out);
		for (size_t r = 0; r < t->nrows; r++) {
			for (unsigned int c = 0; c < d->ncols; c++) {
				int w = d->cols[c].width;

				cell_format(&d->cols[c], table_cell(t, order[r], c), buf, sizeof(buf));
				fprintf(out, "%s%*s", c ? " " : "", d->cols[c].type == COL_STR ? -w : w,
					buf);
			}
			fputc('\n', out);
		}
		free(order);
	}
}

void snapshot_print_text(FILE *out, const struct snapshot *s)
{
	char when[32];
	struct tm tm;

	localtime_r(&s->wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(out, "gputop-bpf snapshot %llu  %s  %s  kernel %s  interval %.2fs\n",
		(unsigned long long)s->seq, when, s->hostname, s->kernel, s->interval_s);
	print_collectors(out, s);
	for (size_t i = 0; i < s->ndevices; i++)
		fprintf(out, "  device %s: %s %s\n", s->devices[i].name,
			s->devices[i].driver[0] ? s->devices[i].driver : "?", s->devices[i].bus_id);
	print_rings(out, s);
	print_procs(out, s);
	print_tables(out, s);
	fputc('\n', out);
}

void collectors_print_list(FILE *out, const struct collector_status *cs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct collector_status *c = &cs[i];

		fprintf(out, "%s: %s - %s\n", c->name, collector_state_name(c->state),
			c->description);
		if (c->detail[0])
			fprintf(out, "  detail: %s\n", c->detail);
		if (c->reason[0])
			fprintf(out, "  reason: %s\n", c->reason);
		if (c->fix[0])
			fprintf(out, "  fix:    %s\n", c->fix);
		for (unsigned int t = 0; t < c->ntracepoints; t++) {
			const struct tracepoint_status *tp = &c->tracepoints[t];

			fprintf(out, "  %-9s %s:%s%s%s\n", tracepoint_state_name(tp->state), tp->group,
				tp->event, tp->note[0] ? "  - " : "", tp->note);
		}
	}
}
