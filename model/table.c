// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/decimal.h"
#include "model/histogram.h"
#include "model/table.h"

struct table *table_new(const struct table_desc *d)
{
	struct table *t = calloc(1, sizeof(*t));

	if (t)
		t->desc = d;
	return t;
}

/* Frees what the row's cells own. */
static void row_release(const struct table_desc *d, struct cell *row)
{
	for (unsigned int c = 0; c < d->ncols; c++)
		if (d->cols[c].type == COL_STR)
			free(row[c].s);
		else if (d->cols[c].type == COL_HIST)
			free(row[c].h);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->nrows; r++)
		row_release(t->desc, table_row(t, r));
	free(t->cells);
	free(t);
}

void table_row_remove(struct table *t, size_t row)
{
	size_t ncols = t->desc->ncols;

	if (row >= t->nrows)
		return;
	row_release(t->desc, table_row(t, row));
	memmove(&t->cells[row * ncols], &t->cells[(row + 1) * ncols],
		(t->nrows - row - 1) * ncols * sizeof(*t->cells));
	t->nrows--;
}

struct cell *table_row_add(struct table *t)
{
	size_t ncols = t->desc->ncols;
	struct cell *row;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		struct cell *p = reallocarray(t->cells, cap * ncols, sizeof(*p));

		if (!p)
			return NULL;
		t->cells = p;
		t->cap = cap;
	}
	row = &t->cells[t->nrows++ * ncols];
	memset(row, 0, ncols * sizeof(*row));
	return row;
}

int table_reserve(struct table *t, size_t rows)
{
	struct cell *p;

	if (rows <= t->cap)
		return 0;
	p = reallocarray(t->cells, rows, t->desc->ncols * sizeof(*p));
	if (!p)
		return -1;
	t->cells = p;
	t->cap = rows;
	return 0;
}

struct cell *table_row(const struct table *t, size_t row)
{
	return &t->cells[row * t->desc->ncols];
}

const struct cell *table_cell(const struct table *t, size_t row, unsigned int col)
{
	return &t->cells[row * t->desc->ncols + col];
}

void cell_set_u64(struct cell *row, unsigned int col, uint64_t v)
{
	row[col].u = v;
	row[col].known = true;
}

void cell_set_f64(struct cell *row, unsigned int col, double v)
{
	row[col].known = isfinite(v);
	row[col].f = row[col].known ? v : 0;
}

void cell_set_str(struct cell *row, unsigned int col, const char *v)
{
	row[col].s = v ? strndup(v, TABLE_STR_MAX - 1) : NULL;
	row[col].known = row[col].s != NULL;
}

size_t col_str_max(const struct col_desc *c)
{
	return c->flags & COL_LONG ? TABLE_LONG_STR_MAX : TABLE_STR_MAX;
}

void cell_set_long_str(struct cell *row, unsigned int col, const char *v)
{
	row[col].s = v ? strndup(v, TABLE_LONG_STR_MAX - 1) : NULL;
	row[col].known = row[col].s != NULL;
}

void cell_set_hist(struct cell *row, unsigned int col, const struct histogram *h)
{
	row[col].h = h ? malloc(sizeof(*h)) : NULL;
	if (row[col].h)
		memcpy(row[col].h, h, sizeof(*h));
	row[col].known = row[col].h != NULL;
}

struct cell *table_row_copy(struct table *dst, const struct table *src, size_t row)
{
	const struct cell *from = table_row(src, row);
	struct cell *to = dst->desc == src->desc ? table_row_add(dst) : NULL;

	for (unsigned int c = 0; to && c < dst->desc->ncols; c++)
		if (!from[c].known)
			continue;
		else if (dst->desc->cols[c].type == COL_STR && (dst->desc->cols[c].flags & COL_LONG))
			cell_set_long_str(to, c, from[c].s);
		else if (dst->desc->cols[c].type == COL_STR)
			cell_set_str(to, c, from[c].s);
		else if (dst->desc->cols[c].type == COL_HIST)
			cell_set_hist(to, c, from[c].h);
		else
			to[c] = from[c];
	return to;
}

double cell_number(const struct table_desc *d, const struct cell *row, unsigned int col)
{
	if (!row[col].known)
		return NAN;
	switch (d->cols[col].type) {
	case COL_U64:
	case COL_BOOL:
		return (double)row[col].u;
	case COL_F64:
		return row[col].f;
	default:
		return NAN;
	}
}

int table_col(const struct table_desc *d, const char *key)
{
	for (unsigned int c = 0; c < d->ncols; c++)
		if (!strcmp(d->cols[c].key, key))
			return (int)c;
	return -1;
}

