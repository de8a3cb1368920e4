// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The main screen: header, devices, rings, side panes, processes, status and key bar. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "core/privileges.h"
#include "core/version.h"
#include "model/histories.h"
#include "format/cell_format.h"
#include "format/cell_text.h"
#include "tui/draw.h"
#include "tui/overview_fit.h"
#include "tui/sparkline.h"


/* " | 2 Xid errors, last Xid 79 on 0000:3b:00.0": NVIDIA's driver reported GPU errors. */
static bool xid_alert(const struct snapshot *s, char *buf, size_t size)
{
	const struct table *t = snapshot_table(s, "nvidia.xids");
	double last_seq = 0;
	size_t last = 0;

	if (!t || !t->nrows)
		return false;
	for (size_t i = 0; i < t->nrows; i++)
		if (table_num(t, i, "seq") > last_seq) {
			last_seq = table_num(t, i, "seq");
			last = i;
		}
	snprintf(buf, size, " | %.0f Xid error%s, last Xid %.0f on %.20s (4: NVIDIA)", last_seq,
		 last_seq == 1 ? "" : "s", table_num(t, last, "xid"), table_str(t, last, "dev"));
	return true;
}

/*
 * " | self 0.4% CPU 3.4MiB, BPF 0.1%, unwind 0.05%": what the monitor costs, from the self collector's table;
 * in a replay the recorder's ("recorder 1.0% CPU"), not the replay's.
 */
static bool self_cost(const struct snapshot *s, bool replay, char *buf, size_t size)
{
	const char *whose = replay ? "recorder" : "self";
	const struct table *t = snapshot_table(s, "self.process");
	double cpu, rss, bpf, unwind;
	char mem[32] = "";

	if (!t || !t->nrows)
		return false;
	cpu = table_num(t, 0, "cpu_pct");
	rss = table_num(t, 0, "rss_bytes");
	bpf = table_num(t, 0, "bpf_cpu_pct");
	unwind = table_num(t, 0, "unwind_cpu_pct");
	if (!isnan(rss))
		snprintf(mem, sizeof(mem), " RSS %.1fMiB", rss / 1048576.0);
	if (isnan(cpu))
		snprintf(buf, size, " | %s%s", whose, mem);
	else
		snprintf(buf, size, " | %s %.1f%% CPU%s", whose, cpu, mem);
	if (!isnan(bpf))
		snprintf(buf + strlen(buf), size - strlen(buf), ", BPF %.2f%%", bpf);
	if (unwind > 0) /* --stacks' DWARF unwinding, while there is some */
		snprintf(buf + strlen(buf), size - strlen(buf), ", unwind %.2f%%", unwind);
	return true;
}

/* The keys of the tabs from key first to the last left out: " 8", " 5-8". */
static void left_out_keys(int first, char *out, size_t size)
{
	if (first == pane_screen_count())
		snprintf(out, size, " %d", first);
	else
		snprintf(out, size, " %d-%d", first, pane_screen_count());
}

/* The cells all the tabs take, padded (" 1 Overview ", a space apart) or not ("1 Overview", two apart). */
static int tabs_width(bool padded)
{
	int x = 1;

	for (int i = 0; i < pane_screen_count(); i++) {
		char tab[48];

		x += snprintf(tab, sizeof(tab), padded ? " %d %s " : "%d %s", i + 1, pane_for_screen(i)->title) +
		     (padded ? 1 : 2);
	}
	return x - (padded ? 1 : 2);
}

