// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The recording reader: one pass of yajl's event parser over the line, each
 * value put straight where it belongs (a row's cell, a collector's field), with
 * no document tree in between: a 24 MB line of 50,000 processes took 370 ms
 * and hundreds of MB through json-c's tree, and takes tens of ms this way.
 * Every container is given a role when it opens, from its parent's role and
 * key; a value's meaning is its container's role and key. What is unknown or
 * of the wrong type is skipped; what would grow without bound is refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include "core/array.h"
#include "model/histogram.h"
#include "recording/json_read.h"
#include "core/version.h"

#define DEPTH_MAX 16 /* containers tracked; deeper ones are skipped whole */
#define KEY_MAX 64 /* a longer key matches nothing we read */
#define PATH_MAX_LEN 128 /* a cell's key inside its row, "a.b" */
#define PER_COLLECTOR_MAX 256 /* tracepoints, drop kinds */
#define COLLECTORS_MAX 256
#define DEVICES_MAX 4096

enum role {
	R_SKIP, /* nothing of ours inside */
	R_ROOT,
	R_HOST,
	R_COLLECTORS,
	R_COLLECTOR,
	R_TRACEPOINTS,
	R_TRACEPOINT,
	R_DROPS,
	R_DEVICES,
	R_DEVICE,
	R_TABLES,
	R_ROWS, /* a table's array of rows (format 3, or an older format's array) */
	R_ROW,
	R_ROW_MAP, /* an object inside a row: its keys are "outer.inner" */
	R_HIST, /* a histogram cell: [[low, count], ...] */
	R_HIST_PAIR,
};

/* The old formats' arrays at the root, read aside and kept only where the format had them. */
enum old_table { OLD_IRQ, OLD_RINGS, OLD_PROCS, OLD_PROC_RINGS, OLD_TABLES };

static const struct {
	const char *key, *table;
	uint64_t before_format; /* read from formats below this */
} old_tables[OLD_TABLES] = {
	[OLD_IRQ] = { "interrupts", "irq.lines", 2 },
	[OLD_RINGS] = { "rings", "drm_sched.rings", 3 },
	[OLD_PROCS] = { "processes", "drm_sched.processes", 3 },
	[OLD_PROC_RINGS] = { NULL, "drm_sched.process_rings", 3 }, /* "rings" of each process */
};

struct frame {
	enum role role;
	bool is_map;
	bool key_ok; /* key holds the current key (not too long, no NUL) */
	char key[KEY_MAX];
	struct table *table; /* R_ROWS, R_ROW, R_ROW_MAP, R_HIST */
	size_t row; /* R_ROW ..: the row's index in table */
	char path[PATH_MAX_LEN]; /* R_ROW_MAP: the keys from the row down to it, "a.b" */
	int col; /* R_HIST: the column */
	/* R_ROW of an old format's process: its "rings" rows start here, and whether it had a pid */
	size_t rings_from;
	bool has_pid;
	/* R_HIST_PAIR */
	unsigned int nvals;
	bool ints;
	uint64_t vals[2];
};

enum vtype { V_NULL, V_BOOL, V_INT, V_DOUBLE, V_STR };

struct value {
	enum vtype type;
	bool neg; /* V_INT below 0 (u holds nothing) */
	uint64_t u; /* V_INT at or above 0, V_BOOL */
	double d; /* V_DOUBLE, and V_INT as a double */
	const char *s; /* V_STR, not NUL-terminated */
	size_t len;
};

struct reader {
	struct snapshot *s;
	int rc; /* 0; -1 out of memory; -2 more rows or items than the line holds; -3 too many of a kind */
	const char *too_many; /* -3: of what */
	int depth; /* containers open; frames[depth - 1] the innermost, when depth <= DEPTH_MAX */
	struct frame f[DEPTH_MAX];
	/* the root's */
	bool root_seen, root_object, has_seq, has_tables, has_rings, has_error;
	uint64_t format;
	char version[64];
	double timestamp;
	size_t infos_cap, collectors_cap, devices_cap;
	struct table *old[OLD_TABLES];
	int col_hint; /* the column after the last one matched: rows repeat their keys' order */
	struct json_read_hints *hints; /* NULL: none */
};

/* Takes cells from the snapshot's read budget; false (nothing taken) when it has too few left. */
static bool budget_take(struct snapshot *s, size_t cells)
{
	if (s->read_budget < cells)
		return false;
	s->read_budget -= cells;
	return true;
}

