// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/decimal.h"
#include "core/delay.h"
#include "core/privileges.h"
#include "tui/config.h"
#include "tui/lines.h"
#include "tui/user_file.h"
#include "model/table.h"

static const char *const pane_names[PANE_COUNT] = {
	"devices", "rings", "memory", "interrupts", "display", "processes",
};

const char *pane_name(enum pane pane)
{
	return pane < PANE_COUNT ? pane_names[pane] : "?";
}

void prefs_defaults(struct tui_prefs *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->theme, sizeof(p->theme), "default");
	p->delay_s = DELAY_DEFAULT_S;
	snprintf(p->ring_sort, sizeof(p->ring_sort), "completed_per_s");
	snprintf(p->proc_sort, sizeof(p->proc_sort), "gpu_pct");
	p->reverse = p->proc_reverse = false;
	p->vi_keys = false;
	for (int i = 0; i < PANE_COUNT; i++)
		p->panes[i] = true;
}

bool prefs_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	int n;

	if (xdg && *xdg)
		n = snprintf(buf, size, "%s/gputop-bpf/config", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.config/gputop-bpf/config", home);
	else
		return false;
	if (n < 0 || (size_t)n >= size) { /* never another file than the one named */
		buf[0] = '\0';
		return false;
	}
	return true;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/*
 * The column key a sort setting names: a key of the table, or one of the names
 * 0.1.0 wrote (jobs, busy ...); NULL when neither.
 */
static const char *sort_key(bool ring, const char *val)
{
	static const char *const ring_alias[][2] = {
		{ "device", "dev" },	      { "queue", "queue_depth" },  { "inflight", "in_flight" },
		{ "jobs", "completed_per_s" }, { "busy", "busy_pct" },	   { "wait", "wait_ns.p50" },
		{ "exec", "exec_ns.p50" },     { "total", "completed_total" },
	};
	/* share of all GPU time sorts as GPU% does; 0.1.0's jobs since start has no column now */
	static const char *const proc_alias[][2] = {
		{ "jobs", "jobs_per_s" }, { "gpu", "gpu_pct" }, { "share", "gpu_pct" },
		{ "gpu_share_pct", "gpu_pct" }, { "wait", "wait_mean_ns" }, { "mem", "mem_bytes" },
	};
	const struct table_desc *d = table_desc_find(ring ? "drm_sched.rings" : "gpu.processes");
	int col = d ? table_col(d, val) : -1;
	size_t n = ring ? sizeof(ring_alias) / sizeof(ring_alias[0]) :
			  sizeof(proc_alias) / sizeof(proc_alias[0]);

	if (col >= 0)
		return d->cols[col].key;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(val, ring ? ring_alias[i][0] : proc_alias[i][0]))
			return ring ? ring_alias[i][1] : proc_alias[i][1];
	return NULL;
}

static const char *parse_panes(char *v, struct tui_prefs *p)
{
	bool seen[PANE_COUNT] = { false };
	char *tok, *save = NULL;

	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		tok = trim(tok);
		for (i = 0; i < PANE_COUNT && strcmp(tok, pane_names[i]); i++)
			;
		if (i == PANE_COUNT)
			return "unknown pane (devices, rings, memory, interrupts, display, processes)";
		seen[i] = true;
	}
	memcpy(p->panes, seen, sizeof(seen));
	return NULL;
}

/* "table.column" of a column that may be hidden (a table's, not a key); NULL when not. */
static const struct col_desc *hideable(const char *entry, char *table, size_t size)
{
	const char *dot = strchr(entry, '.'); /* "collector.table", then the column's key (wait_ns.p50) */
	const struct table_desc *d;
	int col;

	if (dot)
		dot = strchr(dot + 1, '.');
	if (!dot || (size_t)(dot - entry) >= size)
		return NULL;
	snprintf(table, size, "%.*s", (int)(dot - entry), entry);
	d = table_desc_find(table);
	col = d ? table_col(d, dot + 1) : -1;
	return col >= 0 && !(d->cols[col].flags & COL_KEY) ? &d->cols[col] : NULL;
}

static const char *parse_hidden(char *v, struct tui_prefs *p)
{
	char list[sizeof(p->hidden_cols)] = "", *tok, *save = NULL, table[128];

	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(list);

		tok = trim(tok);
		if (!hideable(tok, table, sizeof(table)))
			return "unknown column (table.column of a table's column that is not its key)";
		if (len + strlen(tok) + 2 > sizeof(list))
			return "too many hidden columns";
		snprintf(list + len, sizeof(list) - len, "%s%s", len ? "," : "", tok);
	}
	memcpy(p->hidden_cols, list, sizeof(list));
	return NULL;
}

bool prefs_col_hidden(const struct tui_prefs *p, const char *table, const char *col)
{
	size_t tl = strlen(table), cl = strlen(col);

	for (const char *e = p->hidden_cols; *e; e += strcspn(e, ","), e += *e == ',') {
		size_t len = strcspn(e, ",");

		if (len == tl + 1 + cl && !strncmp(e, table, tl) && e[tl] == '.' && !strncmp(e + tl + 1, col, cl))
			return true;
	}
	return false;
}

