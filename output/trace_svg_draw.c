// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The timeline drawn (trace_svg.h): rows in their tracks' tree, a time axis, boxes, ticks, lines. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include "core/svg.h"
#include "format/cell_format.h"
#include "output/trace_svg_model.h"

#define ROW 14 /* px of a row of slices */
#define COUNTER_ROW 30
#define HEADER_ROW 16 /* a parent with no events of its own */
#define TOP 58 /* px above the first row: the title and the axis */
#define CHAR_PX 6.6 /* an 11 px monospace character's advance */
#define INDENT 10 /* px per level of the tree */
#define LEVELS_MAX 8

struct pen {
	FILE *out;
	const struct tsvg *t;
	double y; /* the next row's top */
	unsigned int rows;
};

static bool visible(const struct tsvg *t, struct tsvg_track *k, unsigned int level)
{
	bool any = k->events > 0;

	k->level = level;
	for (size_t c = k->first_child; c; c = t->tracks[c - 1].next_sibling)
		any |= visible(t, &t->tracks[c - 1], level + 1);
	k->visible = any;
	return any;
}

static unsigned int slice_rows(const struct tsvg_track *k)
{
	unsigned int rows = 0;

	for (unsigned int d = 0; d < TRACE_SVG_DEPTH; d++)
		if (k->nruns[d])
			rows = d + 1;
	return rows ? rows : 1;
}

static double row_height(const struct tsvg_track *k)
{
	if (!k->events)
		return HEADER_ROW;
	return k->chas ? COUNTER_ROW : ROW * slice_rows(k);
}

static void label(struct pen *p, const struct tsvg_track *k, double h)
{
	unsigned int level = k->level < LEVELS_MAX ? k->level : LEVELS_MAX;
	double x = 4 + INDENT * level;
	char text[TSVG_NAME_MAX + 32];

	if (k->kind == TSVG_PROCESS)
		snprintf(text, sizeof(text), "%s pid %" PRId32, k->name[0] ? k->name : "?", k->pid);
	else if (k->kind == TSVG_THREAD)
		snprintf(text, sizeof(text), "%s tid %" PRId32, k->name[0] ? k->name : "?", k->tid);
	else
		snprintf(text, sizeof(text), "%s", k->name[0] ? k->name : "(no name)");
	fprintf(p->out, "<text x=\"%.0f\" y=\"%.1f\"%s>", x, p->y + h / 2 + 4,
		k->events ? "" : " font-weight=\"bold\"");
	svg_put_text(p->out, text, (size_t)((TSVG_LABEL - x - 6) / CHAR_PX));
	fputs("</text>\n", p->out);
}

static void slice_colour(uint32_t name, const struct tsvg *t, unsigned int rgb[3])
{
	uint32_t h = svg_name_hash(tsvg_name(t, name));

	if (name == TSVG_MIXED) {
		rgb[0] = rgb[1] = rgb[2] = 150;
		return;
	}
	rgb[0] = 70 + h % 90;
	rgb[1] = 120 + (h >> 8) % 90;
	rgb[2] = 170 + (h >> 16) % 80;
}

static void run_box(struct pen *p, const struct tsvg_run *r, double top)
{
	double x = TSVG_LABEL + r->x0, w = r->x1 - r->x0 < 0.8 ? 0.8 : r->x1 - r->x0;
	size_t fits = (size_t)((w - 4) / CHAR_PX);
	char dur[32];
	unsigned int rgb[3];

	slice_colour(r->name, p->t, rgb);
	fputs("<g><title>", p->out);
	svg_put_text(p->out, tsvg_name(p->t, r->name), TSVG_NAME_MAX);
	format_duration_ns((double)r->ns, dur, sizeof(dur));
	if (r->n > 1)
		fprintf(p->out, ": %" PRIu32 " slices, %s in all", r->n, dur);
	else
		fprintf(p->out, ": %s", dur);
	fprintf(p->out, "%s</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%u,%u,%u)\"%s/>",
		r->open ? " (not ended when the trace did)" : "", x, top + 1, w, ROW - 2, rgb[0], rgb[1], rgb[2],
		r->open ? " stroke=\"#c00\" stroke-dasharray=\"2,2\"" : "");
	if (fits >= 3) {
		fprintf(p->out, "<text x=\"%.1f\" y=\"%.1f\">", x + 2, top + ROW - 3);
		svg_put_text(p->out, tsvg_name(p->t, r->name), fits);
		fputs("</text>", p->out);
	}
	fputs("</g>\n", p->out);
}

static void ticks(struct pen *p, const struct tsvg_track *k, double h)
{
	for (int c = 0; c < TSVG_COLS; c++) {
		uint32_t h32 = svg_name_hash(tsvg_name(p->t, k->tick_name[c]));

		if (!k->ticks[c])
			continue;
		fputs("<g><title>", p->out);
		svg_put_text(p->out, tsvg_name(p->t, k->tick_name[c]), TSVG_NAME_MAX);
		fprintf(p->out, " x%" PRIu32 "</title><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"rgb(%u,%u,40)\" stroke-width=\"1\"/></g>\n",
			k->ticks[c], TSVG_LABEL + c + 0.5, TSVG_LABEL + c + 0.5, p->y + 2, p->y + h - 2,
			k->tick_name[c] == TSVG_MIXED ? 120u : 190 + h32 % 60, 40 + (h32 >> 8) % 100);
	}
}

static double level_y(const struct tsvg_track *k, double v, double top, double h)
{
	if (k->vmax <= k->vmin)
		return top + h / 2;
	return top + h - 3 - (v - k->vmin) / (k->vmax - k->vmin) * (h - 6);
}