static void copy_str(char *dst, size_t size, const struct value *v)
{
	size_t n = v->type == V_STR ? v->len : 0;

	if (n >= size)
		n = size - 1;
	memcpy(dst, n ? v->s : "", n);
	dst[n] = '\0';
}

/* A count: 0 when negative, not finite, out of range or not a number (the cast would be undefined). */
static uint64_t value_u64(const struct value *v)
{
	if (v->type == V_INT)
		return v->neg ? 0 : v->u;
	if (v->type == V_DOUBLE && v->d >= 0 && v->d < 1.8e19)
		return (uint64_t)v->d;
	return 0;
}

static double value_num(const struct value *v)
{
	return v->type == V_INT || v->type == V_DOUBLE ? v->d : 0;
}

/* Frees what a cell held, for a key given twice in one row: the last one counts. */
static void cell_clear(const struct col_desc *col, struct cell *c)
{
	if (c->known && col->type == COL_STR)
		free(c->s);
	else if (c->known && col->type == COL_HIST)
		free(c->h);
	memset(c, 0, sizeof(*c));
}

/* Fills one cell from v; a null or mistyped value leaves it unknown. */
static void cell_from(struct reader *r, const struct col_desc *col, struct cell *row, unsigned int c,
		      const struct value *v)
{
	cell_clear(col, &row[c]);
	switch (col->type) {
	case COL_STR:
		if (v->type == V_STR && budget_take(r->s, v->len / sizeof(struct cell) + 1)) {
			size_t max = col_str_max(col) - 1;

			row[c].s = strndup(v->s, v->len < max ? v->len : max);
			row[c].known = row[c].s != NULL;
		}
		break;
	case COL_U64:
		if ((v->type == V_INT && !v->neg) ||
		    (v->type == V_DOUBLE && v->d >= 0 && v->d < 1.8e19)) /* in range: the cast is defined */
			cell_set_u64(row, c, value_u64(v));
		break;
	case COL_F64:
		if (v->type == V_INT || v->type == V_DOUBLE) /* not finite: unknown */
			cell_set_f64(row, c, v->d);
		break;
	case COL_BOOL:
		if (v->type == V_BOOL)
			cell_set_u64(row, c, v->u);
		break;
	case COL_HIST: /* an array, handled as one */
		break;
	}
}

static struct frame *top(struct reader *r)
{
	return r->depth > 0 && r->depth <= DEPTH_MAX ? &r->f[r->depth - 1] : NULL;
}

/* The column of key in d: rows repeat their keys in one order, so the one after the last matched first. */
static int find_col(struct reader *r, const struct table_desc *d, const char *key)
{
	unsigned int hint = r->col_hint >= 0 && (unsigned int)r->col_hint < d->ncols ? (unsigned int)r->col_hint : 0;

	for (unsigned int k = 0; k < d->ncols; k++) {
		unsigned int c = (hint + k) % d->ncols;

		if (d->cols[c].key[0] == key[0] && !strcmp(d->cols[c].key, key)) {
			r->col_hint = (int)c + 1;
			return (int)c;
		}
	}
	return -1;
}

/* The key of a value in row frame p ("key", or "path.key" inside an object of the row); NULL if none. */
static const char *row_key(const struct frame *p, char *buf, size_t size)
{
	size_t plen, klen;

	if (!p->key_ok)
		return NULL;
	if (p->role == R_ROW)
		return p->key;
	plen = strlen(p->path);
	klen = strlen(p->key);
	if (plen + 1 + klen >= size)
		return NULL;
	memcpy(buf, p->path, plen); /* no printf: once for every nested value */
	buf[plen] = '.';
	memcpy(buf + plen + 1, p->key, klen + 1);
	return buf;
}

/* Room for the rows the last line had in this table, and an eighth more, within the line's budget. */
static int reserve_rows(struct reader *r, struct table *t)
{
	size_t want = 0;

	for (size_t i = 0; r->hints && i < r->hints->n; i++)
		if (r->hints->tables[i].desc == t->desc)
			want = r->hints->tables[i].rows + r->hints->tables[i].rows / 8;
	if (want > r->s->read_budget / t->desc->ncols)
		want = r->s->read_budget / t->desc->ncols;
	return want > 8 ? table_reserve(t, want) : 0;
}

/* Remembers each table's rows for the next line. */
static void learn_rows(struct json_read_hints *h, const struct snapshot *s)
{
	if (!h)
		return;
	h->n = 0;
	for (size_t i = 0; i < s->ntables && h->n < sizeof(h->tables) / sizeof(h->tables[0]); i++) {
		h->tables[h->n].desc = s->tables[i]->desc;
		h->tables[h->n++].rows = s->tables[i]->nrows;
	}
}