bool prefs_col_toggle(struct tui_prefs *p, const char *table, const char *col)
{
	char entry[256], scratch[128], out[sizeof(p->hidden_cols)] = "";
	size_t n = 0;

	snprintf(entry, sizeof(entry), "%s.%s", table, col);
	if (!hideable(entry, scratch, sizeof(scratch)))
		return false;
	if (!prefs_col_hidden(p, table, col)) {
		n = strlen(p->hidden_cols);
		if (n + strlen(entry) + 2 > sizeof(p->hidden_cols))
			return false;
		snprintf(p->hidden_cols + n, sizeof(p->hidden_cols) - n, "%s%s", n ? "," : "", entry);
		return true;
	}
	for (const char *e = p->hidden_cols; *e; e += strcspn(e, ","), e += *e == ',') {
		int len = (int)strcspn(e, ",");

		if ((size_t)len == strlen(entry) && !strncmp(e, entry, (size_t)len))
			continue;
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%.*s", n ? "," : "", len, e);
	}
	memcpy(p->hidden_cols, out, sizeof(out));
	return true;
}

/* One "key = value" line; NULL or what is wrong. */
static const char *parse_line(char *line, struct tui_prefs *p)
{
	char *eq, *key, *val;

	line = trim(line);
	if (!*line || *line == '#')
		return NULL;
	eq = strchr(line, '=');
	if (!eq)
		return "expected key = value";
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!strcmp(key, "theme")) {
		if (!*val)
			return "empty theme";
		if (strlen(val) >= sizeof(p->theme))
			return "theme path too long (511 bytes at most)";
		snprintf(p->theme, sizeof(p->theme), "%s", val);
	} else if (!strcmp(key, "delay")) {
		if (delay_parse(val, &p->delay_s))
			return "delay must be seconds as " DECIMAL_TEXT_FORM " between " DELAY_RANGE_TEXT;
	} else if (!strcmp(key, "ring_sort") || !strcmp(key, "process_sort")) {
		bool ring = key[0] == 'r';
		const char *col = sort_key(ring, val);

		if (!col)
			return ring ? "unknown sort column (a column key of drm_sched.rings)" :
				      "unknown sort column (a column key of gpu.processes)";
		snprintf(ring ? p->ring_sort : p->proc_sort, sizeof(p->ring_sort), "%s", col);
	} else if (!strcmp(key, "reverse") || !strcmp(key, "process_reverse") || !strcmp(key, "vi_keys")) {
		bool *flag = key[0] == 'r' ? &p->reverse : key[0] == 'p' ? &p->proc_reverse : &p->vi_keys;

		if (strcmp(val, "yes") && strcmp(val, "no"))
			return key[0] == 'v' ? "vi_keys must be yes or no" : "reverse must be yes or no";
		*flag = !strcmp(val, "yes");
	} else if (!strcmp(key, "panes")) {
		return parse_panes(val, p);
	} else if (!strcmp(key, "hidden_columns")) {
		return parse_hidden(val, p);
	} else {
		return "unknown key (theme, delay, ring_sort, process_sort, reverse, process_reverse, vi_keys, panes, "
		       "hidden_columns)";
	}
	return NULL;
}

static const char *parse_prefs_line(char *line, void *ctx)
{
	return parse_line(line, ctx);
}

int prefs_parse(const char *text, const char *filename, struct tui_prefs *p, char *err,
		size_t errlen)
{
	return lines_parse(text, filename, parse_prefs_line, p, err, errlen);
}

int prefs_load(const char *path, struct tui_prefs *p, char *err, size_t errlen)
{
	char *text;
	int rc = user_file_read(path, &text, err, errlen);

	if (rc)
		return rc == -ENOENT ? 0 : -1;
	rc = prefs_parse(text, path, p, err, errlen);
	free(text);
	return rc;
}

static int mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

int prefs_save(const char *path, const struct tui_prefs *p)
{
	FILE *f;
	int err = mkdirs(path), first = 1;

	if (err)
		return err;
	f = privileges_fopen_as_user(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "# gputop-bpf settings, written by the interface (W). Lines: key = value.\n");
	fprintf(f, "theme = %s\ndelay = %g\n", p->theme, p->delay_s);
	fprintf(f, "ring_sort = %s\nprocess_sort = %s\n", p->ring_sort, p->proc_sort);
	fprintf(f, "reverse = %s\nprocess_reverse = %s\nvi_keys = %s\npanes = ", p->reverse ? "yes" : "no",
		p->proc_reverse ? "yes" : "no", p->vi_keys ? "yes" : "no");
	for (int i = 0; i < PANE_COUNT; i++)
		if (p->panes[i]) {
			fprintf(f, "%s%s", first ? "" : ",", pane_names[i]);
			first = 0;
		}
	fprintf(f, "\nhidden_columns = %s\n", p->hidden_cols);
	return fclose(f) ? -errno : 0;
}
