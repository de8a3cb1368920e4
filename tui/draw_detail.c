// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Vendor panes, the help overlay, the sort menu. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/delay.h"
#include "tui/draw.h"
#include "tui/sparkline.h"

/* The collector's state, reason and fix, wrapped; returns the rows used. */
static int collector_lines(struct view *v, const struct pane_decl *p, struct rect a,
			   const struct collector_status *c)
{
	char text[600];
	int y = a.y;

	if (c && c->info->state == COLLECTOR_ATTACHED) {
		snprintf(text, sizeof(text), "%s: %s", c->info->name, c->detail);
		return put_wrapped(a, ROLE_NORMAL, text);
	}
	if (c && view_pane_instead(v, p)) { /* what the tables below stand in for, on two lines at most */
		snprintf(text, sizeof(text), "%s: %s", p->instead_absent, c->info->reason);
		return put_wrapped((struct rect){ y, a.x, a.h < 2 ? a.h : 2, a.w }, ROLE_DIM, text);
	}
	if (c)
		v->said = c->info; /* the tables below say "(above)", not the reason again */
	if (c)
		snprintf(text, sizeof(text), "The %s collector %s not available on %s machine.", c->info->name,
			 v->feed->replay ? "was" : "is", v->feed->replay ? "the recorded" : "this");
	else /* no such collector where the snapshots come from: nothing was unavailable, there was none */
		snprintf(text, sizeof(text),
			 v->feed->replay ?
				 "This recording has no %s collector (the gputop-bpf that made it had none)." :
				 "This version of gputop-bpf has no %s collector yet.",
			 p->collector);
	y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_WARNING, text);
	if (c) {
		snprintf(text, sizeof(text), "Reason: %s", c->info->reason);
		y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_NORMAL, text);
	}
	if (c && c->info->fix[0]) {
		snprintf(text, sizeof(text), "Fix: %s", c->info->fix);
		y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_NORMAL, text);
	}
	snprintf(text, sizeof(text), "It shows: %s.", p->what ? p->what : p->title);
	y += put_wrapped((struct rect){ y, a.x, a.y + a.h - y, a.w }, ROLE_DIM, text);
	return y - a.y;
}

#define TABLE_MIN_ROWS 4 /* title, header, a row, a blank line */

/* The rows n tables take at the least: what each needs, up to TABLE_MIN_ROWS. */
static int min_rows(const int *need, int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += need[i] < TABLE_MIN_ROWS ? need[i] : TABLE_MIN_ROWS;
	return sum;
}

/* Table i's title ("" where no descriptor has its name). */
static const char *table_title(struct view *v, const struct pane_decl *p, int i)
{
	const struct table_desc *d = table_desc_find(view_table_name(v, p, i));

	return d ? d->title : "";
}

/*
 * Table i's place among those not drawn: 0 drawn, 1 above (scrolled off), 2 empty and left out between tables
 * drawn, 3 left out between them with rows, 4 below.
 */
static int not_drawn(struct view *v, const struct pane_decl *p, int i, int first, const int *h, int n)
{
	const struct table *t;
	int last = -1;

	for (int k = first; k < n; k++)
		if (h[k] > 0)
			last = k;
	if (i < first)
		return 1;
	if (h[i] > 0)
		return 0;
	if (i > last)
		return 4;
	t = snapshot_table(v->snap, view_table_name(v, p, i));
	return t && t->nrows ? 3 : 2;
}

/*
 * The tables at place where (not_drawn), after another part where after: "2 more tables below: → A, B"
 * (style 2), without their names (1), or "2 below →" (0); nothing where none is.
 */