static struct table *new_table(struct reader *r, const char *name, bool aside, enum old_table which)
{
	const struct table_desc *d = table_desc_find(name);
	struct table *t, **grown;

	if (!d || (!aside && snapshot_table(r->s, name)))
		return NULL; /* not ours, or given twice: the first one counts */
	if (aside) {
		if (!r->old[which])
			r->old[which] = table_new(d);
		if (!r->old[which])
			r->rc = -1;
		return r->old[which];
	}
	t = table_new(d);
	grown = t ? reallocarray(r->s->tables, r->s->ntables + 1, sizeof(*grown)) : NULL;
	if (!grown || (t && reserve_rows(r, t))) {
		table_free(t);
		r->rc = -1;
		return NULL;
	}
	r->s->tables = grown;
	r->s->tables[r->s->ntables++] = t;
	return t;
}

static struct collector_status *cur_collector(struct reader *r)
{
	return r->s->ncollectors ? &r->s->collectors[r->s->ncollectors - 1] : NULL;
}

static struct collector_info *cur_info(struct reader *r)
{
	return r->s->ninfos ? &r->s->infos[r->s->ninfos - 1] : NULL;
}

static bool refuse(struct reader *r, const char *what)
{
	r->rc = -3;
	r->too_many = what;
	return false;
}

/* Takes an item of size bytes from the read budget; false (the parse stops) when it ran out. */
static bool item_budget(struct reader *r, size_t size)
{
	if (budget_take(r->s, size / sizeof(struct cell) + 1))
		return true;
	r->rc = -2;
	return false;
}

/* A container under the root's key k: the part of the snapshot it holds (an old format's tables too). */
static void open_in_root(struct reader *r, const char *k, bool is_map, struct frame *f)
{
	if (!k)
		return;
	if (!strcmp(k, "tables"))
		r->has_tables = true;
	else if (!strcmp(k, "rings"))
		r->has_rings = true;
	else if (!strcmp(k, "error"))
		r->has_error = true;
	if (is_map && !strcmp(k, "host"))
		f->role = R_HOST;
	else if (!is_map && !strcmp(k, "collectors"))
		f->role = R_COLLECTORS;
	else if (!is_map && !strcmp(k, "devices"))
		f->role = R_DEVICES;
	else if (is_map && !strcmp(k, "tables"))
		f->role = R_TABLES;
	for (enum old_table o = 0; !is_map && o < OLD_TABLES; o++)
		if (old_tables[o].key && !strcmp(k, old_tables[o].key)) {
			f->role = R_ROWS;
			f->table = new_table(r, old_tables[o].table, true, o);
		}
}

/* A collector's object in "collectors": its info and status, the state failed until one is read. */
static bool open_collector(struct reader *r, struct frame *f)
{
	if (r->s->ncollectors >= COLLECTORS_MAX)
		return refuse(r, "collectors");
	if (!item_budget(r, sizeof(struct collector_info) + sizeof(struct collector_status)))
		return false;
	if (!array_push(&r->s->infos, &r->s->ninfos, &r->infos_cap, sizeof(*r->s->infos))) {
		r->rc = -1;
		return false;
	}
	if (!array_push(&r->s->collectors, &r->s->ncollectors, &r->collectors_cap, sizeof(*r->s->collectors))) {
		r->s->ninfos--; /* zeroed: nothing of its own to free */
		r->rc = -1;
		return false;
	}
	cur_info(r)->state = COLLECTOR_FAILED; /* until a known state is read */
	f->role = R_COLLECTOR;
	return r->rc == 0;
}

/* A tracepoint's object in a collector's "tracepoints", failed until its state is read. */
static bool open_tracepoint(struct reader *r, struct frame *f)
{
	if (cur_info(r)->ntracepoints >= PER_COLLECTOR_MAX)
		return refuse(r, "tracepoints in a collector");
	if (!item_budget(r, sizeof(struct tracepoint_status)))
		return false;
	if (!collector_info_add_tracepoint(cur_info(r))) {
		r->rc = -1;
		return false;
	}
	cur_info(r)->tracepoints[cur_info(r)->ntracepoints - 1].state = TRACEPOINT_FAILED;
	f->role = R_TRACEPOINT;
	return r->rc == 0;
}

