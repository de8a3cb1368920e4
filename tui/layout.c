// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include "tui/layout.h"

static int min_i(int a, int b)
{
	return a < b ? a : b;
}

static int max_i(int a, int b)
{
	return a > b ? a : b;
}

static struct rect rect(int y, int x, int h, int w)
{
	if (h <= 0 || w <= 0)
		return (struct rect){ 0 };
	return (struct rect){ y, x, h, w };
}

/* The rows the process table takes at most: title, header and rows, or its title and an empty text of two lines. */
static int procs_need(const struct layout_input *in)
{
	return in->nprocs ? in->nprocs + 2 : 3;
}

/* The rows the ring and process tables take at most: title, header and rows (the rings' title and a line). */
static int tables_need(const struct layout_input *in)
{
	return (in->panes[PANE_RINGS] ? (in->nrings ? in->nrings + 2 : 2) : 0) +
	       (in->panes[PANE_PROCESSES] ? procs_need(in) : 0);
}

/*
 * The GPU history right under the tables, in the rows of [y, y + *h) they leave (4 at least);
 * *h: the tables' rows then, all they need (rows below the history stay blank).
 */
static void take_history(const struct layout_input *in, struct layout *out, int y, int *h, int x, int w)
{
	int need = tables_need(in), hh = min_i(in->history_rows, *h - need);

	if (!in->history_rows || hh < 4) /* a title and one GPU's three rows at least */
		return;
	out->history = rect(y + need, x, hh, w);
	*h = need;
}

/* Splits the rows [y, y + h) between the ring and process tables, and the GPU history where they leave room. */
static void split_tables(const struct layout_input *in, struct layout *out, int y, int h, int x,
			 int w)
{
	bool rings = in->panes[PANE_RINGS], procs = in->panes[PANE_PROCESSES];
	int rh;

	take_history(in, out, y, &h, x, w);

	if (rings && procs) {
		/* title, header and rows; title and one line when it has none */
		/* half each, or more where the processes need less (their title and an empty text of two lines) */
		rh = min_i(in->nrings ? in->nrings + 2 : 2, max_i(h / 2, h - procs_need(in)));
		rh = max_i(rh, min_i(2, h - 3));
		out->rings = rect(y, x, rh, w);
		out->procs = rect(y + rh, x, h - rh, w);
	} else if (rings) {
		out->rings = rect(y, x, h, w);
	} else if (procs) {
		out->procs = rect(y, x, h, w);
	}
}

/* The rows side pane which uses of avail (layout_input's side_need and side_least). */
static int side_used(const struct layout_input *in, int which, int avail)
{
	int need = in->side_need[which], least = in->side_least[which];

	if (need <= 0 || avail >= need)
		return need > 0 ? need : avail;
	return least <= 0 || avail >= least + 3 ? avail : min_i(least, avail);
}

/*
 * The wide layout's side column: body rows shared evenly between the n side panes, each at most
 * what it uses; the rows one leaves go to those that want more (the rest stays blank, below).
 */
static void stack_sides(const struct layout_input *in, struct layout *out, const int *idx, int n, int y, int body,
			int x, int w)
{
	int h[3] = { 0 }, left = body, open = n;

	while (left > 0 && open > 0) {
		int each = left / open, extra = left % open, given = 0;

		open = 0;
		for (int k = 0; k < n; k++) {
			int want = side_used(in, idx[k], body) - h[k], add = min_i(want, each + (extra > 0));

			if (want <= 0)
				continue;
			extra -= extra > 0;
			h[k] += add;
			given += add;
			open += h[k] < side_used(in, idx[k], body);
		}
		left -= given;
		if (!given)
			break;
	}
	for (int k = 0; k < n; k++) {
		h[k] = side_used(in, idx[k], h[k]); /* short of its need: what it uses of that */
		out->side[idx[k]] = rect(y, x, h[k], w);
		y += h[k];
	}
}

/* The rows the tables (and the GPU history under them) were given beyond what they need: blank below them. */
static int tables_spare(const struct layout_input *in, const struct layout *out)
{
	int given = out->rings.h + out->procs.h + out->history.h;
	int need = tables_need(in) + (out->history.h ? in->history_rows : 0);

	return given > need ? given - need : 0;
}