static size_t not_drawn_part(struct view *v, const struct pane_decl *p, int where, int style, int first, const int *h,
			     int n, char *out, size_t size, bool after)
{
	static const char *const places[] = { "", "above", "empty, not drawn", "not drawn", "below" };
	static const char *const short_places[] = { "", "above", "empty", "not drawn", "below" };
	const char *key = where == 1 ? (v->utf8 ? "←" : "Left") : where == 4 ? (v->utf8 ? "→" : "Right") : "";
	char names[400] = "";
	int count = 0;

	for (int i = 0; i < n; i++) {
		if (not_drawn(v, p, i, first, h, n) != where)
			continue;
		if (style == 2)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", count ? ", " : " ",
				 table_title(v, p, i));
		count++;
	}
	if (!count)
		return 0;
	if (!style)
		return (size_t)snprintf(out, size, "%s%d %s%s%s", after ? ", " : "tables: ", count, short_places[where],
					key[0] ? " " : "", key);
	return (size_t)snprintf(out, size, "%s%d %stable%s %s%s%s%s%s", after ? "; " : "", count,
				where == 1 || where == 4 ? "more " : "", count == 1 ? "" : "s", places[where],
				key[0] || names[0] ? ":" : "", key[0] ? " " : "", key, names);
}

/* The tables not drawn, by their titles and where they are (above, left out between, below), and the keys to them. */
static bool more_tables(struct view *v, const struct pane_decl *p, int first, const int *h, int n, struct rect r)
{
	char text[1024];

	/* with the tables' titles where they fit whole, else their counts and the keys alone (never cut) */
	for (int style = 2; style >= 0; style--) {
		size_t len = 0;

		text[0] = '\0';
		for (int where = 1; where <= 4; where++)
			len += not_drawn_part(v, p, where, style, first, h, n, text + len, sizeof(text) - len, len > 0);
		if (put_whole(r.y, r.x, r.w, ROLE_DIM, text))
			return true;
	}
	return false;
}

/*
 * The last table shown has no blank line after it: the row its need counted for one goes to a table
 * shown short of its rows (the focused one first), not left blank below the last.
 */
static void give_last_blank(const int *need, int *h, int n, int focus)
{
	int last = -1;

	for (int i = 0; i < n; i++)
		if (h[i] > 0)
			last = i;
	if (last < 0 || h[last] < need[last])
		return;
	for (int k = 0; k < n; k++) {
		int i = (focus + k) % n;

		if (i != last && h[i] > 0 && h[i] < need[i]) {
			h[last]--;
			h[i]++;
			return;
		}
	}
}

/*
 * Rows for tables first.. of n in avail: those with rows (and the focused one) first, each what it needs while
 * they last (layout_share); an empty one then, in order, whole where the rest has room for it: an empty
 * table never keeps rows a table with rows wants.
 */
static void share_rows(struct view *v, const struct pane_decl *p, const int *need, int n, int first, int avail, int *h)
{
	int focus = v->table_focus[v->screen], with_rows[PANE_MAX_TABLES];

	for (int i = 0; i < n; i++) {
		const struct table *t = snapshot_table(v->snap, view_table_name(v, p, i));

		with_rows[i] = (t && t->nrows) || i == focus ? need[i] : 0;
		h[i] = 0;
	}
	layout_share(with_rows + first, n - first, focus - first, avail, TABLE_MIN_ROWS, h + first);
	for (int i = first; i < n; i++)
		avail -= h[i];
	for (int i = first; i < n; i++)
		if (!with_rows[i] && need[i] <= avail) {
			h[i] = need[i];
			avail -= need[i];
		}
}