/* A device's object in "devices". */
static bool open_device(struct reader *r, struct frame *f)
{
	if (r->s->ndevices >= DEVICES_MAX)
		return refuse(r, "devices");
	if (!item_budget(r, sizeof(struct device_snap)))
		return false;
	if (!array_push(&r->s->devices, &r->s->ndevices, &r->devices_cap, sizeof(*r->s->devices))) {
		r->rc = -1;
		return false;
	}
	f->role = R_DEVICE;
	return r->rc == 0;
}

/* A row's object in table p's array: a new row, every cell unknown. */
static bool open_row(struct reader *r, struct frame *p, struct frame *f)
{
	if (!budget_take(r->s, p->table->desc->ncols)) {
		r->rc = -2; /* more rows than a line of its size holds */
		return false;
	}
	if (!table_row_add(p->table)) {
		r->rc = -1;
		return false;
	}
	f->role = R_ROW;
	f->table = p->table;
	f->row = p->table->nrows - 1;
	r->col_hint = 0;
	if (p->table == r->old[OLD_PROCS]) /* its "rings" rows start at the end of that table */
		f->rings_from = r->old[OLD_PROC_RINGS] ? r->old[OLD_PROC_RINGS]->nrows : 0;
	return r->rc == 0;
}

/* A histogram's array in column col of p's row: built in the cell's own memory, set when it closes. */
static bool open_hist(struct reader *r, struct frame *p, int col, struct frame *f)
{
	struct cell *row;

	if (!budget_take(r->s, sizeof(struct histogram) / sizeof(struct cell) + 1))
		return r->rc == 0;
	cell_clear(&p->table->desc->cols[col], table_row(p->table, p->row) + col);
	f->role = R_HIST;
	f->table = p->table;
	f->row = p->row;
	f->col = col;
	f->vals[0] = 0;
	row = table_row(p->table, p->row);
	row[col].h = calloc(1, sizeof(struct histogram));
	if (!row[col].h) {
		r->rc = -1;
		return false;
	}
	row[col].known = true;
	return true;
}

/* A container in a row (or an object of one): a nested path, a histogram, an old format's rings. */
static bool open_in_row(struct reader *r, struct frame *p, bool is_map, struct frame *f)
{
	char buf[PATH_MAX_LEN];
	const char *key = row_key(p, buf, sizeof(buf));
	int col = key && !is_map ? find_col(r, p->table->desc, key) : -1; /* maps are paths */

	if (key && is_map && strlen(key) < sizeof(f->path)) {
		f->role = R_ROW_MAP;
		f->table = p->table;
		f->row = p->row;
		memcpy(f->path, key, strlen(key) + 1);
	} else if (col >= 0 && !is_map && p->table->desc->cols[col].type == COL_HIST) {
		if (!open_hist(r, p, col, f) || f->role != R_HIST)
			return r->rc == 0;
	} else if (p->role == R_ROW && !is_map && p->table == r->old[OLD_PROCS] && key && !strcmp(key, "rings")) {
		f->role = R_ROWS; /* an old format's rings of one process: process_rings rows */
		f->table = new_table(r, old_tables[OLD_PROC_RINGS].table, true, OLD_PROC_RINGS);
	}
	if (p->role == R_ROW && p->table == r->old[OLD_PROCS] && key && !strcmp(key, "pid"))
		p->has_pid = true;
	return r->rc == 0;
}

/* The role of a container opening in parent p (NULL at the root); false stops the parse. */
static bool open_role(struct reader *r, struct frame *p, bool is_map, struct frame *f)
{
	const char *k = p && p->is_map && p->key_ok ? p->key : NULL;

	f->role = R_SKIP;
	if (!p) {
		r->root_seen = true;
		r->root_object = is_map;
		if (is_map)
			f->role = R_ROOT;
		return true;
	}
	switch (p->role) {
	case R_ROOT:
		open_in_root(r, k, is_map, f);
		break;
	case R_COLLECTORS:
		if (is_map && !open_collector(r, f))
			return false;
		break;
	case R_COLLECTOR:
		if (k && !is_map && !strcmp(k, "tracepoints"))
			f->role = R_TRACEPOINTS;
		else if (k && is_map && !strcmp(k, "drops"))
			f->role = R_DROPS;
		break;
	case R_TRACEPOINTS:
		if (is_map && !open_tracepoint(r, f))
			return false;
		break;
	case R_DEVICES:
		if (is_map && !open_device(r, f))
			return false;
		break;
	case R_TABLES:
		if (k && !is_map) {
			f->table = new_table(r, k, false, 0);
			f->role = f->table ? R_ROWS : R_SKIP;
		}
		break;
	case R_ROWS:
		if (is_map && p->table && !open_row(r, p, f))
			return false;
		break;
	case R_ROW:
	case R_ROW_MAP:
		return open_in_row(r, p, is_map, f);
	case R_HIST:
		if (!is_map) {
			f->role = R_HIST_PAIR;
			f->nvals = 0;
			f->ints = true;
			f->table = p->table;
			f->row = p->row;
			f->col = p->col;
		}
		break;
	default:
		break;
	}
	return r->rc == 0;
}

