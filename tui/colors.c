// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Theme colours to curses pairs: 256-colour cube, 8 colours, or attributes only. */
#include <curses.h>
#include <stdlib.h>
#include "tui/draw.h"

static int attrs[ROLES];

/* foreground key, background key (-1: main background) and attributes of each role */
static const struct {
	int fg, bg, attr_color, attr_mono;
} roles[ROLES] = {
	[ROLE_NORMAL] = { THEME_MAIN_FG, -1, 0, 0 },
	[ROLE_HEADER] = { THEME_HEADER_FG, THEME_HEADER_BG, A_BOLD, A_BOLD | A_UNDERLINE }, /* not the selection's reverse */
	[ROLE_TITLE] = { THEME_TITLE, -1, A_BOLD, A_BOLD },
	[ROLE_LABEL] = { THEME_LABEL, -1, 0, 0 },
	[ROLE_VALUE] = { THEME_VALUE, -1, A_BOLD, A_BOLD },
	[ROLE_DIM] = { THEME_DIM, -1, 0, A_DIM },
	[ROLE_SELECTED] = { THEME_SELECTED_FG, THEME_SELECTED_BG, 0, A_REVERSE },
	[ROLE_METER_LOW] = { THEME_METER_LOW, -1, 0, 0 },
	[ROLE_METER_MID] = { THEME_METER_MID, -1, 0, A_BOLD },
	[ROLE_METER_HIGH] = { THEME_METER_HIGH, -1, A_BOLD, A_BOLD },
	[ROLE_SPARK] = { THEME_SPARK, -1, 0, 0 },
	[ROLE_WARNING] = { THEME_WARNING, -1, A_BOLD, A_BOLD },
	[ROLE_ERROR] = { THEME_ERROR, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[ROLE_KEY] = { THEME_KEY_FG, THEME_KEY_BG, 0, A_REVERSE },
	[ROLE_KEYBAR] = { THEME_KEYBAR_FG, THEME_KEYBAR_BG, 0, 0 },
};

/* The terminal colour nearest to an RGB value. */
static short rgb_to_color(struct theme_color c)
{
	static const int cube[6] = { 0, 95, 135, 175, 215, 255 };
	int r, g, b, best = 0, gray;

	if (!c.set)
		return -1;
	if (COLORS >= 256) {
		r = c.r < 48 ? 0 : c.r < 115 ? 1 : (c.r - 35) / 40;
		g = c.g < 48 ? 0 : c.g < 115 ? 1 : (c.g - 35) / 40;
		b = c.b < 48 ? 0 : c.b < 115 ? 1 : (c.b - 35) / 40;
		if (r == g && g == b && c.r > 4 && c.r < 247 && abs(c.r - cube[r]) > 6) {
			gray = (c.r - 8) / 10; /* 232..255: 8, 18, ..., 238 */
			return (short)(232 + (gray > 23 ? 23 : gray));
		}
		return (short)(16 + 36 * r + 6 * g + b);
	}
	/* 8 colours: one bit per channel, bright channels only. */
	best = (c.r > 127 ? 1 : 0) | (c.g > 127 ? 2 : 0) | (c.b > 127 ? 4 : 0);
	return (short)best;
}

void colors_setup(const struct theme *t, bool color)
{
	short main_bg;

	color = color && has_colors();
	if (color) {
		start_color();
		use_default_colors();
	}
	main_bg = color ? rgb_to_color(t->c[THEME_MAIN_BG]) : -1;
	for (int i = 0; i < ROLES; i++) {
		short fg, bg;

		if (!color) {
			attrs[i] = roles[i].attr_mono;
			continue;
		}
		fg = rgb_to_color(t->c[roles[i].fg]);
		bg = roles[i].bg < 0 ? main_bg : rgb_to_color(t->c[roles[i].bg]);
		init_pair((short)(i + 1), fg, bg);
		attrs[i] = (int)COLOR_PAIR(i + 1) | roles[i].attr_color;
		/* A role whose colours are all the terminal's still needs to stand out. */
		if (fg < 0 && bg < 0)
			attrs[i] |= roles[i].attr_mono;
	}
	bkgdset((chtype)' ' | (chtype)attrs[ROLE_NORMAL]);
}

int role_attr(enum role r)
{
	return r < ROLES ? attrs[r] : 0;
}