/* A declared pane: the collector's state, then its tables, each given the rows it needs while they last. */
static void draw_declared(struct view *v, struct rect a, const struct pane_decl *p,
			  const struct collector_status *c, struct rect title)
{
	int ntables = 0, first = 0, last = 0, y, avail, need[PANE_MAX_TABLES], h[PANE_MAX_TABLES];

	while (view_table_name(v, p, ntables))
		ntables++;
	/*
	 * A collector that is not attached: its reason, fix and what it shows come first, whole, and its
	 * tables (each "unavailable (above)") take the rows left, the first one at least.
	 */
	avail = c && c->info->state == COLLECTOR_ATTACHED ? a.h / 3 : a.h - 1 - 3;
	y = a.y + collector_lines(v, p, (struct rect){ a.y, a.x + 1, avail, a.w - 2 }, c) + 1;
	if (v->table_focus[v->screen] >= ntables)
		v->table_focus[v->screen] = 0;
	avail = a.y + a.h - y;
	for (int i = 0; i < ntables; i++)
		need[i] = pane_table_need(v, p, i, a.w - 2);
	/* the focused table always shows: those above it go first where all cannot (Left brings them back) */
	while (first < v->table_focus[v->screen] && min_rows(need + first, v->table_focus[v->screen] - first + 1) > avail)
		first++;
	share_rows(v, p, need, ntables, first, avail, h);
	give_last_blank(need + first, h + first, ntables - first, v->table_focus[v->screen] - first);
	if (first ||
	    layout_left_out(h + first, ntables - first)) { /* where the others are: below, where a line is free */
		int used = 0;

		for (int i = first; i < ntables; i++)
			used += h[i] > 0 ? h[i] : 0;
		if (used < avail) {
			more_tables(v, p, first, h, ntables, (struct rect){ a.y + a.h - 1, a.x + 1, 1, a.w - 2 });
			a.h--;
		} else if (!more_tables(v, p, first, h, ntables,
					(struct rect){ title.y, title.x, 1, a.x + a.w - 1 - title.x })) {
			int x = a.x + 1 + (int)strlen(p->title) +
				2; /* else beside the title in place of its key hint */

			fill(title.y, x, a.x + a.w - x, ROLE_NORMAL);
			more_tables(v, p, first, h, ntables, (struct rect){ title.y, x, 1, a.x + a.w - 1 - x });
		}
	}
	for (int i = first; i < ntables; i++)
		if (h[i] > 0)
			last = i;
	for (int i = first; i < ntables && y < a.y + a.h; i++) {
		struct rect r;

		if (h[i] > a.y + a.h - y)
			h[i] = a.y + a.h - y;
		r = (struct rect){ y, a.x + 1, h[i] - (i == last ? 0 : 1), a.w - 2 }; /* a blank line between */
		if (r.h > 0)
			pane_table_draw(v, p, i, r);
		y += h[i];
	}
}

void draw_vendor(struct view *v, struct rect a)
{
	const struct snapshot *s = v->snap;
	const struct collector_status *c = NULL;
	const struct pane_decl *p = pane_for_screen(v->screen);
	int x;

	clear_rect(a);
	if (!p)
		return;
	x = a.x + 1 + putf(a.y, a.x + 1, a.w - 2, ROLE_TITLE, "%s   (Tab or 1-%d switch panes)", p->title,
			   pane_screen_count());
	c = snapshot_collector(s, p->collector);
	draw_declared(v, (struct rect){ a.y + 1, a.x, a.h - 1, a.w }, p, c, (struct rect){ a.y, x + 2, 1, 0 });
}

#define HELP_KEY 16 /* a help line: its key in these cells, then what it does */

/* A help line's rows at inner width w: its text wrapped beside its key. */
static int help_rows(const char *line, int w)
{
	return strlen(line) > HELP_KEY ? wrapped_rows(line + HELP_KEY, w - 2 - HELP_KEY) : 1;
}

/* "1-8             Overview, AMD ...": the panes' keys and names, as declared (panes.h) */
static void help_pane_keys(char *keys, size_t size)
{
	snprintf(keys, size, "1-%-*d", HELP_KEY - 2, pane_screen_count());
	for (int i = 0; i < pane_screen_count(); i++) {
		size_t len = strlen(keys);

		snprintf(keys + len, size - len, "%s%s", pane_for_screen(i)->title,
			 i + 1 < pane_screen_count() ? ", " : "");
	}
}

/*
 * The first line to show so that lines[top..] fill the box's rows without
 * passing its end (a last page full, never one line of it).
 */
static int help_clamp_top(const char *const *lines, int n, int top, int rows, int w)
{
	int last = n, used = 0;

	while (last > 0 && used + help_rows(lines[last - 1], w) <= rows)
		used += help_rows(lines[--last], w);
	return top < 0 ? 0 : top > last ? last : top;
}