static int on_open(struct reader *r, bool is_map)
{
	struct frame *p = top(r), *f;

	if (r->depth >= DEPTH_MAX || (r->depth > 0 && !p)) {
		r->depth++; /* too deep: skipped whole */
		return 1;
	}
	f = &r->f[r->depth];
	memset(f, 0, sizeof(*f));
	f->is_map = is_map;
	if (!open_role(r, p, is_map, f))
		return 0;
	r->depth++;
	return 1;
}

/* An old format's process closes: its rings get its pid; without a pid they are not kept. */
static void close_old_process(struct reader *r, const struct frame *f)
{
	struct table *pr = r->old[OLD_PROC_RINGS];
	int pid_col, ring_pid_col;
	const struct cell *pid;

	if (!pr || pr->nrows <= f->rings_from)
		return;
	pid_col = table_col(f->table->desc, "pid");
	ring_pid_col = table_col(pr->desc, "pid");
	if (!f->has_pid || pid_col < 0 || ring_pid_col < 0) {
		while (pr->nrows > f->rings_from)
			table_row_remove(pr, pr->nrows - 1);
		return;
	}
	pid = table_cell(f->table, f->row, (unsigned int)pid_col);
	for (size_t i = f->rings_from; i < pr->nrows; i++) {
		struct cell *c = table_row(pr, i) + ring_pid_col;

		c->known = pid->known;
		c->u = pid->u;
	}
}

static int on_close(void *ctx)
{
	struct reader *r = ctx;
	struct frame *f = top(r);

	r->depth--;
	if (!f)
		return 1;
	if (f->role == R_HIST_PAIR && f->nvals == 2 && f->ints) {
		struct frame *h = &r->f[r->depth - 1];
		struct histogram *hist = table_row(h->table, h->row)[h->col].h;

		hist->slots[hist_slot(f->vals[0])] += f->vals[1];
	} else if (f->role == R_ROW && f->table == r->old[OLD_PROCS]) {
		close_old_process(r, f);
	}
	return 1;
}

/* The index of the string v in names, or otherwise (not a string, or none of them). */
static int name_index(const struct value *v, const char *const *names, unsigned int n, int otherwise)
{
	char text[32];

	copy_str(text, sizeof(text), v);
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(text, names[i]))
			return (int)i;
	return otherwise;
}

static void collector_field(struct reader *r, const char *k, const struct value *v)
{
	static const char *const states[] = { "attached", "unavailable", "failed" };
	struct collector_info *info = cur_info(r);

	if (!strcmp(k, "name"))
		copy_str(info->name, sizeof(info->name), v);
	else if (!strcmp(k, "description"))
		copy_str(info->description, sizeof(info->description), v);
	else if (!strcmp(k, "reason"))
		copy_str(info->reason, sizeof(info->reason), v);
	else if (!strcmp(k, "fix"))
		copy_str(info->fix, sizeof(info->fix), v);
	else if (!strcmp(k, "detail"))
		copy_str(cur_collector(r)->detail, sizeof(cur_collector(r)->detail), v);
	else if (!strcmp(k, "state"))
		info->state = (enum collector_state)name_index(v, states, 3, COLLECTOR_FAILED);
}

static void tracepoint_field(struct reader *r, const char *k, const struct value *v)
{
	static const char *const states[] = { "attached", "available", "missing", "failed" };
	struct collector_info *info = cur_info(r);
	struct tracepoint_status *tp = &info->tracepoints[info->ntracepoints - 1];

	if (!strcmp(k, "group"))
		copy_str(tp->group, sizeof(tp->group), v);
	else if (!strcmp(k, "event"))
		copy_str(tp->event, sizeof(tp->event), v);
	else if (!strcmp(k, "note"))
		copy_str(tp->note, sizeof(tp->note), v);
	else if (!strcmp(k, "state"))
		tp->state = (enum tracepoint_state)name_index(v, states, 4, TRACEPOINT_FAILED);
}