/* The header's second line: the panes' tabs, then the filter and the theme, each whole. */
static void draw_tabs(struct view *v, int y, int w)
{
	char f[96] = "";
	int line = w, x = 1;
	bool padded;

	/* a filter is said whatever the tabs: they keep its room, and its text keeps 20 cells for them */
	if (v->filter[0])
		snprintf(f, sizeof(f), "  filter: %s", v->filter);
	w = (int)strlen(f) + 20 <= line ? line - (int)strlen(f) : line;
	padded = tabs_width(true) <= w || tabs_width(false) > w; /* all of them, unpadded, where that fits */

	fill(y, 0, line, ROLE_NORMAL);
	memset(v->tab_w, 0, sizeof(v->tab_w));
	for (int i = 0; i < pane_screen_count(); i++) { /* each tab whole: "5 Displa" names no pane */
		char tab[48], more[16];
		int left = pane_screen_count() - i - 1, tab_w;

		tab_w = snprintf(tab, sizeof(tab), padded ? " %d %s " : "%d %s", i + 1, pane_for_screen(i)->title);
		left_out_keys(i + 2, more, sizeof(more));
		/* the selected tab where it fits, even with no room for the keys after it */
		if (x + tab_w + (left ? (int)strlen(more) : 0) > w && !(i == v->screen && x + tab_w <= w)) {
			left_out_keys(i + 1, more, sizeof(more));
			x += put_whole(y, x, w - x, ROLE_DIM, more); /* the keys of those left out */
			break;
		}
		v->tab_x[i] = x;
		v->tab_w[i] = put_whole(y, x, w - x, i == v->screen ? ROLE_SELECTED : ROLE_LABEL, tab);
		x += v->tab_w[i] + (padded ? 1 : 2);
	}
	/* the filter, then the theme, only whole: a part cut mid-word reads as something else */
	if (f[0])
		x += put_whole(y, x, line - x, ROLE_WARNING, f);
	if (x + 8 + (int)strlen(v->theme.name) <= line)
		putf(y, x, line - x, ROLE_DIM, "  theme %s", v->theme.name);
}

/* " | snapshot 12/60": the snapshot's place in the recording (its count when the file could be counted). */
static void replay_place(const struct view *v, const struct snapshot *s, char *out, size_t size)
{
	uint64_t total = v->feed->ops->total ? v->feed->ops->total(v->feed->impl) : 0;

	if (total)
		snprintf(out, size, " | snapshot %llu/%llu", (unsigned long long)s->seq, (unsigned long long)total);
	else
		snprintf(out, size, " | snapshot %llu", (unsigned long long)s->seq);
}

/* The header's account of the collectors: how many attached, missing, needing root; what was lost, the most where. */
struct header_tally {
	unsigned int attached, missing, need_root;
	uint64_t drops;
	int kinds; /* kinds of loss with a count */
	char lost[96], lost_in[32]; /* the largest loss: "collector kind", and its collector alone */
};

/* Which of the header's parts have their own colour or a shorter form (-1: none). */
struct header_marks {
	int xid, warn, lostat, paceat, pidat, placeat;
};

#define HEADER_PARTS 14
#define HEADER_PART_MAX 320

static void tally_collectors(const struct snapshot *s, struct header_tally *h)
{
	uint64_t most = 0;

	for (size_t i = 0; s && i < s->ncollectors; i++) {
		h->attached += s->collectors[i].info->state == COLLECTOR_ATTACHED;
		h->missing += s->collectors[i].info->state != COLLECTOR_ATTACHED;
		h->need_root += !strcmp(s->collectors[i].info->reason, PRIVILEGES_BPF_REASON);
		for (unsigned int d = 0; d < s->collectors[i].ndrops; d++) {
			const struct drop_count *dc = &s->collectors[i].drops[d];

			h->drops += dc->count;
			h->kinds += dc->count > 0;
			if (dc->count > most) { /* the largest loss, by collector and kind */
				most = dc->count;
				snprintf(h->lost, sizeof(h->lost), "%s %s", s->collectors[i].info->name, dc->name);
				snprintf(h->lost_in, sizeof(h->lost_in), "%s", s->collectors[i].info->name);
			}
		}
	}
}

/* The header's parts in order of need, marked; how many. */
static int header_parts(const struct view *v, const struct header_tally *h, char parts[][HEADER_PART_MAX],
			struct header_marks *m)
{
	const struct snapshot *s = v->snap;
	char up[32] = "-", state[300];
	int n = 0;

