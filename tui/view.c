// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The view's own state: its message, the table that has the keys, the snapshot and theme shown. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "model/histories.h"
#include "model/table_seen.h"
#include "tui/draw.h"

void view_message(struct view *v, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	v->message_error = error;
}

/* The Overview's tables and the panes that show them. */
static const enum pane main_panes[] = { PANE_RINGS, PANE_PROCESSES };

bool view_table_shown(const struct view *v, int screen, int i)
{
	if (screen != SCREEN_MAIN || i < 0 || i >= (int)(sizeof(main_panes) / sizeof(main_panes[0])))
		return true;
	return v->prefs.panes[main_panes[i]] && !v->fit.absent[main_panes[i]];
}

const char *view_table_hidden_why(const struct view *v, int i)
{
	if (view_table_shown(v, SCREEN_MAIN, i))
		return NULL;
	return v->fit.absent[main_panes[i]] ? "not on this machine" : "hidden (F2 setup shows it)";
}

void view_focus_shown(struct view *v)
{
	int *f = &v->table_focus[SCREEN_MAIN];

	if (view_table_shown(v, SCREEN_MAIN, *f))
		return;
	for (int i = 0; view_table_name(v, pane_for_screen(SCREEN_MAIN), i); i++)
		if (view_table_shown(v, SCREEN_MAIN, i)) {
			*f = i;
			return;
		}
}

struct table_state *view_focused_table(struct view *v, const struct table_desc **d)
{
	const struct pane_decl *p = pane_for_screen(v->screen);
	const char *name = view_table_name(v, p, v->table_focus[v->screen]);

	if (!view_table_shown(v, v->screen, v->table_focus[v->screen]))
		name = NULL; /* no key acts on a table not drawn */
	*d = name ? table_desc_find(name) : NULL;
	return *d ? &v->tstate[v->screen][v->table_focus[v->screen]] : NULL;
}

int sort_menu_columns(struct view *v, unsigned int *cols)
{
	const struct table_desc *d;
	struct table_state *ts = view_focused_table(v, &d);
	struct table_fit fit;

	if (!ts)
		return 0;
	table_fit_sorted(d, snapshot_table(v->snap, d->name), ts->width > 0 ? ts->width : COLS - 2, &v->prefs,
			 ts->sort_set ? ts->sort_col : d->sort_col, &fit);
	memcpy(cols, fit.cols, fit.ncols * sizeof(*cols));
	return (int)fit.ncols;
}

void view_apply_theme(struct view *v)
{
	colors_setup(&v->theme, v->color);
	clearok(curscr, TRUE);
}

/*
 * On each screen whose first table has the keys and is not available (its collector
 * not attached, as drm_sched on an NVIDIA machine), or has no rows in the first
 * snapshot or when the screen is entered (first), the keys go to the first table that
 * has some, not stay on one that cannot open or sort anything; unless the user chose it
 * since entering.
 */
static void focus_first_rows(struct view *v, const struct snapshot *s, bool first)
{
	for (int i = 0; s && i < pane_screen_count() && i < SCREEN_MAX; i++) {
		const struct pane_decl *p = pane_for_screen(i);
		const struct table *t;

		if (v->table_focus[i] || v->focus_chosen[i] || !view_table_name(v, p, 0))
			continue;
		t = snapshot_table(s, view_table_name(v, p, 0));
		if (t && (t->nrows || !first))
			continue;
		for (int k = 1; k < PANE_MAX_TABLES && view_table_name(v, p, k); k++) {
			t = snapshot_table(s, view_table_name(v, p, k));
			if (t && t->nrows) {
				v->table_focus[i] = k;
				break;
			}
		}
	}
}

bool view_pane_instead(const struct view *v, const struct pane_decl *p)
{
	const struct collector_status *c = p && p->instead[0] ? snapshot_collector(v->snap, p->collector) : NULL;
	const struct table *t = c ? snapshot_table(v->snap, p->instead[0]) : NULL;

	return c && c->info->state != COLLECTOR_ATTACHED && t && t->nrows;
}

const char *view_table_name(const struct view *v, const struct pane_decl *p, int i)
{
	if (p && i >= 0 && i < PANE_MAX_TABLES && view_pane_instead(v, p))
		return p->instead[i];
	return pane_table_name(p, i, v->grouped);
}

void view_instead_changes(struct view *v)
{
	for (int i = 0; i < pane_screen_count() && i < SCREEN_MAX; i++) {
		bool on = view_pane_instead(v, pane_for_screen(i));

		if (on == v->instead_shown[i])
			continue;
		v->instead_shown[i] = on;
		/* a sort column of the other tables means nothing here */
		memset(v->tstate[i], 0, sizeof(v->tstate[i]));
		for (int k = 0; k < PANE_MAX_TABLES; k++)
			v->order[i][k].valid = false;
		v->table_focus[i] = 0;
	}
}

void view_enter_screen(struct view *v, int screen)
{
	v->screen = screen;
	v->detail = NULL;
	v->focus_chosen[screen] = false;
	focus_first_rows(v, v->snap, true); /* entered: the keys on a table with rows, as at the start */
}

bool view_refresh(struct view *v, int timeout_ms)
{
	const struct snapshot *s;

	if (v->paused)
		return false;
	s = v->feed->ops->take(v->feed->impl, v->snap ? v->snap->seq : 0, timeout_ms);
	if (s && *v->feed->ops->error(v->feed->impl) &&
	    strcmp(v->message, v->feed->ops->error(v->feed->impl))) /* live: the recording failed */
		view_message(v, true, "%s", v->feed->ops->error(v->feed->impl));
	if (!s) {
		const char *err = v->feed->ops->error(v->feed->impl);

		/* The end of a replay, or its error, is news once: redraw for it. */
		if (*err && strcmp(v->message, err)) {
			view_message(v, true, "%s", err);
			return true;
		}
		if (!*err && v->feed->replay && v->feed->ops->finished(v->feed->impl) && !v->ended) {
			v->ended = true;
			if (v->pid_filter && !v->pid_seen)
				view_message(v, true,
					     "end of the recording: process %u (-p) was not seen in it; q quits",
					     v->pid_filter);
			else
				view_message(v, false, "end of the recording: q quits");
			return true;
		}
		return false;
	}
	focus_first_rows(v, s, !v->snap); /* the process table may fill later */
	if (v->snap)
		v->feed->ops->release(v->feed->impl, v->snap);
	v->snap = s;
	v->pid_seen = v->pid_seen || (v->pid_filter && snapshot_has_pid(s, v->pid_filter));
	histories_update(v->histories, s);
	table_seen_update(v->seen, s);
	gpu_drill_seen(v->seen, s);
	if (v->capturing)
		view_capture_snapshot(v, s);
	return true;
}