static void root_field(struct reader *r, const char *k, const struct value *v)
{
	struct snapshot *s = r->s;

	if (v->type != V_NULL) {
		r->has_seq |= !strcmp(k, "seq");
		r->has_tables |= !strcmp(k, "tables");
		r->has_rings |= !strcmp(k, "rings");
		r->has_error |= !strcmp(k, "error");
	}
	if (!strcmp(k, "seq"))
		s->seq = value_u64(v);
	else if (!strcmp(k, "format"))
		r->format = value_u64(v);
	else if (!strcmp(k, "version"))
		copy_str(r->version, sizeof(r->version), v);
	else if (!strcmp(k, "interval_s"))
		s->interval_s = isfinite(value_num(v)) && value_num(v) > 0 ? value_num(v) : 0;
	else if (!strcmp(k, "uptime_s"))
		s->uptime_s = isfinite(value_num(v)) && value_num(v) > 0 ? value_num(v) : 0;
	else if (!strcmp(k, "timestamp"))
		r->timestamp = value_num(v);
}

/* A collector's count of drops of kind k; false stops the parse. */
static bool drop_field(struct reader *r, const char *k, const struct value *v)
{
	if (cur_collector(r)->ndrops >= PER_COLLECTOR_MAX)
		return refuse(r, "drop kinds in a collector");
	if (!item_budget(r, sizeof(struct drop_count)))
		return false;
	if (collector_status_set_drop(cur_collector(r), k, value_u64(v))) {
		r->rc = -1;
		return false;
	}
	return true;
}

static void device_field(struct reader *r, const char *k, const struct value *v)
{
	struct device_snap *d = &r->s->devices[r->s->ndevices - 1];

	if (!strcmp(k, "name"))
		copy_str(d->name, sizeof(d->name), v);
	else if (!strcmp(k, "driver"))
		copy_str(d->driver, sizeof(d->driver), v);
	else if (!strcmp(k, "bus_id"))
		copy_str(d->bus_id, sizeof(d->bus_id), v);
}

/* One value that is not a container, in the innermost container open. */
static int on_value(struct reader *r, const struct value *v)
{
	struct frame *p = top(r);
	const char *k;

	if (!r->depth) { /* a line that is one number or string */
		r->root_seen = true;
		return 1;
	}
	if (!p)
		return 1;
	k = p->is_map && p->key_ok ? p->key : NULL;
	switch (p->role) {
	case R_ROOT:
		if (k)
			root_field(r, k, v);
		break;
	case R_HOST:
		if (k && !strcmp(k, "hostname"))
			copy_str(r->s->hostname, sizeof(r->s->hostname), v);
		else if (k && !strcmp(k, "kernel"))
			copy_str(r->s->kernel, sizeof(r->s->kernel), v);
		break;
	case R_COLLECTOR:
		if (k)
			collector_field(r, k, v);
		break;
	case R_TRACEPOINT:
		if (k)
			tracepoint_field(r, k, v);
		break;
	case R_DROPS:
		if (k && !drop_field(r, k, v))
			return 0;
		break;
	case R_DEVICE:
		if (k)
			device_field(r, k, v);
		break;
	case R_ROW:
	case R_ROW_MAP: {
		char buf[PATH_MAX_LEN];
		const char *key = row_key(p, buf, sizeof(buf));
		int col = key ? find_col(r, p->table->desc, key) : -1;

		if (p->role == R_ROW && p->table == r->old[OLD_PROCS] && key && !strcmp(key, "pid") &&
		    v->type != V_NULL)
			p->has_pid = true;
		if (col >= 0)
			cell_from(r, &p->table->desc->cols[col], table_row(p->table, p->row), (unsigned int)col, v);
		break;
	}
	case R_HIST_PAIR:
		if (p->nvals < 2) {
			p->ints &= v->type == V_INT && (p->nvals == 0 || !v->neg);
			p->vals[p->nvals] = v->type == V_INT && !v->neg ? v->u : 0;
		}
		p->nvals++;
		break;
	default:
		break;
	}
	return r->rc == 0;
}

static int on_null(void *ctx)
{
	return on_value(ctx, &(struct value){ .type = V_NULL });
}

static int on_bool(void *ctx, int b)
{
	return on_value(ctx, &(struct value){ .type = V_BOOL, .u = b ? 1 : 0 });
}

/*
 * A decimal of at most 15 significant digits and a power of ten up to 22, as
 * the recordings' rates and times are: one exact multiply or divide (rounded
 * once, as strtod rounds); false for anything else, left to strtod.
 */