/* The help's last row: its screen lines first-last of n (wrapped rows counted), the keys that scroll it, whole. */
static void help_footer(struct rect in, int first, int last, int n)
{
	const char *up = first > 1 ? "Up/PgUp" : "", *sep = first > 1 && last < n ? ", " : "";
	const char *down = last < n ? "Down/PgDn" : "";
	char text[3][128];

	snprintf(text[0], sizeof(text[0]), "lines %d-%d of %d: %s%s%s scroll, any other key closes", first, last, n,
		 up, sep, down);
	snprintf(text[1], sizeof(text[1]), "lines %d-%d of %d: %s%s%s scroll", first, last, n, up, sep, down);
	snprintf(text[2], sizeof(text[2]), "lines %d-%d of %d", first, last, n);
	for (int k = 0; k < 3; k++)
		if (put_whole(in.y + in.h - 1, in.x + 1, in.w - 2, ROLE_DIM, text[k]))
			return;
}

void draw_help(struct view *v)
{
	char keys[160] = "";
	const char *lines[] = {
		"q, F10          quit",
		"h, ?, F1        this help: Up/Down, PgUp/PgDn, Home/End scroll it; any other key closes it",
		"Up/Down         select a row; PgUp/PgDn, Home/End move further",
		"Left/Right      select the table above / below (rings, processes ...)",
		"Enter           open the selected row (a ring, a process: its pane; else its fields, arrows scroll)",
		"Esc, Backspace  back (and Esc clears the filter)",
		"Tab, Shift-Tab  next / previous pane",
		keys,
		"g               Memory: processes grouped by cgroup / container, and back",
		"t, F5           tree: processes under their container (cgroup), and back",
		"F2              setup: which Overview panes and which columns show (W saves them)",
		"e               Overview: each GPU's block expanded (engines, fan, clocks, PCIe) or one line",
		"G               a GPU's processes (the Overview's first GPU; G again: the next); Esc back",
		"S               Stacks: the call tree of the CPU stacks that made GPU work, of the selected process "
		"or ring (else all; S again: all); Enter, Left/Right, + - open and close, * all, w the weight",
		"s, F6           choose the sort column (on the Overview: the processes'); r reverses; < > the next "
		"one; ties: totals, then PID",
		"/, \\, F3, F4    filter by ring, device, command or PID (a process by its rings too; in Stacks, "
		"frames); Esc clears",
		"k, F9           send a signal to the selected process (TERM, KILL ...), live only",
		"space, Z        pause (data frozen, the interface stays live)",
		"P, M, N, I      as htop: sort by GPU %, memory, PID; I inverts. On the Overview these, s, F6, t and k "
		"act on the processes unless Left/Right chose the rings",
		"F7, F8, u, H    htop's keys not here (and F, l, a, i; K but with vi_keys): the status line says what "
		"to use instead",
		"n, .            one snapshot forward while paused (a replay's single step)",
		"+ (=), -        slower / faster refresh, in steps between " DELAY_RANGE_TEXT " s (as -d)",
		"C               next colour theme",
		"W, F12          save theme, delay, sort and panes to the config file",
		"T               capture the next 10 s to gputop-bpf-DATE.pftrace (Perfetto)",
		"c               take CUDA launches' CPU call stacks from now on (nvidia.stacks), live where the nvidia "
		"collector runs",
		"Ctrl-L          redraw the screen",
		"mouse           click selects a row, double-click opens it; tabs, the key bar and column titles click",
		"vi_keys = yes   (config) j and k move down and up; K and F9 signal",
		"",
		"header 'self'   what gputop-bpf costs: its CPU and memory, and its BPF programs' run time (per "
		"program: JSON self.programs)",
		"column UVM      NVIDIA: of a process's ioctls, those on /dev/nvidia-uvm (CUDA's unified memory: "
		"managed allocations, page faults, migrations)",
		"column SYNC T   NVIDIA: the time its threads spent blocked in cu*Synchronize since start (SYNC%: "
		"per interval)",
	};
	int n = (int)(sizeof(lines) / sizeof(lines[0])), w = COLS < 100 ? COLS : 100, h = 0, y, rows, i, above;
	struct rect in;

	help_pane_keys(keys, sizeof(keys));
	for (i = 0; i < n; i++) /* each line's text wrapped beside its key (a hanging indent), never cut mid-word */
		h += help_rows(lines[i], w - 2);
	/* over a blank screen, as htop's: panes half hidden behind it would show words cut at its edge */
	clear_rect((struct rect){ 0, 0, LINES, COLS });
	in = popup(h + 2 > LINES ? LINES : h + 2, w, "Keys", v->utf8);
	rows = h > in.h ? in.h - 1 : in.h; /* what does not fit scrolls, the last row says how */
	v->help_top = h > in.h ? help_clamp_top(lines, n, v->help_top, rows, in.w) : 0;
	for (i = 0, above = 0; i < v->help_top; i++) /* the screen lines scrolled past */
		above += help_rows(lines[i], in.w);
	y = in.y;
	for (i = v->help_top; i < n && y + help_rows(lines[i], in.w) <= in.y + rows; i++) {
		putf(y, in.x + 1, in.w - 2, ROLE_NORMAL, "%.*s", HELP_KEY, lines[i]);
		if (strlen(lines[i]) > HELP_KEY)
			put_wrapped((struct rect){ y, in.x + 1 + HELP_KEY, help_rows(lines[i], in.w),
						   in.w - 2 - HELP_KEY },
				    ROLE_NORMAL, lines[i] + HELP_KEY);
		y += help_rows(lines[i], in.w);
	}
	if (h > in.h) /* where it is, and the keys that move it: as much as fits whole */
		help_footer(in, above + 1, above + y - in.y, h);
}