/* A step line through each column's least, greatest and last value; the range at the right. */
static void counter_line(struct pen *p, const struct tsvg_track *k, double h)
{
	double prev = 0;
	bool started = false;

	fputs("<path fill=\"none\" stroke=\"#1a7f37\" stroke-width=\"1\" d=\"", p->out);
	for (int c = 0; c < TSVG_COLS; c++) {
		double x = TSVG_LABEL + c + 0.5;

		if (!k->chas[c])
			continue;
		if (started) /* the value held until here */
			fprintf(p->out, "L%.1f,%.1f", x, level_y(k, prev, p->y, h));
		fprintf(p->out, "%c%.1f,%.1f", started ? 'L' : 'M', x, level_y(k, k->cmin[c], p->y, h));
		if (k->cmin[c] < k->cmax[c])
			fprintf(p->out, "L%.1f,%.1f", x, level_y(k, k->cmax[c], p->y, h));
		if (k->clast[c] != k->cmin[c])
			fprintf(p->out, "L%.1f,%.1f", x, level_y(k, k->clast[c], p->y, h));
		prev = k->clast[c];
		started = true;
	}
	if (started)
		fprintf(p->out, "L%.1f,%.1f", TSVG_LABEL + TSVG_COLS, level_y(k, prev, p->y, h));
	fprintf(p->out, "\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"9\" fill=\"#555\">"
			"%.4g to %.4g</text>\n",
		TSVG_LABEL + TSVG_COLS - 2, p->y + 10, k->vmin, k->vmax);
}

static void draw_row(struct pen *p, const struct tsvg_track *k)
{
	double h = row_height(k);

	if (p->rows++ % 2)
		fprintf(p->out, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"#eef1f4\"/>\n", p->y,
			TSVG_WIDTH, h);
	label(p, k, h);
	for (unsigned int d = 0; d < TRACE_SVG_DEPTH; d++)
		for (size_t i = 0; i < k->nruns[d]; i++)
			run_box(p, &k->runs[d][i], p->y + ROW * d);
	if (k->ticks)
		ticks(p, k, h);
	if (k->chas)
		counter_line(p, k, h);
	p->y += h;
}

static void draw_tree(struct pen *p, const struct tsvg_track *k)
{
	if (!k->visible)
		return;
	draw_row(p, k);
	for (size_t c = k->first_child; c; c = p->t->tracks[c - 1].next_sibling)
		draw_tree(p, &p->t->tracks[c - 1]);
}

/* Ticks every 1, 2 or 5 of a power of ten, about eight across; grid lines down to bottom. */
static void axis(FILE *out, const struct tsvg *t, double bottom)
{
	double span = (double)(t->t1 - t->t0), target = span / 8, tens, step;
	char text[32];

	if (span <= 0)
		return;
	tens = pow(10, floor(log10(target > 1 ? target : 1)));
	step = target <= tens ? tens : target <= 2 * tens ? 2 * tens : target <= 5 * tens ? 5 * tens : 10 * tens;
	for (double at = 0; at <= span; at += step) {
		double x = TSVG_LABEL + at * TSVG_COLS / span;

		/* a label near the right edge ends at its tick: nothing drawn past the picture */
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>"
			     "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n",
			x, x, TOP - 8, bottom, x, TOP - 12, x > TSVG_WIDTH - 60 ? "end" : "middle",
			at > 0 ? format_duration_ns(at, text, sizeof(text)) : "0");
	}
}

static void heading(FILE *out, const struct tsvg *t, const char *title, double height)
{
	char span[32];

	svg_begin(out, TSVG_WIDTH, height, 11, 15, 20);
	svg_put_text(out, title, 100);
	format_duration_ns((double)(t->t1 - t->t0), span, sizeof(span));
	fprintf(out, ": %" PRIu64 " slice%s, %" PRIu64 " instant%s, %" PRIu64 " counter sample%s over %s", t->slices,
		t->slices == 1 ? "" : "s", t->instants, t->instants == 1 ? "" : "s", t->samples,
		t->samples == 1 ? "" : "s", span);
	if (t->from_ns) {
		format_duration_ns((double)t->from_ns, span, sizeof(span));
		fprintf(out, ", from %s after the first", span);
	}
	fputs("</text>\n", out);
}

/* What was not drawn, said under the rows. */
static void footer(FILE *out, const struct tsvg *t, double y)
{
	fprintf(out, "<text x=\"4\" y=\"%.1f\" fill=\"#555\">", y + 14);
	fprintf(out, "%" PRIu64 " slice%s not ended when the trace did (dashed); %" PRIu64
		     " events on tracks not described; %" PRIu64 " tracks and %" PRIu64 " names past their bounds%s",
		t->unended, t->unended == 1 ? "" : "s", t->no_track, t->tracks_dropped, t->names_dropped,
		t->cut ? "; the file ends in the middle of a packet" : "");
	fputs("</text>\n</svg>\n", out);
}

int tsvg_draw(const struct tsvg *t, FILE *out, const char *title)
{
	struct pen p = { out, t, TOP, 0 };
	double rows = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct tsvg_track *k = &t->tracks[i];

		if (!k->has_parent && tsvg_track(t, k->uuid) == k)
			visible(t, k, 0);
	}
	for (size_t i = 0; i < t->n; i++)
		rows += t->tracks[i].visible ? row_height(&t->tracks[i]) : 0;
	heading(out, t, title, TOP + rows + 24);
	axis(out, t, TOP + rows);
	for (size_t i = 0; i < t->n; i++) {
		const struct tsvg_track *k = &t->tracks[i];

		if (!k->has_parent && tsvg_track(t, k->uuid) == k)
			draw_tree(&p, k);
	}
	footer(out, t, p.y);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