/* Appends text (n bytes) at *len, as snprintf would: cut at size - 1, *len counting what did not fit. */
static void key_put(char *buf, size_t size, size_t *len, const char *text, size_t n)
{
	if (*len < size) {
		size_t fit = size - 1 - *len < n ? size - 1 - *len : n;

		memcpy(buf + *len, text, fit);
		buf[*len + fit] = '\0';
	}
	*len += n;
}

#define KEY_HASH_HEX 16

/* The row's identity, without printf: it runs for every row of every table once a snapshot. */
void table_row_key(const struct table *t, size_t row, char *buf, size_t size)
{
	const struct cell *cells = table_row(t, row);
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int c = 0; c < t->desc->ncols && len < size; c++) {
		const struct col_desc *col = &t->desc->cols[c];
		char num[32];

		if (!(col->flags & COL_KEY))
			continue;
		if (len)
			key_put(buf, size, &len, "/", 1);
		if (!cells[c].known) {
			key_put(buf, size, &len, "-", 1);
		} else if (col->type == COL_STR) {
			key_put(buf, size, &len, cells[c].s, strlen(cells[c].s));
		} else if (col->type == COL_U64 || col->type == COL_BOOL) {
			const char *d = decimal_u64(cells[c].u, num + sizeof(num));

			key_put(buf, size, &len, d, (size_t)(num + sizeof(num) - d));
		} else {
			int n = snprintf(num, sizeof(num), "%g", cells[c].f);

			key_put(buf, size, &len, num, n > 0 ? (size_t)n : 0);
		}
	}
	if (len >= size && size > 2 * KEY_HASH_HEX) /* cut: the whole's hash at its end */
		snprintf(buf + size - KEY_HASH_HEX - 2, KEY_HASH_HEX + 2, "#%016" PRIx64, table_row_key_hash(t, row));
}

long table_find_row(const struct table *t, const char *key)
{
	char buf[TABLE_KEY_MAX];

	for (size_t r = 0; t && r < t->nrows; r++) {
		table_row_key(t, r, buf, sizeof(buf));
		if (!strcmp(buf, key))
			return (long)r;
	}
	return -1;
}

double table_num_at(const struct table *t, size_t row, int col)
{
	return col < 0 ? NAN : cell_number(t->desc, table_row(t, row), (unsigned int)col);
}

double table_num(const struct table *t, size_t row, const char *key)
{
	return table_num_at(t, row, table_col(t->desc, key));
}

double num_add_known(double sum, double v)
{
	return isnan(v) ? sum : (isnan(sum) ? 0 : sum) + v;
}

const char *table_str_at(const struct table *t, size_t row, int col)
{
	const struct cell *c = col < 0 ? NULL : table_cell(t, row, (unsigned int)col);

	return c && c->known && t->desc->cols[col].type == COL_STR ? c->s : "";
}

const char *table_str(const struct table *t, size_t row, const char *key)
{
	return table_str_at(t, row, table_col(t->desc, key));
}

/*
 * How rows are ordered: the sort column, then the rows' totals (a rate's own
 * count since the start, else the table's first count), then the key columns
 * ascending, then the order they came in. Ties never fall to chance: a
 * 210-call row sits above 1-call rows when both do 0.0/s.
 */
#define SORT_KEYS_MAX 8

/* A row's sort key read once before sorting: the comparisons read these, not the cells. */
struct sort_val {
	const char *s; /* a text column's */
	double d; /* a number's */
	bool known;
};

struct sort_keys {
	const struct table *t;
	unsigned int col[SORT_KEYS_MAX];
	int sign[SORT_KEYS_MAX]; /* 1: smallest first */
	unsigned int n;
	const struct sort_val *vals; /* nrows x n */
};

/* qsort_r has no portable context argument: the keys of one call, per thread. */
static __thread struct sort_keys sort_keys;

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && !strcmp(s + n - m, end);
}

/* A count since the start: "x_total", or a counter flagged so. */
static bool is_count_total(const struct col_desc *c)
{
	return c->unit == UNIT_COUNT && c->type != COL_STR &&
	       (ends_with(c->key, "_total") || (c->flags & COL_CUMULATIVE));
}

/* The total of a rate column ("calls_per_s": "calls_total"); -1 where it has none. */
static int total_of_rate(const struct table_desc *d, unsigned int col)
{
	const char *k = d->cols[col].key;
	char name[128];

	if (!ends_with(k, "_per_s") || strlen(k) >= sizeof(name) - 8)
		return -1;
	snprintf(name, sizeof(name), "%.*s_total", (int)(strlen(k) - 6), k);
	return table_col(d, name);
}