/* layout_compute with the GPUs' expanded blocks taken where they fit in cap rows. */
static void layout_with(const struct layout_input *in, struct layout *out, int device_cap);

void layout_compute(const struct layout_input *in, struct layout *out)
{
	int cap = in->rows >= 24 ? max_i(3, (in->rows - 2 - (in->rows >= 20 ? 2 : 1)) / 3) : 1;

	/* expanded blocks while they take at most a third of the body, or rows the tables leave blank */
	layout_with(in, out, cap);
	if (!out->too_small && in->panes[PANE_DEVICES] && in->device_rows > out->devices.h &&
	    in->device_rows - out->devices.h <= tables_spare(in, out))
		layout_with(in, out, in->device_rows);
}

static void layout_with(const struct layout_input *in, struct layout *out, int device_cap)
{
	int y, body, nside = 0, side_idx[3];

	memset(out, 0, sizeof(*out));
	if (in->rows < LAYOUT_MIN_ROWS || in->cols < LAYOUT_MIN_COLS) {
		out->too_small = true;
		return;
	}
	out->header = rect(0, 0, in->rows >= 20 ? 2 : 1, in->cols);
	out->keybar = rect(in->rows - 1, 0, 1, in->cols);
	out->status = rect(in->rows - 2, 0, 1, in->cols);
	y = out->header.h;
	body = in->rows - 2 - y;

	if (in->panes[PANE_DEVICES]) {
		/* expanded blocks where they fit in device_cap rows, else a line each */
		int cap = device_cap, n = max_i(in->ndevices, 1);
		int dh = in->device_rows > n && in->device_rows <= cap ? in->device_rows : min_i(n, max_i(cap, 1));

		out->devices = rect(y, 0, dh, in->cols);
		y += dh;
		body -= dh;
	}
	if (in->absent_line && body > 4) {
		out->absent = rect(y, 0, 1, in->cols);
		y++;
		body--;
	}
	for (int i = 0; i < 3; i++)
		if (in->panes[PANE_MEMORY + i])
			side_idx[nside++] = i;

	if (nside && in->cols >= LAYOUT_WIDE_COLS) {
		/* Wide: the side panes stack to the right of the tables. */
		int sw = min_i(48, in->cols / 3), tw = in->cols - sw;

		stack_sides(in, out, side_idx, nside, y, body, tw, sw);
		split_tables(in, out, y, body, 0, tw);
	} else if (nside && body >= 3 + 8) {
		/* Narrow: a row of small panes under the tables, when there is room: what the tables leave */
		int hist = in->history_least ? in->history_least : in->history_rows;
		int want = tables_need(in) + (hist ? min_i(hist, body / 3) : 0);
		int sh = max_i(3, min_i(body - want, body - 5)), x = 0, use = 0;

		for (int k = 0; k < nside; k++) /* side by side: as tall as the tallest needs, the rest to the tables */
			use = max_i(use, side_used(in, side_idx[k], sh));
		sh = max_i(3, use);

		split_tables(in, out, y, body - sh, 0, in->cols);
		for (int k = 0; k < nside; k++) {
			int sw = in->cols / nside + (k < in->cols % nside);

			out->side[side_idx[k]] = rect(y + body - sh, x, sh, sw);
			x += sw;
		}
	} else {
		split_tables(in, out, y, body, 0, in->cols);
	}
}

int layout_left_out(const int *out, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += out[i] <= 0;
	return k;
}

void layout_share(const int *need, int n, int focus, int avail, int min, int *out)
{
	for (int i = 0; i < n; i++) { /* a table that cannot have its least shows not at all */
		out[i] = need[i] < min ? need[i] : min;
		out[i] = out[i] <= avail ? out[i] : 0;
		avail -= out[i];
	}
	for (int k = 0; k < n && avail > 0; k++) {
		int i = (focus + k) % n, more = need[i] - out[i];

		more = more < avail ? more : avail;
		if (more > 0 && out[i] > 0) {
			out[i] += more;
			avail -= more;
		}
	}
}
