// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "core/privileges.h"
#include "tui/draw.h"
#include "tui/layout.h"
#include "tui/overview_fit.h"

/* Whether the collector cannot run on this machine (not for lack of privilege: that pane says why). */
static bool source_absent(const struct view *v, const char *collector)
{
	const struct collector_status *c = collector ? snapshot_collector(v->snap, collector) : NULL;

	return c && c->info->state != COLLECTOR_ATTACHED && strcmp(c->info->reason, PRIVILEGES_BPF_REASON);
}

bool overview_nvml_memory(const struct view *v)
{
	const struct collector_status *c = snapshot_collector(v->snap, "memory");
	const struct table *g = snapshot_table(v->snap, "nvidia.gpus");

	return c && c->info->state != COLLECTOR_ATTACHED && g && g->nrows;
}

/* The GPU interrupt lines, none of which fired since the start: "GPU interrupts (8 lines, none fired)". */
static bool irqs_quiet(const struct view *v, char *buf, size_t size)
{
	const struct collector_status *c = snapshot_collector(v->snap, "irq");
	const struct table *t = snapshot_table(v->snap, "irq.lines");

	if (!c || c->info->state != COLLECTOR_ATTACHED || !t)
		return false;
	for (size_t i = 0; i < t->nrows; i++)
		if (num_or_0(t, i, "total") > 0)
			return false;
	if (t->nrows)
		snprintf(buf, size, "interrupts (%zu line%s, none fired)", t->nrows, t->nrows == 1 ? "" : "s");
	else
		snprintf(buf, size, "GPU interrupt lines");
	return true;
}

static void absent(struct overview_fit *f, enum pane p, const char *what)
{
	f->absent[p] = true;
	if (f->n < OVERVIEW_ABSENT_MAX)
		f->what[f->n++] = what;
}

/* The collector that feeds a pane of the Overview: the main screen's for the rings, a side pane's own. */
static const char *pane_source(enum pane p)
{
	const struct pane_decl *d = p == PANE_RINGS ? pane_for_screen(SCREEN_MAIN) : pane_for_side(p - PANE_MEMORY);

	return d ? d->collector : NULL;
}

void overview_fit(const struct view *v, struct overview_fit *f)
{
	memset(f, 0, sizeof(*f));
	if (!v->snap)
		return;
	if (source_absent(v, pane_source(PANE_RINGS)))
		absent(f, PANE_RINGS, "DRM scheduler");
	if (source_absent(v, pane_source(PANE_MEMORY)) && !overview_nvml_memory(v))
		absent(f, PANE_MEMORY, "GPU memory");
	if (source_absent(v, pane_source(PANE_INTERRUPTS)))
		absent(f, PANE_INTERRUPTS, "GPU interrupts");
	else if (irqs_quiet(v, f->buf, sizeof(f->buf)))
		absent(f, PANE_INTERRUPTS, f->buf);
	if (source_absent(v, pane_source(PANE_DISPLAY)))
		absent(f, PANE_DISPLAY, "display");
}

int overview_fit_no_room(struct overview_fit *f, const bool *panes, const struct layout *l)
{
	f->nroom = 0;
	for (int i = 0; i < SIDE_COUNT; i++)
		if (panes[PANE_MEMORY + i] && !l->side[i].h)
			f->no_room[f->nroom++] = side_title(i);
	return f->nroom;
}

/* "; no room for MEMORY, DISPLAY" at x, whole or nothing; cells used. */
static int no_room_part(const struct overview_fit *f, int y, int x, int right)
{
	char text[96];
	size_t len;

	snprintf(text, sizeof(text), "%sno room for ", f->n ? "; " : "");
	for (int i = 0; i < f->nroom; i++) {
		len = strlen(text);
		snprintf(text + len, sizeof(text) - len, "%s%s", i ? ", " : "", f->no_room[i]);
	}
	return put_whole(y, x, right - x, ROLE_DIM, text);
}

void overview_fit_draw(const struct view *v, const struct overview_fit *f, struct rect r)
{
	int x = r.x + 1, right = r.x + r.w, shown = 0;
	char why[160];

	/* where the reasons are: the recording's collectors (its file as it was given), or this machine's */
	if (v->feed->replay)
		snprintf(why, sizeof(why), "; see why: gputop-bpf --replay %.100s -b",
			 v->feed->name ? v->feed->name : "");
	else
		snprintf(why, sizeof(why), "; see why: gputop-bpf --list");

	fill(r.y, r.x, r.w, ROLE_NORMAL);
	if (!f->n) { /* only panes without room */
		no_room_part(f, r.y, x, right);
		return;
	}
	x += put_whole(r.y, x, right - x, ROLE_DIM, "Not here: ");
	for (int i = 0; i < f->n; i++) {
		char item[96], more[16];
		int left = f->n - i - 1;

		/* the item whole, with room kept for the "+N" of those after it */
		snprintf(item, sizeof(item), "%s%s", i ? ", " : "", f->what[i]);
		snprintf(more, sizeof(more), " +%d", left);
		if (x + (int)strlen(item) + (left ? (int)strlen(more) : 0) > right)
			break;
		x += put_whole(r.y, x, right - x, ROLE_DIM, item);
		shown++;
	}
	if (shown < f->n) {
		char more[16];

		snprintf(more, sizeof(more), " +%d", f->n - shown);
		x += put_whole(r.y, x, right - x, ROLE_DIM, more);
	}
	if (f->nroom)
		x += no_room_part(f, r.y, x, right);
	if (!put_whole(r.y, x, right - x, ROLE_DIM, why) && v->feed->replay)
		put_whole(r.y, x, right - x, ROLE_DIM, "; see why: this replay with -b");
}
