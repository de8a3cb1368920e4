// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/hex.h"
#include "tui/lines.h"
#include "tui/theme.h"
#include "themes_builtin.h"
#include "tui/user_file.h"

static const char *const key_names[THEME_KEYS] = {
	"main_fg", "main_bg", "header_fg", "header_bg", "title", "label", "value", "dim",
	"selected_fg", "selected_bg", "meter_low", "meter_mid", "meter_high", "spark",
	"warning", "error", "key_fg", "key_bg", "keybar_fg", "keybar_bg",
};

size_t theme_builtin_count(void)
{
	return sizeof(builtin_themes) / sizeof(builtin_themes[0]);
}

const char *theme_builtin_name(size_t i)
{
	return i < theme_builtin_count() ? builtin_themes[i].name : NULL;
}

/* "#RRGGBB" or "" */
static int parse_color(const char *v, struct theme_color *c)
{
	int d[6];

	if (!*v) {
		*c = (struct theme_color){ 0 };
		return 0;
	}
	if (v[0] != '#' || strlen(v) != 7)
		return -1;
	for (int i = 0; i < 6; i++)
		if ((d[i] = hex_digit(v[i + 1])) < 0)
			return -1;
	c->set = true;
	c->r = (unsigned char)(d[0] * 16 + d[1]);
	c->g = (unsigned char)(d[2] * 16 + d[3]);
	c->b = (unsigned char)(d[4] * 16 + d[5]);
	return 0;
}

/* One line: theme[key]="value". Returns NULL or what is wrong with it. */
static const char *parse_line(char *line, struct theme *t)
{
	char *key, *end, *val, *vend;

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '#')
		return NULL;
	if (strncmp(line, "theme[", 6))
		return "expected theme[key]=\"#RRGGBB\"";
	key = line + 6;
	end = strchr(key, ']');
	if (!end || end[1] != '=')
		return "expected theme[key]=\"#RRGGBB\"";
	*end = '\0';
	val = end + 2;
	if (*val != '"' || !(vend = strchr(val + 1, '"')))
		return "the value must be in double quotes";
	*vend = '\0';
	for (char *rest = vend + 1; *rest; rest++)
		if (*rest != ' ' && *rest != '\t' && *rest != '\r')
			return "unexpected text after the value";
	for (int i = 0; i < THEME_KEYS; i++)
		if (!strcmp(key, key_names[i]))
			return parse_color(val + 1, &t->c[i]) ? "not a colour: use \"#RRGGBB\" or \"\"" :
								 NULL;
	return "unknown key";
}

static const char *parse_theme_line(char *line, void *ctx)
{
	return parse_line(line, ctx);
}

int theme_parse(const char *text, const char *filename, struct theme *out, char *err,
		size_t errlen)
{
	return lines_parse(text, filename, parse_theme_line, out, err, errlen);
}

static int load_defaults(struct theme *out)
{
	char err[8];

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", builtin_themes[0].name);
	return theme_parse(builtin_themes[0].text, "default", out, err, sizeof(err));
}

int theme_load(const char *name_or_path, struct theme *out, char *err, size_t errlen)
{
	bool is_path = strchr(name_or_path, '/') ||
		       (strlen(name_or_path) > 6 &&
			!strcmp(name_or_path + strlen(name_or_path) - 6, ".theme"));
	const char *base;
	char *text, why[600];
	int bad, rc;

	load_defaults(out);
	if (!is_path) {
		for (size_t i = 0; i < theme_builtin_count(); i++)
			if (!strcmp(name_or_path, builtin_themes[i].name)) {
				snprintf(out->name, sizeof(out->name), "%s", builtin_themes[i].name);
				return theme_parse(builtin_themes[i].text, name_or_path, out, err, errlen);
			}
		snprintf(err, errlen, "no theme '%s' (built in: default, light, high-contrast, monochrome; or give a file)",
			 name_or_path);
		return -1;
	}
	rc = user_file_read(name_or_path, &text, why, sizeof(why));
	if (rc) {
		if (rc == -ENOENT)
			snprintf(err, errlen, "cannot read theme '%s': %s", name_or_path, strerror(ENOENT));
		else
			snprintf(err, errlen, "cannot read theme %s", why);
		return -1;
	}
	base = strrchr(name_or_path, '/') ? strrchr(name_or_path, '/') + 1 : name_or_path;
	snprintf(out->name, sizeof(out->name), "%.*s", (int)strcspn(base, "."), base);
	bad = theme_parse(text, name_or_path, out, err, errlen);
	free(text);
	return bad;
}