/*
 * The totals that order rows equal in col: a rate's own, else the total of the table's default order
 * (GPU kernels: launches_total, not the handles counted before it), else the first count; -1.
 */
static int tie_total(const struct table_desc *d, unsigned int col)
{
	int c;

	if ((c = total_of_rate(d, col)) >= 0)
		return c;
	if (d->sort_col < d->ncols && d->sort_col != col && (c = total_of_rate(d, d->sort_col)) >= 0)
		return c;
	for (unsigned int i = 0; i < d->ncols; i++)
		if (i != col && is_count_total(&d->cols[i]))
			return (int)i;
	return -1;
}

static void sort_key_add(struct sort_keys *k, unsigned int col, int sign)
{
	for (unsigned int i = 0; i < k->n; i++)
		if (k->col[i] == col)
			return;
	if (k->n < SORT_KEYS_MAX) {
		k->col[k->n] = col;
		k->sign[k->n++] = sign;
	}
}

/* Two rows' values of one key: unknown last whatever the direction. */
static int cmp_val(const struct sort_val *x, const struct sort_val *y, bool text, int sign)
{
	int r;

	if (x->known != y->known)
		return x->known ? -1 : 1;
	if (!x->known)
		return 0;
	r = text ? strcmp(x->s, y->s) : x->d < y->d ? -1 : x->d > y->d;
	return r * sign;
}

static int cmp_rows(const void *a, const void *b)
{
	size_t ra = *(const size_t *)a, rb = *(const size_t *)b;
	const struct sort_keys *k = &sort_keys;

	for (unsigned int i = 0; i < k->n; i++) {
		int r = cmp_val(&k->vals[ra * k->n + i], &k->vals[rb * k->n + i],
				k->t->desc->cols[k->col[i]].type == COL_STR, k->sign[i]);

		if (r)
			return r;
	}
	return ra < rb ? -1 : ra > rb; /* stable */
}

/* Each row's keys, read once; NULL when memory ran out. */
static struct sort_val *sort_vals(const struct sort_keys *k)
{
	const struct table *t = k->t;
	struct sort_val *v = calloc(t->nrows * k->n, sizeof(*v));

	for (size_t r = 0; v && r < t->nrows; r++)
		for (unsigned int i = 0; i < k->n; i++) {
			const struct cell *c = table_cell(t, r, k->col[i]);
			struct sort_val *o = &v[r * k->n + i];

			o->known = c->known;
			if (t->desc->cols[k->col[i]].type == COL_STR)
				o->s = c->s;
			else
				o->d = cell_number(t->desc, table_row(t, r), k->col[i]);
		}
	return v;
}

void table_sort(const struct table *t, unsigned int col, bool reverse, size_t *out)
{
	const struct table_desc *d = t->desc;
	struct sort_keys k = { .t = t };
	struct sort_val *vals;
	int total;

	for (size_t i = 0; i < t->nrows; i++)
		out[i] = i;
	if (col >= d->ncols || t->nrows < 2)
		return;
	sort_key_add(&k, col, ((d->cols[col].flags & COL_ASCENDING) != 0) != reverse ? 1 : -1);
	total = tie_total(d, col);
	if (total >= 0) /* the larger total first, unless reversed */
		sort_key_add(&k, (unsigned int)total, reverse ? 1 : -1);
	for (unsigned int c = 0; c < d->ncols; c++)
		if (d->cols[c].flags & COL_KEY && d->cols[c].type != COL_HIST)
			sort_key_add(&k, c, 1);
	k.vals = vals = sort_vals(&k);
	if (!vals) /* out of memory: the rows as they came */
		return;
	sort_keys = k;
	qsort(out, t->nrows, sizeof(*out), cmp_rows);
	sort_keys.vals = NULL;
	free(vals);
}

extern const struct table_desc *const __start_gputop_tables[] __attribute__((weak));
extern const struct table_desc *const __stop_gputop_tables[] __attribute__((weak));

const struct table_desc *const *table_registry(size_t *n)
{
	*n = __start_gputop_tables ? (size_t)(__stop_gputop_tables - __start_gputop_tables) : 0;
	return __start_gputop_tables;
}

const struct table_desc *table_desc_find(const char *name)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(reg[i]->name, name))
			return reg[i];
	return NULL;
}