static bool fast_double(const char *s, size_t len, double *out)
{
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,
					1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
					1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int digits = 0, e10 = 0, exp = 0, exp_sign = 1;
	bool neg = len && s[0] == '-';
	size_t i = neg;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if ((m = m * 10 + (uint64_t)(s[i] - '0')) && ++digits > 15)
			return false;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, e10--)
			if ((m = m * 10 + (uint64_t)(s[i] - '0')) && ++digits > 15)
				return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			exp_sign = s[i++] == '-' ? -1 : 1;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if ((exp = exp * 10 + (s[i] - '0')) > 1000)
				return false;
	}
	e10 += exp_sign * exp;
	if (i != len || e10 < -22 || e10 > 22)
		return false;
	*out = e10 < 0 ? (double)m / pow10[-e10] : (double)m * pow10[e10];
	if (neg)
		*out = -*out;
	return true;
}

/* A number as written: integers exactly (to 2^64 - 1), anything else as a double. */
static int on_number(void *ctx, const char *s, size_t len)
{
	struct value v = { .type = V_INT };
	size_t i = 0;
	char buf[64], *copy = buf;

	if (len && s[0] == '-')
		i = v.neg = true;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned int digit = (unsigned int)(s[i] - '0');

		if (v.u >= UINT64_MAX / 10 && (v.u > UINT64_MAX / 10 || digit > UINT64_MAX % 10))
			break; /* beyond 2^64 - 1: a double */
		v.u = v.u * 10 + digit;
	}
	if (i == len && len > (size_t)v.neg && !(v.neg && v.u > (uint64_t)INT64_MAX + 1)) {
		v.d = v.neg ? -(double)v.u : (double)v.u;
		v.neg = v.neg && v.u; /* -0 is 0 */
		if (v.neg)
			v.u = 0;
		return on_value(ctx, &v);
	}
	v = (struct value){ .type = V_DOUBLE };
	if (fast_double(s, len, &v.d))
		return on_value(ctx, &v);
	if (len >= sizeof(buf) && !(copy = malloc(len + 1))) {
		((struct reader *)ctx)->rc = -1;
		return 0;
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	v = (struct value){ .type = V_DOUBLE, .d = strtod(copy, NULL) };
	if (copy != buf)
		free(copy);
	return on_value(ctx, &v);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	return on_value(ctx, &(struct value){ .type = V_STR, .s = (const char *)s, .len = len });
}

static int on_start_map(void *ctx)
{
	return on_open(ctx, true);
}

static int on_start_array(void *ctx)
{
	return on_open(ctx, false);
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct reader *r = ctx;
	struct frame *f = top(r);

	if (!f)
		return 1;
	f->key_ok = len < sizeof(f->key) && !memchr(s, '\0', len);
	if (f->key_ok) {
		memcpy(f->key, s, len);
		f->key[len] = '\0';
	}
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_close,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_close,
};

struct pid_row {
	double pid;
	size_t row;
};

