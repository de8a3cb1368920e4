/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Collector-owned tables: a collector publishes its data as named tables
 * ("display.crtcs") of typed columns, each column described once. JSON, replay,
 * batch text, the interface's tables and sparklines are driven by these
 * descriptors, so a new collector adds tables without touching the front ends.
 *
 * A cell is known or unknown: unknown is not zero (JSON null, "-" on screen).
 */
#ifndef GPUTOP_TABLE_H
#define GPUTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct histogram;

enum col_type {
	COL_STR, /* text (a name another user may choose: escape before printing) */
	COL_U64, /* counts, identifiers */
	COL_F64, /* rates, times, ratios */
	COL_BOOL, /* yes / no, kept in the cell's u as 0 or 1 */
	COL_HIST, /* a latency histogram (ns), for drill-down panes; JSON: [[low, count], ...] */
};

enum col_unit {
	UNIT_NONE, /* names and identifiers */
	UNIT_COUNT,
	UNIT_NS, /* nanoseconds */
	UNIT_BYTES,
	UNIT_PER_S, /* per second of the interval */
	UNIT_PCT,
	UNIT_HZ,
	UNIT_CELSIUS, /* degrees */
	UNIT_WATTS,
	UNIT_MHZ,
	UNIT_RPM, /* a fan's revolutions per minute */
	UNIT_BYTES_PER_S, /* bytes per second of the interval: shown "1.2MiB/s" */
};

enum col_flags {
	COL_KEY = 1 << 0, /* identifies the row (with the table's other key columns) */
	COL_HISTORY = 1 << 1, /* the interface keeps a sparkline of it */
	COL_ASCENDING = 1 << 2, /* sorts smallest first (names: A to Z) by default */
	COL_DETAIL = 1 << 3, /* in JSON and drill-down, not in the table on screen */
	COL_WIDE = 1 << 4, /* on screen only when the others leave room */
	COL_SPARK = 1 << 5, /* the history the table draws as its sparkline (else the first) */
	COL_CUMULATIVE = 1 << 6, /* a count since the start whose key has no "_total": a counter */
	COL_IF_KNOWN = 1 << 7, /* on screen only when a row knows it (a source this machine may lack) */
	COL_WITH_PREV = 1 << 8, /* on screen only beside the column before it (a limit beside its value) */
	COL_HEX = 1 << 9, /* a number shown in hex (an ioctl command), kept a number in JSON */
	COL_LONG = 1 << 10, /* text up to TABLE_LONG_STR_MAX (a call stack), not TABLE_STR_MAX */
	COL_SHORT_IDS = 1 << 11, /* on screen, a path's 32-or-more hex ids cut to 12 (as docker shows them) */
};

struct col_desc {
	const char *key; /* JSON key and config name: lower_case; "a.b" nests b in object a */
	const char *title; /* table header, at most width cells */
	const char *help; /* one line: what it is, for help and the man page */
	enum col_type type;
	enum col_unit unit;
	int width; /* cells on screen, title included */
	unsigned int flags; /* enum col_flags */
};

struct table_desc {
	const char *name; /* "collector.table": JSON key, pane declarations */
	const char *title; /* "CRTCs" */
	const char *empty; /* shown when the table has no rows */
	const char *gone; /* why a process left this PID-keyed table; NULL: "exited or stopped" */
	const struct col_desc *cols;
	unsigned int ncols;
	unsigned int sort_col; /* default sort column */
	bool derived; /* built from other tables (gpu.processes): no collector of its own to blame */
	const char *collector; /* whose it is where not the name's (nvidia.gpu_time: gpu_time's), or NULL */
};

struct cell {
	bool known;
	union {
		uint64_t u;
		double f;
		char *s; /* owned by the table */
		struct histogram *h; /* owned by the table */
	};
};

struct table {
	const struct table_desc *desc;
	size_t nrows, cap;
	struct cell *cells; /* nrows * desc->ncols, row-major */
};

#define TABLE_STR_MAX 256 /* longest text kept in a cell, in bytes */
#define TABLE_LONG_STR_MAX 4096 /* the same in a COL_LONG column */

