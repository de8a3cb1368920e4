/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Colour themes: themes/NAME.theme files, one theme[key]="#RRGGBB" per line
 * ("" = the terminal's colour). Missing keys take the default theme's value.
 * No curses here: tui/colors.c turns a theme into curses pairs.
 */
#ifndef GPUTOP_THEME_H
#define GPUTOP_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum theme_key {
	THEME_MAIN_FG, THEME_MAIN_BG, THEME_HEADER_FG, THEME_HEADER_BG, THEME_TITLE,
	THEME_LABEL, THEME_VALUE, THEME_DIM, THEME_SELECTED_FG, THEME_SELECTED_BG,
	THEME_METER_LOW, THEME_METER_MID, THEME_METER_HIGH, THEME_SPARK, THEME_WARNING,
	THEME_ERROR, THEME_KEY_FG, THEME_KEY_BG, THEME_KEYBAR_FG, THEME_KEYBAR_BG,
	THEME_KEYS,
};

struct theme_color {
	bool set; /* false: the terminal's own colour */
	unsigned char r, g, b;
};

struct theme {
	char name[64];
	struct theme_color c[THEME_KEYS];
};

/* The built-in themes, in the order t cycles through them. */
size_t theme_builtin_count(void);
const char *theme_builtin_name(size_t i);

/*
 * Loads a built-in theme by name, or a theme file by path (a name with '/' or
 * ending in .theme). Bad lines are skipped; the first is described in err as
 * "FILE:LINE: ..." and the function returns how many there were (0: clean),
 * or -1 when the theme cannot be found or read (out then holds the default).
 */
int theme_load(const char *name_or_path, struct theme *out, char *err, size_t errlen);
/* Parses theme text over what out already holds; same return and err as theme_load. */
int theme_parse(const char *text, const char *filename, struct theme *out, char *err,
		size_t errlen);

#endif