static int by_pid_then_row(const void *a, const void *b)
{
	const struct pid_row *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Each process's ring_names, joined from its process_rings rows (sorted by pid once: linear-log). */
static void old_ring_names(struct snapshot *s)
{
	struct table *procs = NULL;
	const struct table *pr = snapshot_table(s, "drm_sched.process_rings");
	struct pid_row *by_pid;
	int col;

	for (size_t i = 0; i < s->ntables; i++)
		if (!strcmp(s->tables[i]->desc->name, "drm_sched.processes"))
			procs = s->tables[i];
	col = procs ? table_col(procs->desc, "ring_names") : -1;
	if (col < 0 || !pr || !pr->nrows)
		return;
	by_pid = calloc(pr->nrows, sizeof(*by_pid));
	if (!by_pid)
		return;
	for (size_t k = 0; k < pr->nrows; k++)
		by_pid[k] = (struct pid_row){ table_num(pr, k, "pid"), k };
	qsort(by_pid, pr->nrows, sizeof(*by_pid), by_pid_then_row);
	for (size_t i = 0; i < procs->nrows; i++) {
		double pid = table_num(procs, i, "pid");
		size_t lo = 0, hi = pr->nrows;
		char names[256] = "";

		if (table_cell(procs, i, (unsigned int)col)->known)
			continue;
		while (lo < hi) { /* the first row of pid */
			size_t mid = lo + (hi - lo) / 2;

			if (by_pid[mid].pid < pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < pr->nrows && by_pid[k].pid == pid; k++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? "," : "", table_str(pr, by_pid[k].row, "name"));
		cell_set_str(table_row(procs, i), (unsigned int)col, names);
	}
	free(by_pid);
}

/* The old formats' arrays join the snapshot where its format had them and "tables" did not. */
static int adopt_old_tables(struct reader *r)
{
	struct snapshot *s = r->s;

	for (enum old_table o = 0; o < OLD_TABLES; o++) {
		struct table *t = r->old[o], **grown;

		r->old[o] = NULL;
		if (!t || r->format >= old_tables[o].before_format ||
		    snapshot_table(s, old_tables[o].table)) {
			table_free(t);
			continue;
		}
		grown = reallocarray(s->tables, s->ntables + 1, sizeof(*grown));
		if (!grown) {
			table_free(t);
			return -1;
		}
		s->tables = grown;
		s->tables[s->ntables++] = t;
	}
	if (r->format < 3)
		old_ring_names(s);
	return 0;
}

/* The parse's outcome as a snapshot, or NULL with err set. */
static struct snapshot *finish(struct reader *r, char *err, size_t errlen)
{
	struct snapshot *s = r->s;

	for (size_t i = 0; i < s->ncollectors; i++) /* the infos are where they finally lie */
		s->collectors[i].info = &s->infos[i];
	if (!r->root_object || !r->has_seq || (!r->has_tables && !r->has_rings)) {
		snprintf(err, errlen, "%s", r->root_object && r->has_error ?
					   "an error record, not a snapshot" :
					   "not a gputop-bpf snapshot (no \"seq\" or \"tables\")");
		goto fail;
	}
	if (r->format > RECORDING_FORMAT) {
		snprintf(err, errlen,
			 "recording format %llu, made by gputop-bpf %s; this build reads formats 1 to %d: "
			 "replay it with that version or newer",
			 (unsigned long long)r->format, r->version[0] ? r->version : "(unknown)",
			 RECORDING_FORMAT);
		goto fail;
	}
	if (isfinite(r->timestamp) && r->timestamp >= 0 && r->timestamp < 1e15) { /* to the ms, as written */
		long long ms = llround(r->timestamp * 1e3);

		s->wall.tv_sec = (time_t)(ms / 1000);
		s->wall.tv_nsec = (long)(ms % 1000) * 1000000L;
	}
	if (adopt_old_tables(r)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < s->ntables; i++)
		table_drop_duplicate_keys(s->tables[i]); /* one row per key, as the collectors make them */
	learn_rows(r->hints, s);
	return s;
fail:
	for (enum old_table o = 0; o < OLD_TABLES; o++)
		table_free(r->old[o]);
	snapshot_free(s);
	return NULL;
}

struct snapshot *snapshot_from_json(const char *line, char *err, size_t errlen)
{
	return snapshot_from_json_hinted(line, NULL, err, errlen);
}

struct snapshot *snapshot_from_json_hinted(const char *line, struct json_read_hints *hints, char *err,
					   size_t errlen)
{
	struct reader r = { .hints = hints };
	size_t len = strlen(line);
	yajl_handle h;
	yajl_status st;

	r.s = calloc(1, sizeof(*r.s));
	h = r.s ? yajl_alloc(&callbacks, NULL, &r) : NULL;
	if (!h) {
		free(r.s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* what its tables may allocate: 8 bytes per byte of the line, at most */
	r.s->read_budget = len / 2 + 4096;
	yajl_config(h, yajl_dont_validate_strings, 1); /* names are bytes: shown escaped, never decoded */
	st = yajl_parse(h, (const unsigned char *)line, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	if (st != yajl_status_ok) {
		if (r.rc == -1) {
			snprintf(err, errlen, "out of memory");
		} else if (r.rc == -2) {
			snprintf(err, errlen, "more rows than a line of %zu bytes holds: not a snapshot gputop-bpf wrote",
				 len);
		} else if (r.rc == -3) {
			snprintf(err, errlen, "more %s than gputop-bpf writes: not a snapshot it wrote", r.too_many);
		} else {
			unsigned char *e = yajl_get_error(h, 0, NULL, 0);
			size_t n = e ? strcspn((char *)e, "\n") : 0;

			snprintf(err, errlen, "not JSON: %.*s", (int)n, e ? (char *)e : "");
			if (e)
				yajl_free_error(h, e);
		}
		yajl_free(h);
		for (enum old_table o = 0; o < OLD_TABLES; o++)
			table_free(r.old[o]);
		snapshot_free(r.s);
		return NULL;
	}
	yajl_free(h);
	return finish(&r, err, errlen);
}