struct hashed_row {
	uint64_t hash;
	size_t row;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

uint64_t table_row_key_hash(const struct table *t, size_t row)
{
	const struct cell *cells = table_row(t, row);
	uint64_t h = 1469598103934665603ULL;

	for (unsigned int c = 0; c < t->desc->ncols; c++) {
		const struct col_desc *col = &t->desc->cols[c];

		if (!(col->flags & COL_KEY) || col->type == COL_HIST)
			continue;
		h = fnv(h, &cells[c].known, sizeof(cells[c].known));
		if (!cells[c].known)
			continue;
		if (col->type == COL_STR)
			h = fnv(h, cells[c].s, strlen(cells[c].s) + 1);
		else
			h = fnv(h, &cells[c].u, sizeof(cells[c].u)); /* a double's bits */
	}
	return h;
}

/* Whether the rows' key cells are the same key. */
static bool same_key(const struct table *t, size_t a, size_t b)
{
	const struct cell *x = table_row(t, a), *y = table_row(t, b);

	for (unsigned int c = 0; c < t->desc->ncols; c++) {
		const struct col_desc *col = &t->desc->cols[c];

		if (!(col->flags & COL_KEY) || col->type == COL_HIST)
			continue;
		if (x[c].known != y[c].known)
			return false;
		if (x[c].known && (col->type == COL_STR ? strcmp(x[c].s, y[c].s) != 0 : x[c].u != y[c].u))
			return false;
	}
	return true;
}

size_t table_drop_duplicate_keys(struct table *t)
{
	size_t ncols = t->desc->ncols, w = 0, dropped = 0, nslots = 64;
	struct hashed_row *slots; /* open addressing; row + 1, 0 empty */
	bool keyed = false;

	for (unsigned int c = 0; c < ncols; c++)
		keyed |= !!(t->desc->cols[c].flags & COL_KEY);
	if (t->nrows < 2 || !keyed) /* rows without a key are all different */
		return 0;
	while (nslots < 2 * t->nrows)
		nslots *= 2;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return 0;
	for (size_t r = 0; r < t->nrows; r++) {
		uint64_t h = table_row_key_hash(t, r);
		size_t k = h & (nslots - 1);
		bool dup = false;

		for (; slots[k].row; k = (k + 1) & (nslots - 1))
			if (slots[k].hash == h && same_key(t, slots[k].row - 1, r)) {
				dup = true; /* the first row of a key stays */
				break;
			}
		if (dup) {
			row_release(t->desc, table_row(t, r));
			dropped++;
			continue;
		}
		if (w != r)
			memcpy(&t->cells[w * ncols], &t->cells[r * ncols], ncols * sizeof(*t->cells));
		slots[k] = (struct hashed_row){ h, w + 1 }; /* where the row is now */
		w++;
	}
	t->nrows = w;
	free(slots);
	return dropped;
}

static const struct {
	const char *tag;
	double q;
} quantile_tags[] = { { "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 } };

/*
 * The column that holds what for quantile column c ("p99" -> "max" or "mean"
 * in its key), or -1; *q: the quantile's level.
 */
static int sibling_col(const struct table_desc *d, unsigned int c, const char *what, double *q)
{
	const char *key = d->cols[c].key;
	char other[96];

	for (size_t i = 0; i < sizeof(quantile_tags) / sizeof(quantile_tags[0]); i++) {
		const char *at = strstr(key, quantile_tags[i].tag);

		if (at && strlen(key) < sizeof(other)) {
			snprintf(other, sizeof(other), "%.*s%s%s", (int)(at - key), key, what, at + 3);
			*q = quantile_tags[i].q;
			return table_col(d, other);
		}
	}
	return -1;
}

/* Row r's quantile in column c kept within what its exact max (and mean, where kept) allow. */
static void clamp_cell(const struct table_desc *d, struct cell *row, unsigned int c, int m, int mean,
		       double q)
{
	double max = cell_number(d, row, (unsigned int)m);
	double avg = mean >= 0 ? cell_number(d, row, (unsigned int)mean) : NAN;

	if (!row[c].known || isnan(max))
		return;
	if (!isnan(avg) && avg <= max) /* at least max - (max - mean) / q: see histogram_summarize */
		row[c].f = fmax(row[c].f, max - (max - avg) / q);
	if (row[c].f > max)
		row[c].f = max;
}

void table_clamp_quantiles(struct table *t)
{
	const struct table_desc *d = t->desc;

	for (unsigned int c = 0; c < d->ncols; c++) {
		double q = 0;
		int m = d->cols[c].type == COL_F64 ? sibling_col(d, c, "max", &q) : -1;
		int mean = m >= 0 ? sibling_col(d, c, "mean", &q) : -1;

		for (size_t r = 0; m >= 0 && r < t->nrows; r++)
			clamp_cell(d, table_row(t, r), c, m, mean, q);
	}
}
