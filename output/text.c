// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <langinfo.h>
#include "format/cell_format.h"
#include "format/cell_text.h"
#include "output/text.h"

/* Names, details and cells others chose, made safe: no control character reaches the terminal. */
static bool utf8(void)
{
	return !strcmp(nl_langinfo(CODESET), "UTF-8");
}

static void safe(FILE *out, const char *text)
{
	text_print_cell(out, text, 0, true, utf8());
}

static void print_collectors(FILE *out, const struct snapshot *s)
{
	for (size_t i = 0; i < s->ncollectors; i++) {
		const struct collector_status *c = &s->collectors[i];
		uint64_t dropped = 0;

		for (unsigned int d = 0; d < c->ndrops; d++)
			dropped += c->drops[d].count;
		fprintf(out, "  %-10s %-11s ", c->info->name, collector_state_name(c->info->state));
		safe(out, c->info->state == COLLECTOR_ATTACHED ? c->detail : c->info->reason);
		if (dropped)
			fprintf(out, " [%llu events unmatched or dropped]", (unsigned long long)dropped);
		fputc('\n', out);
	}
}

#define LONG_COL_WIDTH 100 /* a long text column's (COL_LONG) cells at most: a longer cell goes on whole */

/* A table's shown cells, each formatted and made safe once: its text in a pool, and its cells. */
struct fitted {
	char *pool;
	size_t len, cap;
	size_t *off; /* rows x shown columns */
	size_t *bytes;
	int *cells;
};

static bool pool_add(struct fitted *f, const char *text, size_t n)
{
	if (f->len + n + 1 > f->cap) {
		size_t cap = f->cap ? f->cap : 1 << 16;
		char *p;

		while (cap < f->len + n + 1)
			cap *= 2;
		if (!(p = realloc(f->pool, cap)))
			return false;
		f->pool = p;
		f->cap = cap;
	}
	memcpy(f->pool + f->len, text, n + 1);
	f->len += n + 1;
	return true;
}

/*
 * Formats and fits every shown cell of t in order, once, into f; and the cells each shown column needs:
 * its title's or its widest cell's, so every row lines up; a long text column (a kernel's or a stack's
 * name, to 4095 bytes) at most LONG_COL_WIDTH, its longer cells printed whole past it, pushing the rest of
 * their row. false when memory ran out.
 */
static bool fit_cells(const struct table *t, const size_t *order, unsigned int nshown, bool u8, int *width,
		      struct fitted *f)
{
	const struct table_desc *d = t->desc;
	char buf[TABLE_LONG_STR_MAX], fit[TEXT_CELL_MAX];
	size_t i = 0;

	f->off = calloc(t->nrows * nshown, sizeof(*f->off));
	f->bytes = calloc(t->nrows * nshown, sizeof(*f->bytes));
	f->cells = calloc(t->nrows * nshown, sizeof(*f->cells));
	if (!f->off || !f->bytes || !f->cells)
		return false;
	for (unsigned int c = 0; c < d->ncols; c++)
		width[c] = (int)strlen(d->cols[c].title);
	for (size_t r = 0; r < t->nrows; r++)
		for (unsigned int c = 0; c < d->ncols; c++) {
			int w;

			if (d->cols[c].flags & COL_DETAIL)
				continue;
			cell_format(&d->cols[c], table_cell(t, order[r], c), buf, sizeof(buf));
			w = f->cells[i] = text_fit(buf, TEXT_CELL_MAX / 4, u8, fit, sizeof(fit));
			f->off[i] = f->len;
			f->bytes[i] = strlen(fit);
			if (!pool_add(f, fit, f->bytes[i]))
				return false;
			i++;
			if (d->cols[c].flags & COL_LONG && w > LONG_COL_WIDTH)
				w = LONG_COL_WIDTH;
			if (w > width[c])
				width[c] = w;
		}
	return true;
}

static void fitted_free(struct fitted *f)
{
	free(f->pool);
	free(f->off);
	free(f->bytes);
	free(f->cells);
}

/* Its title, and where a replay shows the recorder's own figures (self.*), that they are the recorder's. */
static void print_title(FILE *out, const struct table_desc *d, bool replay)
{
	if (replay && !strncmp(d->name, "self.", 5))
		fprintf(out, "\n%s: the recorder's figures, not this replay's (%s)\n", d->title, d->name);
	else
		fprintf(out, "\n%s (%s)\n", d->title, d->name);
}

/*
 * Row r's long drill-down texts (a stack's frames: COL_DETAIL and COL_LONG), each on a line of its own
 * under the row, indented, whole: the row's point, though no column has room for it.
 */
static void print_long_details(FILE *out, const struct table *t, size_t r, bool u8)
{
	const struct table_desc *d = t->desc;
	static char buf[TEXT_CELL_MAX], fit[TEXT_CELL_MAX];

	for (unsigned int c = 0; c < d->ncols; c++) {
		if ((d->cols[c].flags & (COL_DETAIL | COL_LONG)) != (COL_DETAIL | COL_LONG))
			continue;
		cell_format(&d->cols[c], table_cell(t, r, c), buf, sizeof(buf));
		if (!buf[0])
			continue;
		text_fit(buf, TEXT_CELL_MAX / 4, u8, fit, sizeof(fit));
		fprintf(out, "    %s %s\n", d->cols[c].title, fit);
	}
}

