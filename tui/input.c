// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Keys and mouse: what each does to the view. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "draw.h"
#include "rows.h"

#define KEY_ESC 27
#define KEY_CTRL_L 12

static const double delays[] = { 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60 };

void view_message(struct view *v, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	v->message_error = error;
}

static void clamp(size_t *sel, size_t n)
{
	if (*sel >= n)
		*sel = n ? n - 1 : 0;
}

void view_rows_update(struct view *v)
{
	const struct snapshot *s = v->snap;

	free(v->ring_rows);
	free(v->proc_rows);
	v->ring_rows = v->proc_rows = NULL;
	v->nring_rows = v->nproc_rows = 0;
	if (!s)
		return;
	v->ring_rows = calloc(s->nrings + 1, sizeof(size_t));
	v->proc_rows = calloc(s->nprocs + 1, sizeof(size_t));
	if (!v->ring_rows || !v->proc_rows)
		return;
	v->nring_rows = rows_rings(s, v->prefs.ring_sort, v->prefs.reverse, v->filter, v->ring_rows);
	v->nproc_rows = rows_procs(s, v->prefs.proc_sort, v->prefs.reverse, v->filter, v->proc_rows);
	clamp(&v->ring_sel, v->nring_rows);
	clamp(&v->proc_sel, v->nproc_rows);
}

static void move_sel(struct view *v, long delta)
{
	size_t *sel = v->focus == FOCUS_RINGS ? &v->ring_sel : &v->proc_sel;
	size_t n = v->focus == FOCUS_RINGS ? v->nring_rows : v->nproc_rows;
	long next = (long)*sel + delta;

	if (next < 0)
		next = 0;
	*sel = (size_t)next;
	clamp(sel, n);
}

static int page(const struct view *v)
{
	int h = v->focus == FOCUS_RINGS ? v->layout.rings.h : v->layout.procs.h;

	return h > 3 ? h - 3 : 1;
}

static void open_selected(struct view *v)
{
	const struct snapshot *s = v->snap;

	if (!s || v->screen != SCREEN_MAIN)
		return;
	if (v->focus == FOCUS_RINGS && v->nring_rows) {
		const struct ring_snap *r = &s->rings[v->ring_rows[v->ring_sel]];

		snprintf(v->detail_dev, sizeof(v->detail_dev), "%s", r->dev);
		snprintf(v->detail_ring, sizeof(v->detail_ring), "%s", r->name);
		v->detail = DETAIL_RING;
	} else if (v->focus == FOCUS_PROCS && v->nproc_rows) {
		v->detail_pid = s->procs[v->proc_rows[v->proc_sel]].pid;
		v->detail = DETAIL_PROC;
	}
}

static void set_delay(struct view *v, int dir)
{
	size_t n = sizeof(delays) / sizeof(delays[0]), i = 0;

	while (i < n && delays[i] < v->prefs.delay_s - 1e-9)
		i++;
	if (dir > 0)
		i = i + 1 < n ? i + 1 : n - 1;
	else if (i > 0)
		i--;
	v->prefs.delay_s = delays[i];
	v->feed->ops->set_delay(v->feed->impl, delays[i]);
	view_message(v, false, "refresh every %g s", delays[i]);
}

static void next_theme(struct view *v)
{
	char err[256];

	v->theme_idx = (v->theme_idx + 1) % theme_builtin_count();
	snprintf(v->prefs.theme, sizeof(v->prefs.theme), "%s", theme_builtin_name(v->theme_idx));
	theme_load(v->prefs.theme, &v->theme, err, sizeof(err));
	view_apply_theme(v);
	view_message(v, false, "theme %s", v->theme.name);
}

static void save_prefs(struct view *v)
{
	int err;

	if (!v->config_path[0]) {
		view_message(v, true, "cannot save: neither XDG_CONFIG_HOME nor HOME is set");
		return;
	}
	err = prefs_save(v->config_path, &v->prefs);
	if (err)
		view_message(v, true, "cannot save %s: %s", v->config_path, strerror(-err));
	else
		view_message(v, false, "settings saved to %s", v->config_path);
}

static void filter_key(struct view *v, int key)
{
	size_t len = strlen(v->edit);

	if (key == '\n' || key == KEY_ENTER) {
		snprintf(v->filter, sizeof(v->filter), "%s", v->edit);
		v->editing_filter = false;
	} else if (key == KEY_ESC) {
		v->filter[0] = v->edit[0] = '\0';
		v->editing_filter = false;
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (len)
			v->edit[len - 1] = '\0';
	} else if (key >= 32 && key < 127 && len + 1 < sizeof(v->edit)) {
		v->edit[len] = (char)key;
		v->edit[len + 1] = '\0';
	}
	if (v->editing_filter) /* live filtering while typing */
		snprintf(v->filter, sizeof(v->filter), "%s", v->edit);
	v->ring_sel = v->proc_sel = 0;
	view_rows_update(v);
}