struct table *table_new(const struct table_desc *d);
void table_free(struct table *t);
/* A new row, every cell unknown; NULL on allocation failure. */
struct cell *table_row_add(struct table *t);
/* Room for rows rows in all, made at once (a reader that knows how many are coming); -1 out of memory. */
int table_reserve(struct table *t, size_t rows);
struct cell *table_row(const struct table *t, size_t row);
/* Removes a row, freeing what its cells own; the rows after it move up. */
void table_row_remove(struct table *t, size_t row);
const struct cell *table_cell(const struct table *t, size_t row, unsigned int col);
void cell_set_u64(struct cell *row, unsigned int col, uint64_t v);
void cell_set_f64(struct cell *row, unsigned int col, double v);
/* Copies at most TABLE_STR_MAX - 1 bytes; a failed copy leaves the cell unknown. Once per cell. */
void cell_set_str(struct cell *row, unsigned int col, const char *v);
/* The longest text column c keeps, its NUL included: TABLE_STR_MAX, or TABLE_LONG_STR_MAX. */
size_t col_str_max(const struct col_desc *c);
/* cell_set_str for a COL_LONG column: at most TABLE_LONG_STR_MAX - 1 bytes. */
void cell_set_long_str(struct cell *row, unsigned int col, const char *v);
/* Copies the histogram; a failed copy leaves the cell unknown. Once per cell. */
void cell_set_hist(struct cell *row, unsigned int col, const struct histogram *h);
/* A new row of dst (src's own kind of table), a copy of src's row; NULL where the kinds differ or out of memory. */
struct cell *table_row_copy(struct table *dst, const struct table *src, size_t row);
/* The cell as a double (unknown and text: NAN). */
double cell_number(const struct table_desc *d, const struct cell *row, unsigned int col);
/* The column whose key is key, or -1. */
int table_col(const struct table_desc *d, const char *key);
#define TABLE_KEY_MAX 128 /* the bytes of a row's identity as table_row_key writes it (NUL included) */
/*
 * The row's identity: its key columns' values joined with '/'; one longer than size ends in '#' and
 * the hash of the whole (table_row_key_hash), so long names alike in their first bytes stay apart.
 */
void table_row_key(const struct table *t, size_t row, char *buf, size_t size);
/* A 64-bit hash of the row's key cells, exactly as they are (no text made of them). */
uint64_t table_row_key_hash(const struct table *t, size_t row);
/* Keeps the first row of each key (a recording may repeat one); returns how many went. */
size_t table_drop_duplicate_keys(struct table *t);
/* The row whose identity is key, or -1. */
long table_find_row(const struct table *t, const char *key);
/* Cell of column key as a number (NAN when unknown or no such column) or as text ("" likewise). */
double table_num(const struct table *t, size_t row, const char *key);
/* sum + v where v is known (not NAN): a sum of unknowns stays unknown, of any known value is known. */
double num_add_known(double sum, double v);
const char *table_str(const struct table *t, size_t row, const char *key);
/* table_num and table_str of column col (table_col's, found once for many rows; -1: none). */
double table_num_at(const struct table *t, size_t row, int col);
const char *table_str_at(const struct table *t, size_t row, int col);
/*
 * Every quantile column ("p99_ns", "wait_ns.p90", "interval_p50_ns") no greater
 * than its row's exact maximum (the same key with "max" for the quantile) where
 * both are known: an interpolated quantile never passes what was measured.
 */
void table_clamp_quantiles(struct table *t);
/* Sorted row indices (out has room for nrows); numbers follow the column's direction. */
void table_sort(const struct table *t, unsigned int col, bool reverse, size_t *out);

/*
 * Every table a collector publishes registers its descriptor, so the recording
 * reader knows it without any code of its own: TABLE_REGISTER(display_crtcs);
 */
#define TABLE_REGISTER(desc)                                                                \
	static const struct table_desc *const table_reg_##desc                             \
		__attribute__((used, section("gputop_tables"), aligned(sizeof(void *)))) = &desc

/* The registered descriptors. */
const struct table_desc *const *table_registry(size_t *n);
const struct table_desc *table_desc_find(const char *name);

#endif