	if (s) {
		unsigned long t = (unsigned long)s->uptime_s;

		snprintf(up, sizeof(up), "%02lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	}
	if (v->feed->replay) /* the recording's file name: its folders take room the numbers need */
		snprintf(state, sizeof(state), "%s %s", v->ended ? "ENDED" : v->paused ? "PAUSED" : "REPLAY",
			 strrchr(v->feed->name, '/') ? strrchr(v->feed->name, '/') + 1 : v->feed->name);
	else
		snprintf(state, sizeof(state), "%s", v->paused ? "PAUSED" : "LIVE");
	snprintf(parts[n++], HEADER_PART_MAX, " gputop-bpf %s", GPUTOP_VERSION);
	snprintf(parts[n++], HEADER_PART_MAX, " | %s", state);
	if (v->record) /* --record: the file written, by its name (its folders take room the numbers need) */
		snprintf(parts[n++], HEADER_PART_MAX, " | REC %s",
			 strrchr(v->record, '/') ? strrchr(v->record, '/') + 1 : v->record);
	if (v->feed->replay && s) { /* where the replay is: the snapshot's place in the recording */
		replay_place(v, s, parts[n], HEADER_PART_MAX);
		m->placeat = n++;
	}
	if (v->pid_filter) { /* tables with a PID show its rows only: said before anything else is */
		snprintf(parts[n], HEADER_PART_MAX, " | -p %u: its rows only", v->pid_filter);
		m->pidat = n++;
	}
	if (h->need_root) { /* an unprivileged start: what root adds, once */
		snprintf(parts[n], HEADER_PART_MAX, " | no privilege: %u collectors need root (sudo)", h->need_root);
		m->warn = n++;
	}
	if (xid_alert(s, parts[n], HEADER_PART_MAX))
		m->xid = n++;
	if (h->drops) { /* what was lost and where: the largest count's collector and kind */
		snprintf(parts[n], HEADER_PART_MAX, " | %llu %s lost (%s%s)", (unsigned long long)h->drops,
			 h->drops == 1 ? "event" : "events", h->kinds > 1 ? "most: " : "", h->lost);
		m->lostat = n++;
	}
	if (!v->feed->replay)
		snprintf(parts[n++], HEADER_PART_MAX, " | every %gs", v->prefs.delay_s);
	else if (v->replay_paced && s) {
		snprintf(parts[n], HEADER_PART_MAX, " | every %gs, recorded %.2gs", v->prefs.delay_s, s->interval_s);
		m->paceat = n++;
	} else if (s)
		snprintf(parts[n++], HEADER_PART_MAX, " | recorded every %.2gs", s->interval_s);
	if (self_cost(s, v->feed->replay, parts[n], HEADER_PART_MAX))
		n++;
	snprintf(parts[n++], HEADER_PART_MAX, " | %s (%s)", s ? s->hostname : "-", s ? s->kernel : "-");
	snprintf(parts[n++], HEADER_PART_MAX, " | up %s", up);
	snprintf(parts[n++], HEADER_PART_MAX, " | collectors %u attached, %u missing", h->attached, h->missing);
	return n;
}

/* The loss's part by its collector only: " | N events lost (calls)". */
static void lost_in_form(const struct header_tally *h, char *part)
{
	snprintf(part, HEADER_PART_MAX, " | %llu %s lost (%s%s)", (unsigned long long)h->drops,
		 h->drops == 1 ? "event" : "events", h->kinds > 1 ? "most: " : "", h->lost_in);
}

/* Part i at x on line y, or its shorter form where it has one; the cells it took (0: left out, never cut). */
static int put_header_part(const struct view *v, struct rect r, int x, const struct header_tally *h,
			   char parts[][HEADER_PART_MAX], int i, const struct header_marks *m)
{
	int w = put_whole(r.y, x, r.w - x,
			  i == m->xid			 ? ROLE_ERROR :
			  i == m->warn || i == m->lostat ? ROLE_WARNING :
							   ROLE_HEADER,
			  parts[i]);

	if (!w && i == m->lostat) { /* a loss is said, by its collector or its count: the man page says where */
		lost_in_form(h, parts[i]);
		w = put_whole(r.y, x, r.w - x, ROLE_WARNING, parts[i]);
	}
	if (!w && i == m->lostat) {
		snprintf(parts[i], HEADER_PART_MAX, " | %llu %s lost", (unsigned long long)h->drops,
			 h->drops == 1 ? "event" : "events");
		w = put_whole(r.y, x, r.w - x, ROLE_WARNING, parts[i]);
	}
	if (!w && i == m->pidat) { /* the option alone, where its meaning has no room */
		snprintf(parts[i], HEADER_PART_MAX, " | -p %u", v->pid_filter);
		w = put_whole(r.y, x, r.w - x, ROLE_HEADER, parts[i]);
	}
	if (!w && i == m->paceat) { /* the pace + and - set, if not the recording's beside it */
		snprintf(parts[i], HEADER_PART_MAX, " | every %gs", v->prefs.delay_s);
		w = put_whole(r.y, x, r.w - x, ROLE_HEADER, parts[i]);
	}
	return w;
}

/* The cells parts[0..n) take. */
static int parts_width(char parts[][HEADER_PART_MAX], int n, bool utf8)
{
	char fit[HEADER_PART_MAX * 2];
	int w = 0;

	for (int i = 0; i < n; i++)
		w += text_fit(parts[i], 1 << 20, utf8, fit, sizeof(fit));
	return w;
}

void draw_header(struct view *v, struct rect r)
{
	struct header_tally h = { 0 };
	struct header_marks m = { -1, -1, -1, -1, -1, -1 };
	char parts[HEADER_PARTS][HEADER_PART_MAX]; /* in order of need; one that does not fit whole is left out */
	int n, x = 0;

	tally_collectors(v->snap, &h);
	n = header_parts(v, &h, parts, &m);
	/* where the loss and the refresh after it have no room: the loss by its collector, then no version */
	if (m.lostat >= 0 && m.lostat + 1 < n && parts_width(parts, m.lostat + 2, v->utf8) > r.w)
		lost_in_form(&h, parts[m.lostat]);
	/* the version gives way to a loss, and to where a replay is */
	if ((m.lostat >= 0 && parts_width(parts, m.lostat + 1, v->utf8) > r.w) ||
	    (m.placeat >= 0 && parts_width(parts, m.placeat + 1, v->utf8) > r.w))
		snprintf(parts[0], HEADER_PART_MAX, " gputop-bpf");
	fill(r.y, 0, r.w, ROLE_HEADER);
	for (int i = 0; i < n; i++)
		x += put_header_part(v, r, x, &h, parts, i, &m);
	if (r.h >= 2)
		draw_tabs(v, r.y + 1, r.w);
}

/*
 * Which of the pane's summary columns fit in w cells (bit k: summary_cols[k]): the first ones of
 * those with a value in t (a column no source of this machine fills gives way to the next).
 */
static unsigned int summary_fit(int w, const struct table *t, const struct pane_decl *p)
{
	const struct table_desc *d = t->desc;
	unsigned int shown = 0;
	int need = 0;

	for (int k = 0; k < PANE_MAX_SUMMARY && p->summary_cols[k]; k++) {
		int col = table_col(d, p->summary_cols[k]);

		if (col < 0 || (!(d->cols[col].flags & COL_KEY) && !table_col_known(t, (unsigned int)col)))
			continue;
		need += d->cols[col].width + (need ? 1 : 0);
		if (need > w)
			break;
		shown |= 1u << k;
	}
	return shown;
}

/* One row, where the pane has a single line: its columns as "TITLE value", each whole. */
/* Column k of row 0 as a pair for summary_pairs into part ("" when unknown); a name alone. */
static void summary_pair(struct view *v, const struct table *t, const char *key, bool first, char *part,
			 size_t size)
{
	const struct table_desc *d = t->desc;
	int col = table_col(d, key);
	char raw[TABLE_STR_MAX], fit[TABLE_STR_MAX * 2], *at = fit, *end;
	const struct cell *c;

	part[0] = '\0';
	if (col < 0 || !(c = table_cell(t, 0, (unsigned int)col)) || !c->known)
		return;
	cell_format(&d->cols[col], c, raw, sizeof(raw));
	text_fit(raw, d->cols[col].width, v->utf8, fit, sizeof(fit));
	while (*at == ' ')
		at++;
	for (end = at + strlen(at); end > at && end[-1] == ' ';)
		*--end = '\0';
	if (d->cols[col].type == COL_STR && (d->cols[col].flags & COL_KEY)) /* a name says what it is */
		snprintf(part, size, "%s%s", first ? "" : "  ", at);
	else
		snprintf(part, size, "%s%s %s", first ? "" : "  ", d->cols[col].title, at);
}

/*
 * The first row on one line: its first column, its other names (a region's), then its
 * numbers, then its other texts, each "TITLE value" (a name alone) and whole or left
 * out, unknown ones left out; "+N more" at the right when the table has more rows.
 */
static void summary_pairs(struct view *v, struct rect in, const struct table *t, const struct pane_decl *p)
{
	int x = in.x, right = in.x + in.w;
	char more[32], part[TABLE_STR_MAX * 2 + 40];

	if (t->nrows > 1) {
		snprintf(more, sizeof(more), "+%zu more", t->nrows - 1);
		right -= put_whole(in.y, right - (int)strlen(more), (int)strlen(more), ROLE_DIM, more) + 1;
	}
	for (int pass = 0; pass < 4; pass++)
		for (int k = 0; k < PANE_MAX_SUMMARY && p->summary_cols[k]; k++) {
			int col = table_col(t->desc, p->summary_cols[k]);
			bool text = col >= 0 && t->desc->cols[col].type == COL_STR;
			bool name = text && (t->desc->cols[col].flags & COL_KEY);

			if ((pass == 0) != (k == 0) || (pass == 1 && !name) || (pass == 2 && text) ||
			    (pass == 3 && (!text || name)))
				continue;
			summary_pair(v, t, p->summary_cols[k], x == in.x, part, sizeof(part));
			if (part[0])
				x += put_whole(in.y, x, right - x, ROLE_NORMAL, part);
		}
}

/* The summary's title row: each column's title where its cells go, then "<title> history"; 1 row. */
static int summary_header(struct rect in, const struct table *t, const struct pane_decl *p)
{
	const struct table_desc *d = t->desc;
	const char *spark = NULL, *scale = "";
	unsigned int shown = summary_fit(in.w, t, p);
	int x = in.x;

	fill(in.y, in.x, in.w, ROLE_HEADER);
	for (int k = 0; k < PANE_MAX_SUMMARY && p->summary_cols[k]; k++) {
		int col = table_col(d, p->summary_cols[k]), w;

		if (col < 0 || !(shown & (1u << k)))
			continue;
		w = d->cols[col].width;
		/* the space after it only where the box has room: the last column may end at its border */
		putf(in.y, x, in.x + in.w - x < w + 1 ? in.x + in.w - x : w + 1, ROLE_HEADER, "%*s ",
		     d->cols[col].type == COL_STR ? -w : w, d->cols[col].title);
		x += w + 1;
		if (!spark && (d->cols[col].flags & COL_HISTORY)) {
			spark = d->cols[col].title;
			scale = spark_max(&d->cols[col]) > 0 ? " 0-100" : " (row max)";
		}
	}
	if (spark) { /* the scale where it fits, then the title alone, then "history" alone over its cells */
		char what[64];

		snprintf(what, sizeof(what), "%s history%s", spark, scale);
		if (!put_whole(in.y, x, in.x + in.w - x, ROLE_HEADER, what) && in.x + in.w - x >= (int)strlen(spark) + 8)
			putf(in.y, x, in.x + in.w - x, ROLE_HEADER, "%s history", spark);
		else if (in.x + in.w - x < (int)strlen(spark) + 8 && in.x + in.w - x >= 7)
			put_whole(in.y, in.x + in.w - 7, 7, ROLE_HEADER, "history");
	}
	return 1;
}

/* One summary row: its columns (those shown), then its history as a sparkline at the right edge. */
static void summary_row(struct view *v, int y, struct rect in, const struct table *t, size_t r,
			const struct pane_decl *p, unsigned int shown)
{
	const struct table_desc *d = t->desc;
	const struct history *hist = NULL;
	double top = 0;
	int x = in.x;

	for (int k = 0; k < PANE_MAX_SUMMARY && p->summary_cols[k]; k++) {
		int col = table_col(d, p->summary_cols[k]);
		char raw[TABLE_STR_MAX], fit[TABLE_STR_MAX * 2];
		int w;

		if (col < 0 || !(shown & (1u << k)))
			continue;
		w = d->cols[col].width;
		cell_format(&d->cols[col], table_cell(t, r, (unsigned int)col), raw, sizeof(raw));
		text_fit(raw, w, v->utf8, fit, sizeof(fit));
		putf(y, x, in.x + in.w - x < w + 1 ? in.x + in.w - x : w + 1, ROLE_NORMAL, "%*s ",
		     d->cols[col].type == COL_STR ? -w : w, fit);
		x += w + 1;
		if (!hist && (d->cols[col].flags & COL_HISTORY)) {
			hist = histories_get(v->histories, t, r, (unsigned int)col);
			top = spark_max(&d->cols[col]);
		}
	}
	if (hist && in.x + in.w - x >= 4) {
		double vals[HISTORY_LEN];
		char spark[HISTORY_LEN * 4];
		size_t n = history_read(hist, vals, HISTORY_LEN);
		int cells =
			(int)sparkline_render(vals, n, (size_t)(in.x + in.w - x), top, v->utf8, spark, sizeof(spark));

		put(y, in.x + in.w - cells, cells, ROLE_SPARK, spark); /* the newest at the right edge */
	}
}

/*
 * The summary's rows in the box in, from row y on: those that fit, the last line saying how many
 * more where not all do; rows quiet since the start (0 in the pane's summary_quiet_col) are not
 * listed but counted on that line ("+5 lines never fired").
 */
static void summary_rows(struct view *v, int y, struct rect in, const struct table *t, const struct pane_decl *p)
{
	int qc = p->summary_quiet_col ? table_col(t->desc, p->summary_quiet_col) : -1, end = in.y + in.h;
	unsigned int shown = summary_fit(in.w, t, p);
	size_t listed = 0, quiet, busy = 0;

	for (size_t r = 0; r < t->nrows; r++)
		busy += qc < 0 || table_num_at(t, r, qc) > 0;
	quiet = t->nrows - busy;
	for (size_t r = 0; r < t->nrows && y < end; r++) {
		if (qc >= 0 && !(table_num_at(t, r, qc) > 0)) /* 0, or unknown: quiet */
			continue;
		if (y == end - 1 && listed + 1 < busy + (quiet ? 1 : 0))
			break; /* the last row says what is left */
		summary_row(v, y++, in, t, r, p, shown);
		listed++;
	}
	if (y >= end)
		return;
	if (listed < busy && quiet)
		putf(y, in.x, in.w, ROLE_DIM, "+%zu more, %zu %s", busy - listed, quiet, p->summary_quiet_text);
	else if (listed < busy)
		putf(y, in.x, in.w, ROLE_DIM, "+%zu more", busy - listed);
	else if (quiet)
		putf(y, in.x, in.w, ROLE_DIM, "+%zu %s", quiet, p->summary_quiet_text);
}

/*
 * The text a summary shows instead of rows, into buf: its collector's state where it is not attached
 * (ROLE_WARNING), what its empty table says (ROLE_DIM); false where it has rows to show.
 */
static bool summary_text(const struct view *v, const struct pane_decl *p, char *buf, size_t size, enum role *role)
{
	const struct table *t = snapshot_table(v->snap, p->summary_table);
	const struct table_desc *d = table_desc_find(p->summary_table);
	const struct collector_status *c = snapshot_collector(v->snap, p->collector);
	char empty[300];

	if (c && c->info->state != COLLECTOR_ATTACHED) {
		snprintf(buf, size, "%s unavailable: %s", c->info->name, c->info->reason);
		*role = ROLE_WARNING;
		return true;
	}
	if (t && t->nrows)
		return false;
	snprintf(buf, size, "%s%s%s%s%s%s", view_empty_text(v, d, t, NULL, empty, sizeof(empty)),
		 c && c->detail[0] ? " [" : "", c ? c->info->name : "", c && c->detail[0] ? ": " : "",
		 c && c->detail[0] ? c->detail : "", c && c->detail[0] ? "]" : "");
	*role = ROLE_DIM;
	return true;
}

/* The rows a summary uses in w columns: its text's lines, or the titles, the rows listed and the line after them. */
static int summary_need(const struct view *v, const struct pane_decl *p, int w)
{
	const struct table *t = snapshot_table(v->snap, p->summary_table);
	int qc = p->summary_quiet_col && t ? table_col(t->desc, p->summary_quiet_col) : -1;
	size_t busy = 0;
	char text[400];
	enum role role;

	if (!table_desc_find(p->summary_table))
		return 0;
	if (summary_text(v, p, text, sizeof(text), &role))
		return wrapped_rows(text, w);
	for (size_t r = 0; r < t->nrows; r++)
		busy += qc < 0 || table_num_at(t, r, qc) > 0;
	return 1 + (int)busy + (busy < t->nrows);
}

static void draw_summary(struct view *v, struct rect in, const struct pane_decl *p)
{
	const struct table *t = snapshot_table(v->snap, p->summary_table);
	const struct table_desc *d = table_desc_find(p->summary_table);
	const struct collector_status *c = snapshot_collector(v->snap, p->collector);
	char text[400];
	enum role role;

	if (!d)
		return;
	if (summary_text(v, p, text, sizeof(text), &role)) {
		if (!put_wrapped(in, role, text) && role == ROLE_WARNING) { /* no room for the reason: the state */
			snprintf(text, sizeof(text), "%s unavailable", c->info->name);
			put_whole(in.y, in.x, in.w, ROLE_WARNING, text);
		}
		return;
	}
	if (in.h < 2) { /* no room for the titles over the values: beside them */
		summary_pairs(v, in, t, p);
		return;
	}
	/* the columns' titles (their units) over them, and the sparkline's; the rows */
	summary_rows(v, in.y + summary_header(in, t, p), in, t, p);
}

/* NVML's memory, where no DRM source is: per GPU, then per process where NVML lists any. */
static const struct pane_decl nvml_gpus_side = {
	.collector = "nvidia",
	.screen = -1,
	.side = SIDE_NONE,
	.summary_table = "nvidia.gpus",
	.summary_cols = { "gpu", "mem_used_bytes", "mem_total_bytes", "mem_used_pct" },
};
static const struct pane_decl nvml_procs_side = {
	.collector = "nvidia",
	.screen = -1,
	.side = SIDE_NONE,
	.summary_table = "nvidia.gpu_processes",
	.summary_cols = { "pid", "gpu", "mem_bytes", "comm" },
};

static void draw_nvml_memory(struct view *v, struct rect in)
{
	const struct table *g = snapshot_table(v->snap, "nvidia.gpus");
	const struct table *p = snapshot_table(v->snap, "nvidia.gpu_processes");
	int gh = g && (int)g->nrows + 1 < in.h ? (int)g->nrows + 1 : in.h;

	draw_summary(v, (struct rect){ in.y, in.x, gh, in.w }, &nvml_gpus_side);
	if (p && p->nrows && in.h - gh >= 3) /* a blank line, the titles, a row at least */
		draw_summary(v, (struct rect){ in.y + gh + 1, in.x, in.h - gh - 1, in.w }, &nvml_procs_side);
}

/*
 * The rows side pane which (SIDE_*) uses in a frame w columns wide, the frame included (0: as many as it gets),
 * into *need; into *least those it uses when it cannot have them all (0: as many as it gets): NVML's memory
 * per GPU without its processes (those need a blank line, their titles and a row more).
 */
void side_rows_need(const struct view *v, int which, int w, int *need, int *least)
{
	const struct pane_decl *p = pane_for_side(which);
	const struct table *np = snapshot_table(v->snap, "nvidia.gpu_processes");
	int n;

	*need = *least = 0;
	if (w <= 2)
		return;
	if (which == SIDE_MEMORY && overview_nvml_memory(v)) {
		*need = *least = 2 + summary_need(v, &nvml_gpus_side, w - 2);
		if (np && np->nrows)
			*need += 1 + summary_need(v, &nvml_procs_side, w - 2);
		return;
	}
	if (p && (n = summary_need(v, p, w - 2)))
		*need = 2 + n;
}

static void draw_side(struct view *v, int which, struct rect r)
{
	bool nvml = which == SIDE_MEMORY && overview_nvml_memory(v);
	struct rect in = frame(r, nvml ? "MEMORY (NVML)" : side_title(which), v->utf8);

	if (!in.h)
		return;
	for (int i = 0; i < in.h; i++)
		fill(in.y + i, in.x, in.w, ROLE_NORMAL);
	if (nvml) {
		draw_nvml_memory(v, in);
		return;
	}
	if (!pane_for_side(which)) {
		put_wrapped(in, ROLE_DIM,
			    "VRAM and GTT totals and allocation rates will show here: they need a memory "
			    "collector (amdgpu, i915, xe tracepoints), which this version does not have.");
		return;
	}
	if (pane_for_side(which))
		draw_summary(v, in, pane_for_side(which));
}

void draw_main(struct view *v)
{
	struct layout *l = &v->layout;

	if (l->devices.h)
		draw_devices(v, l->devices);
	if (l->absent.h)
		overview_fit_draw(v, &v->fit, l->absent);
	/* The main screen's declared tables: the first in the upper area, the second below. */
	if (l->rings.h)
		pane_table_draw(v, pane_for_screen(SCREEN_MAIN), 0,
				(struct rect){ l->rings.y, l->rings.x + 1, l->rings.h, l->rings.w - 1 });
	if (l->procs.h)
		pane_table_draw(v, pane_for_screen(SCREEN_MAIN), 1,
				(struct rect){ l->procs.y, l->procs.x + 1, l->procs.h, l->procs.w - 1 });
	if (l->history.h)
		draw_gpu_history(v, l->history);
	for (int i = 0; i < 3; i++)
		if (l->side[i].h)
			draw_side(v, i, l->side[i]);
}

const struct keybar_item keybar_items[] = {
	{ "F1", "Help", KEY_F(1), false },	{ "/", "Filter", '/', false },
	{ "F6", "Sort", KEY_F(6), false },	{ "Spc", "Pause", ' ', false },
	{ "+-", "Delay", '+', false },		{ "F9", "Kill", KEY_F(9), true },
	{ "Tab", "Panes", '\t', false },	{ "Enter", "Open", '\n', false },
	{ "W", "Save", 'W', false },		{ "F10", "Quit", KEY_F(10), false },
};
const size_t keybar_count = sizeof(keybar_items) / sizeof(keybar_items[0]);

bool keybar_shown(const struct view *v, size_t i)
{
	return !(keybar_items[i].live_only && v->feed->replay);
}

/*
 * A message on the status line: whole; where longer, on it and the key bar's row (true: that row
 * taken); where longer still, cut at a word with an ellipsis: never mid-word.
 */
static bool status_text(const struct layout *l, enum role r, const char *text)
{
	int w = l->status.w - 1;

	if (wrapped_rows(text, w) == 2 && l->keybar.y == l->status.y + 1) {
		fill(l->keybar.y, 0, l->keybar.w, ROLE_NORMAL);
		put_wrapped((struct rect){ l->status.y, 1, 2, w }, r, text);
		return true;
	}
	put_cut(l->status.y, 1, w, r, text);
	return false;
}

void draw_bottom(struct view *v)
{
	struct layout *l = &v->layout;
	int x = 0;

	fill(l->status.y, 0, l->status.w, ROLE_NORMAL);
	if (v->editing_filter) { /* what is typed always shows: the prompt shortens first */
		static const char *const prompts[] = { "Filter (name, device, comm or PID; Enter applies, Esc clears): ",
						       "Filter (Enter applies, Esc clears): ", "Filter: ", "" };
		size_t len = strlen(v->edit), room = l->status.w > 3 ? (size_t)l->status.w - 3 : 0;
		bool shown = false;
		char line[320];

		for (size_t i = 0; i < sizeof(prompts) / sizeof(prompts[0]) && !shown; i++) {
			snprintf(line, sizeof(line), "%s%s_", prompts[i], v->edit);
			shown = put_whole(l->status.y, 1, l->status.w - 1, ROLE_VALUE, line) > 0;
		}
		if (!shown) /* typed past the line: its end */
			putf(l->status.y, 1, l->status.w - 1, ROLE_VALUE, "%s_",
			     v->edit + (len > room ? len - room : 0));
	} else if (v->message[0] || v->capturing) {
		if (status_text(l,
				!v->message[0]	 ? ROLE_WARNING :
				v->message_error ? ROLE_ERROR :
						   ROLE_LABEL,
				v->message[0] ? v->message : v->capture_line))
			return; /* the key bar's row taken */
	} else if (v->ended) /* lasting: paused or not, nothing comes after the end */
		put(l->status.y, 1, l->status.w - 1, ROLE_LABEL, "end of the recording: q quits");
	else if (v->paused)
		put(l->status.y, 1, l->status.w - 1, ROLE_WARNING,
		    v->feed->replay ? "Paused: space resumes, n steps one snapshot" :
				      "Paused: the data is frozen; space resumes, n takes one update");
	fill(l->keybar.y, 0, l->keybar.w, ROLE_KEYBAR);
	/* whole items only: "TabP" is no key */
	for (size_t i = 0; i < keybar_count; i++) {
		int need = (int)(strlen(keybar_items[i].key) + strlen(keybar_items[i].what));

		if (!keybar_shown(v, i))
			continue;
		if (x + need > l->keybar.w)
			break;
		x += put(l->keybar.y, x, l->keybar.w - x, ROLE_KEY, keybar_items[i].key);
		x += putf(l->keybar.y, x, l->keybar.w - x, ROLE_KEYBAR, "%s ", keybar_items[i].what);
	}
}