/* The titles and the rows of a table with rows, from its fitted cells: text left, numbers right. */
static void print_rows(FILE *out, const struct table *t, const size_t *order, const int *width, const struct fitted *f,
		       bool u8)
{
	const struct table_desc *d = t->desc;
	size_t i = 0;

	for (unsigned int c = 0, x = 0; c < d->ncols; c++)
		if (!(d->cols[c].flags & COL_DETAIL)) {
			if (x++)
				fputc_unlocked(' ', out);
			text_print_cell(out, d->cols[c].title, width[c], d->cols[c].type == COL_STR, u8);
		}
	fputc_unlocked('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (unsigned int c = 0, x = 0; c < d->ncols; c++) {
			if (d->cols[c].flags & COL_DETAIL)
				continue;
			if (x++)
				fputc_unlocked(' ', out);
			text_put_fitted(out, f->pool + f->off[i], f->bytes[i], f->cells[i], width[c],
					d->cols[c].type == COL_STR);
			i++;
		}
		fputc_unlocked('\n', out);
		print_long_details(out, t, order[r], u8);
	}
}

/* Every collector table, its columns as on screen (JSON has the drill-down ones), in its default order. */
static void print_tables(FILE *out, const struct snapshot *s, const struct text_settings *ts)
{
	char empty[600];
	bool u8 = utf8();

	for (size_t i = 0; i < s->ntables; i++) {
		const struct table *t = s->tables[i];
		const struct table_desc *d = t->desc;
		struct fitted f = { 0 };
		unsigned int nshown = 0;
		size_t *order;
		int *width;

		if (!ts->programs && !strcmp(d->name, "self.programs"))
			continue;
		print_title(out, d, ts->empty.replay);
		if (!t->nrows) {
			fprintf(out, "  %s\n", table_empty_text(d, t, &ts->empty, empty, sizeof(empty)));
			continue;
		}
		for (unsigned int c = 0; c < d->ncols; c++)
			nshown += !(d->cols[c].flags & COL_DETAIL);
		order = calloc(t->nrows, sizeof(*order));
		width = calloc(d->ncols, sizeof(*width));
		if (order && width &&
		    (table_sort(t, d->sort_col, false, order), fit_cells(t, order, nshown, u8, width, &f)))
			print_rows(out, t, order, width, &f, u8);
		else
			fputs("  (not printed: out of memory)\n", out);
		fitted_free(&f);
		free(width);
		free(order);
	}
}

void snapshot_print_text(FILE *out, const struct snapshot *s, const struct text_settings *ts)
{
	char when[32];
	struct tm tm;

	flockfile(out); /* once for the snapshot, not per character (text_print_cell writes unlocked) */
	if (!localtime_r(&s->wall.tv_sec, &tm) || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(when, sizeof(when), "-"); /* a time out of range: never an unset struct tm */
	fprintf(out, "gputop-bpf snapshot %llu  %s  ", (unsigned long long)s->seq, when);
	safe(out, s->hostname);
	fputs("  kernel ", out);
	safe(out, s->kernel);
	fprintf(out, "  interval %.2fs", s->interval_s);
	if (ts->empty.pid_filter)
		fprintf(out, "  -p %u: its rows only, in tables with a PID", ts->empty.pid_filter);
	fputc('\n', out);
	print_collectors(out, s);
	for (size_t i = 0; i < s->ndevices; i++) {
		fputs("  device ", out);
		safe(out, s->devices[i].name);
		fputs(": ", out);
		safe(out, s->devices[i].driver[0] ? s->devices[i].driver : "-");
		fputc(' ', out);
		safe(out, s->devices[i].bus_id);
		fputc('\n', out);
	}
	print_tables(out, s, ts);
	fputc('\n', out);
	funlockfile(out);
}

void collectors_print_list(FILE *out, const struct collector_status *cs, size_t n)
{
	flockfile(out);
	for (size_t i = 0; i < n; i++) {
		const struct collector_status *c = &cs[i];

		fprintf(out, "%s: %s - %s\n", c->info->name, collector_state_name(c->info->state),
			c->info->description);
		if (c->detail[0]) { /* it may name files others put there (a container's libcuda) */
			fputs("  detail: ", out);
			safe(out, c->detail);
			fputc('\n', out);
		}
		if (c->info->reason[0])
			fprintf(out, "  reason: %s\n", c->info->reason);
		if (c->info->fix[0])
			fprintf(out, "  fix:    %s\n", c->info->fix);
		for (unsigned int t = 0; t < c->info->ntracepoints; t++) {
			const struct tracepoint_status *tp = &c->info->tracepoints[t];

			fprintf(out, "  %-9s %s:%s%s%s\n", tracepoint_state_name(tp->state), tp->group,
				tp->event, tp->note[0] ? "  - " : "", tp->note);
		}
	}
	funlockfile(out);
}