#define SORT_HELP 13 /* the arrow, a space, a 10-cell title and a space: where the meanings start */

/* The lines a column's entry takes in the sort menu at inner width w: its meaning wrapped. */
static int sort_rows(const struct col_desc *col, int w)
{
	int rows = wrapped_rows(col->help, w - 2 - SORT_HELP);

	return rows > 0 ? rows : 1;
}

void draw_sort_menu(struct view *v)
{
	const struct table_desc *d;
	const struct table_state *ts = view_focused_table(v, &d);
	unsigned int cols[TABLE_FIT_MAX_COLS], cur;
	int n = sort_menu_columns(v, cols), first, i, y, width = 64, need = 1, rows = 0;
	struct rect in;
	char title[64];

	if (!ts)
		return;
	snprintf(title, sizeof(title), "Sort %s by", d->title);
	for (i = 0; i < n; i++) /* as wide as the longest meaning, up to 100 and where the screen has room */
		if (SORT_HELP + (int)strlen(d->cols[cols[i]].help) + 4 > width)
			width = SORT_HELP + (int)strlen(d->cols[cols[i]].help) + 4;
	width = width < 100 ? width : 100;
	width = width < COLS - 2 ? width : COLS - 2;
	for (i = 0; i < n; i++)
		need += sort_rows(&d->cols[cols[i]], width - 2);
	in = popup(need + 2, width, title, v->utf8);
	cur = ts->sort_set ? ts->sort_col : d->sort_col;
	for (first = v->sort_menu_sel; first >= 0; first--) { /* long lists scroll: the selected entry shows */
		rows += sort_rows(&d->cols[cols[first]], in.w);
		if (rows > in.h - 1)
			break;
	}
	first = first < v->sort_menu_sel ? first + 1 : v->sort_menu_sel;
	y = in.y;
	/* whole entries; the last one that has a line left its meaning cut at a word */
	for (i = first; i < n && y < in.y + in.h - 1; i++) {
		const struct col_desc *col = &d->cols[cols[i]];
		enum role role = i == v->sort_menu_sel ? ROLE_SELECTED : ROLE_NORMAL;
		int h = sort_rows(col, in.w);

		h = y + h > in.y + in.h - 1 ? in.y + in.h - 1 - y : h;
		for (int k = 0; k < h; k++)
			fill(y + k, in.x, in.w, role);
		putf(y, in.x + 1, SORT_HELP, role, "%s %-10s", cols[i] == cur ? sort_arrow(col, ts->reverse, v->utf8) : " ",
		     col->title);
		put_wrapped_cut((struct rect){ y, in.x + 1 + SORT_HELP, h, in.w - 2 - SORT_HELP }, role, v->utf8,
				col->help);
		y += h;
	}
	list_more(v, in, first, n - i);
	put(in.y + in.h - 1, in.x + 1, in.w - 2, ROLE_DIM, "Enter sorts, r reverses, Esc closes");
}