static void sort_key(struct view *v, int key)
{
	int n = v->focus == FOCUS_RINGS ? RING_COLS : PROC_COLS;

	if (key == KEY_UP || key == 'k')
		v->sort_menu_sel = v->sort_menu_sel > 0 ? v->sort_menu_sel - 1 : 0;
	else if (key == KEY_DOWN || key == 'j')
		v->sort_menu_sel = v->sort_menu_sel + 1 < n ? v->sort_menu_sel + 1 : n - 1;
	else if (key == '\n' || key == KEY_ENTER) {
		*(v->focus == FOCUS_RINGS ? &v->prefs.ring_sort : &v->prefs.proc_sort) = v->sort_menu_sel;
		v->overlay = OVERLAY_NONE;
		view_rows_update(v);
		view_message(v, false, "sorted by %s",
			     v->focus == FOCUS_RINGS ? ring_column_title(v->sort_menu_sel) :
						       proc_column_title(v->sort_menu_sel));
	} else if (key == KEY_ESC || key == 'q') {
		v->overlay = OVERLAY_NONE;
	}
}

static void mouse_key(struct view *v)
{
	MEVENT ev;
	struct rect r;
	int row;

	if (getmouse(&ev) != OK || v->screen != SCREEN_MAIN || v->detail != DETAIL_NONE)
		return;
	if (ev.y >= v->layout.rings.y + 2 && ev.y < v->layout.rings.y + v->layout.rings.h &&
	    ev.x < v->layout.rings.x + v->layout.rings.w) {
		r = v->layout.rings;
		row = ev.y - r.y - 2 + (int)v->ring_top;
		if (row >= 0 && (size_t)row < v->nring_rows) {
			v->focus = FOCUS_RINGS;
			v->ring_sel = (size_t)row;
		}
	} else if (ev.y >= v->layout.procs.y + 2 && ev.y < v->layout.procs.y + v->layout.procs.h) {
		r = v->layout.procs;
		row = ev.y - r.y - 2 + (int)v->proc_top;
		if (row >= 0 && (size_t)row < v->nproc_rows) {
			v->focus = FOCUS_PROCS;
			v->proc_sel = (size_t)row;
		}
	} else {
		return;
	}
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		open_selected(v);
}

void view_key(struct view *v, int key)
{
	if (v->editing_filter) {
		filter_key(v, key);
		return;
	}
	if (v->overlay == OVERLAY_HELP) {
		v->overlay = OVERLAY_NONE;
		return;
	}
	if (v->overlay == OVERLAY_SORT) {
		sort_key(v, key);
		return;
	}
	if (key != KEY_RESIZE && key != KEY_MOUSE)
		v->message[0] = '\0';
	switch (key) {
	case 'q':
	case KEY_F(10):
		v->quit = true;
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		v->overlay = OVERLAY_HELP;
		break;
	case KEY_UP:
	case 'k':
		move_sel(v, -1);
		break;
	case KEY_DOWN:
	case 'j':
		move_sel(v, 1);
		break;
	case KEY_PPAGE:
		move_sel(v, -page(v));
		break;
	case KEY_NPAGE:
		move_sel(v, page(v));
		break;
	case KEY_HOME:
		move_sel(v, -1000000);
		break;
	case KEY_END:
		move_sel(v, 1000000);
		break;
	case KEY_LEFT:
		v->focus = FOCUS_RINGS;
		break;
	case KEY_RIGHT:
		v->focus = FOCUS_PROCS;
		break;
	case '\n':
	case KEY_ENTER:
		open_selected(v);
		break;
	case KEY_ESC:
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (v->detail != DETAIL_NONE)
			v->detail = DETAIL_NONE;
		else if (v->filter[0]) {
			v->filter[0] = v->edit[0] = '\0';
			view_rows_update(v);
		} else
			v->screen = SCREEN_MAIN;
		break;
	case '\t':
		v->screen = (enum view_screen)((v->screen + 1) % SCREEN_COUNT);
		v->detail = DETAIL_NONE;
		break;
	case KEY_BTAB:
		v->screen = (enum view_screen)((v->screen + SCREEN_COUNT - 1) % SCREEN_COUNT);
		v->detail = DETAIL_NONE;
		break;
	case '1': case '2': case '3': case '4': case '5':
		v->screen = (enum view_screen)(key - '1');
		v->detail = DETAIL_NONE;
		break;
	case 's':
	case KEY_F(6):
		v->overlay = OVERLAY_SORT;
		v->sort_menu_sel = v->focus == FOCUS_RINGS ? v->prefs.ring_sort : v->prefs.proc_sort;
		break;
	case 'r':
		v->prefs.reverse = !v->prefs.reverse;
		view_rows_update(v);
		view_message(v, false, "order %s", v->prefs.reverse ? "reversed" : "normal");
		break;
	case '/':
	case KEY_F(3):
		v->editing_filter = true;
		snprintf(v->edit, sizeof(v->edit), "%s", v->filter);
		break;
	case ' ':
		v->paused = !v->paused;
		break;
	case 'n':
	case '.':
		if (v->feed->ops->step)
			v->feed->ops->step(v->feed->impl);
		if (v->paused) {
			v->paused = false;
			view_refresh(v, 300);
			v->paused = true;
		}
		break;
	case '+':
	case '=':
		set_delay(v, 1);
		break;
	case '-':
		set_delay(v, -1);
		break;
	case 't':
		next_theme(v);
		break;
	case 'W':
		save_prefs(v);
		break;
	case KEY_CTRL_L:
		clearok(curscr, TRUE);
		break;
	case KEY_MOUSE:
		mouse_key(v);
		break;
	}
}
