// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Table and column names written as text outside the collectors resolve against the registry:
 * a collector that renames a table or a column fails here with the file and line of every
 * reader it leaves behind, instead of emptying a screen in silence.
 *
 * The product's sources (core model format symbols output recording tui src) are read as C
 * tokens. A literal is a table name where it has a table's form and a collector's prefix
 * ("nvidia.gpus") or where it is the table argument of a lookup (table_args); it is a column
 * key where it is the key argument of a column lookup (key_args), the string compared with a
 * column's key (strcmp(c->key, "pid")) or a column element of a named array (row_rules).
 * A key is checked against its own table where that is known: the table its lookup's table
 * argument is (a variable assigned a lookup's table in the same function, "t = snapshot_table(s,
 * "x")", or EACH_ROW's; its ->desc; a lookup called as the argument), or its array row's table.
 * Otherwise (a table given as a parameter) it must be a column of a table named in the same
 * function, else of one named in the same file; where the file names none, or the function reads
 * any table (generic_keys), of some registered table. Assignments are followed in the order of
 * the text, not of the flow. A new lookup helper joins key_args. NAMES_LIST=1 prints every name
 * found and the table it is checked against. Run from the tree's root (make test-unit).
 */
#include "tests/unit/cmocka_all.h"
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/gpu_processes.h"
#include "model/table.h"

/* The rooms outside the collectors whose sources are read. */
static const char *const rooms[] = { "core", "model", "format", "symbols", "output", "recording", "tui", "src" };

/* Lookups whose argument arg is a table's name. */
static const struct arg_rule {
	const char *fn;
	int arg;
} table_args[] = {
	{ "snapshot_table", 1 },
	{ "table_desc_find", 0 },
	{ "EACH_ROW", 1 },
};

/*
 * Lookups whose argument arg is a column's key of the table argument table_arg (file: only that
 * file's function of the name).
 */
static const struct key_rule {
	const char *fn;
	int arg, table_arg;
	const char *file;
} key_args[] = {
	{ "table_num", 2, 0, NULL },	      { "table_str", 2, 0, NULL },
	{ "table_col", 1, 0, NULL },	      { "num_or_0", 2, 0, NULL },
	{ "draw_spark_row", 6, 4, NULL },     { "device_row", 1, 0, "tui/draw_devices.c" },
	{ "hist", 2, 0, "tui/pane_sched.c" }, { "bytes", 2, 0, "tui/pane_memory.c" },
};

/*
 * Arrays of rows that name columns (file, the array's name): in each row, the elements at
 * the indices (up to 3, 0 ends) are keys of table, or where table is NULL of the table the
 * row's first element names.
 */
static const struct row_rule {
	const char *file, *array;
	int idx[3];
	const char *table;
} row_rules[] = {
	{ "output/trace_counters.c", "series", { 1, 2, 3 }, NULL },
	{ "tui/config.c", "ring_alias", { 1 }, "drm_sched.rings" },
	{ "tui/config.c", "proc_alias", { 1 }, "gpu.processes" },
};

/* Keys a function reads of any table it is given (a generic probe): a column of some table. */
static const struct generic_key {
	const char *file, *key, *why; /* why: the reason, for the reader */
} generic_keys[] = {
	{ "tui/stacks_view.c", "pid", "the selected row of any table: its process" },
	{ "tui/table_view.c", "cgroup", "any table's rows grouped by their cgroup" },
};

#define MAX_LITS 4096
#define MAX_DEPTH 64
#define MAX_ARGS 8
#define MAX_BINDS 32

enum lit_kind { LIT_TABLE, LIT_KEY };

struct lit {
	char file[128];
	int line;
	int fn; /* the file's top-level brace it is in (its function), 0 outside any */
	enum lit_kind kind;
	char text[96];
	char table[64]; /* a key's own table, where its row names it ("" where its scope says) */
};

struct frame {
	char open; /* ( { [ */
	char callee[64]; /* the identifier before '(' */
	int arg; /* the argument being read */
	bool arg_is_key_member; /* the first argument so far ends in "->key" or ".key" */
	char owner[64]; /* a brace's: the array it initializes */
	char row_table[64]; /* a brace's: the table its first element names */
	char lit_table[64]; /* a table lookup's: the table its literal names */
	char bind_var[64]; /* a table lookup's: the variable it is assigned to (t = snapshot_table(...)) */
	char arg_text[96]; /* the argument's tokens so far, joined */
	int arg_tokens;
	char nested_table[64]; /* the table a lookup called at the argument's start names */
	char arg_table[MAX_ARGS][64]; /* the table each argument read is known to be ("" unknown) */
};

/* A variable of the function being read that holds a lookup's table (t = snapshot_table(s, "x")). */
struct binding {
	char var[64], table[64];
};

struct scan {
	struct lit *lits;
	size_t nlits;
	const char *path;
	int line, fn;
	struct frame stack[MAX_DEPTH];
	int depth;
	char prev_ident[64];
	char prev_punct[3]; /* "->", ".", "(", "," ... of the token before the current one */
	bool prev_was_ident;
	bool member_key; /* the last tokens were "->key" / ".key" */
	char assigned[64]; /* the identifier before the last '=' */
	char before_ident[3]; /* the punctuation before the last identifier */
	struct binding binds[MAX_BINDS];
	size_t nbinds;
};

static bool table_form(const char *s)
{
	const char *dot = strchr(s, '.');

	if (!dot || dot == s || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (const char *p = s; *p; p++)
		if (!(*p == '.' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* A registered table's collector part ("nvidia" of "nvidia.gpus"). */
static bool table_prefix(const char *s)
{
	size_t n, len = strcspn(s, ".");
	const struct table_desc *const *reg = table_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (!strncmp(reg[i]->name, s, len) && reg[i]->name[len] == '.')
			return true;
	return false;
}

static struct binding *find_binding(struct scan *sc, const char *var)
{
	for (size_t i = 0; i < sc->nbinds; i++)
		if (!strcmp(sc->binds[i].var, var))
			return &sc->binds[i];
	return NULL;
}

/* var holds table from here on in its function; "" forgets it. */
static void bind(struct scan *sc, const char *var, const char *table)
{
	struct binding *b = find_binding(sc, var);

	if (!b && table[0] && sc->nbinds < MAX_BINDS)
		b = &sc->binds[sc->nbinds++];
	if (b) {
		snprintf(b->var, sizeof(b->var), "%s", var);
		snprintf(b->table, sizeof(b->table), "%s", table);
	}
}

/* Whether f is a call of a table lookup and arg its table's argument. */
static bool table_arg(const struct frame *f, int arg)
{
	for (size_t i = 0; f && f->open == '(' && i < sizeof(table_args) / sizeof(table_args[0]); i++)
		if (!strcmp(f->callee, table_args[i].fn) && arg == table_args[i].arg)
			return true;
	return false;
}

/*
 * The argument f ended: the table it is where that is known (a variable bound to one, its
 * ->desc, or a lookup called as the whole argument); EACH_ROW's row variable bound to its table.
 */
static void end_arg(struct scan *sc, struct frame *f)
{
	const char *text = f->arg_text, *arrow = strstr(text, "->");
	char var[96] = "";
	struct binding *b;

	if (f->arg >= MAX_ARGS)
		return;
	if (f->arg_tokens == 1)
		snprintf(var, sizeof(var), "%s", text);
	else if (f->arg_tokens == 3 && arrow && !strcmp(arrow, "->desc"))
		snprintf(var, sizeof(var), "%.*s", (int)(arrow - text), text);
	f->arg_table[f->arg][0] = '\0';
	if (f->arg_tokens == 3 && f->nested_table[0])
		snprintf(f->arg_table[f->arg], sizeof(f->arg_table[0]), "%s", f->nested_table);
	else if (var[0] && (b = find_binding(sc, var)))
		snprintf(f->arg_table[f->arg], sizeof(f->arg_table[0]), "%s", b->table);
	if (!strcmp(f->callee, "EACH_ROW") && f->arg == 2 && f->arg_tokens == 1)
		bind(sc, text, f->lit_table);
	f->arg_text[0] = '\0';
	f->arg_tokens = 0;
	f->nested_table[0] = '\0';
}

/* A token in the argument being read (not its ',' or the call's ')'). */
static void on_token(struct scan *sc, const char *text)
{
	struct frame *f = sc->depth ? &sc->stack[sc->depth - 1] : NULL;
	size_t len;

	if (!f)
		return;
	len = strlen(f->arg_text);
	snprintf(f->arg_text + len, sizeof(f->arg_text) - len, "%s", text);
	f->arg_tokens++;
}

static struct lit *add_lit(struct scan *sc, enum lit_kind kind, const char *text)
{
	struct lit *l;

	if (sc->nlits >= MAX_LITS)
		fail_msg("more than %d names: raise MAX_LITS", MAX_LITS);
	l = &sc->lits[sc->nlits++];
	snprintf(l->file, sizeof(l->file), "%s", sc->path);
	snprintf(l->text, sizeof(l->text), "%s", text);
	l->line = sc->line;
	l->fn = sc->fn;
	l->kind = kind;
	return l;
}

/* A literal in a row of an array of row_rules: a key of its table, or nothing. */
static bool on_row_string(struct scan *sc, struct frame *f, const char *text)
{
	for (size_t i = 0; i < sizeof(row_rules) / sizeof(row_rules[0]); i++) {
		const struct row_rule *r = &row_rules[i];
		const char *table = r->table ? r->table : f->row_table;

		if (strcmp(r->file, sc->path) || strcmp(r->array, f->owner))
			continue;
		for (int j = 0; j < 3 && r->idx[j]; j++)
			if (f->arg == r->idx[j]) {
				snprintf(add_lit(sc, LIT_KEY, text)->table, sizeof(f->row_table), "%s", table);
				return true;
			}
	}
	return false;
}

/* A string literal read at the top of the stack: a table name, a column key or neither. */
static void on_string(struct scan *sc, const char *text)
{
	struct frame *f = sc->depth ? &sc->stack[sc->depth - 1] : NULL;

	if (table_arg(f, f ? f->arg : -1))
		snprintf(f->lit_table, sizeof(f->lit_table), "%s", text);
	if (table_form(text) && table_prefix(text)) {
		add_lit(sc, LIT_TABLE, text);
		if (f && f->open == '{' && f->arg == 0)
			snprintf(f->row_table, sizeof(f->row_table), "%s", text);
		return;
	}
	if (f && f->open == '{' && f->owner[0] && on_row_string(sc, f, text))
		return;
	if (!f || f->open != '(')
		return;
	if (table_arg(f, f->arg)) {
		add_lit(sc, LIT_TABLE, text);
		return;
	}
	for (size_t i = 0; i < sizeof(key_args) / sizeof(key_args[0]); i++)
		if (!strcmp(f->callee, key_args[i].fn) && f->arg == key_args[i].arg &&
		    (!key_args[i].file || !strcmp(key_args[i].file, sc->path))) {
			struct lit *l = add_lit(sc, LIT_KEY, text);

			if (key_args[i].table_arg < MAX_ARGS)
				snprintf(l->table, sizeof(l->table), "%s", f->arg_table[key_args[i].table_arg]);
			return;
		}
	if (!strcmp(f->callee, "strcmp") && f->arg == 1 && f->arg_is_key_member)
		add_lit(sc, LIT_KEY, text);
}

static void on_punct(struct scan *sc, char c)
{
	struct frame *f;

	if (c == '(' || c == '{' || c == '[') {
		if (!sc->depth && c == '{') {
			sc->fn++;
			sc->nbinds = 0;
		}
		if (sc->depth >= MAX_DEPTH)
			fail_msg("%s:%d: nested deeper than %d", sc->path, sc->line, MAX_DEPTH);
		f = &sc->stack[sc->depth++];
		f->open = c;
		f->row_table[0] = '\0';
		f->owner[0] = '\0';
		if (c == '{' && !strcmp(sc->prev_punct, "="))
			snprintf(f->owner, sizeof(f->owner), "%s", sc->assigned);
		else if (c == '{' && sc->depth > 1 && f[-1].open == '{')
			snprintf(f->owner, sizeof(f->owner), "%s", f[-1].owner);
		f->arg = 0;
		f->arg_is_key_member = false;
		snprintf(f->callee, sizeof(f->callee), "%s", c == '(' && sc->prev_was_ident ? sc->prev_ident : "");
		f->lit_table[0] = f->arg_text[0] = f->nested_table[0] = '\0';
		f->arg_tokens = 0;
		snprintf(f->bind_var, sizeof(f->bind_var), "%s",
			 table_arg(f, 0) || table_arg(f, 1) ? (!strcmp(sc->before_ident, "=") ? sc->assigned : "") :
							      "");
	} else if (c == ')' || c == '}' || c == ']') {
		if (!sc->depth)
			return;
		f = &sc->stack[--sc->depth];
		if (c == ')')
			end_arg(sc, f);
		if (f->bind_var[0])
			bind(sc, f->bind_var, f->lit_table);
		if (sc->depth && f->open == '(' && f[-1].open == '(' && f[-1].arg_tokens == 2)
			snprintf(f[-1].nested_table, sizeof(f[-1].nested_table), "%s", f->lit_table);
		on_token(sc, ")");
	} else if (c == '=') {
		snprintf(sc->assigned, sizeof(sc->assigned), "%s", sc->prev_ident);
		bind(sc, sc->prev_ident, ""); /* assigned anew: a lookup's close binds it again */
	} else if (c == ',' && sc->depth) {
		f = &sc->stack[sc->depth - 1];
		if (f->arg == 0)
			f->arg_is_key_member = sc->member_key;
		end_arg(sc, f);
		f->arg++;
	}
}

static const char *skip_comment_or_space(struct scan *sc, const char *p)
{
	for (;;) {
		if (*p == '\n') {
			sc->line++;
			p++;
		} else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\\') {
			p++;
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			for (const char *q = p; q < (end ? end : p + strlen(p)); q++)
				sc->line += *q == '\n';
			p = end ? end + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

/* A quoted token from p (its quote); the text without escapes into buf, "" where it has any. */
static const char *read_quoted(struct scan *sc, const char *p, char *buf, size_t size)
{
	char q = *p++;
	size_t n = 0;
	bool escaped = false;

	while (*p && *p != q) {
		if (*p == '\\') {
			escaped = true;
			p++;
		}
		if (*p == '\n')
			sc->line++;
		if (*p && n + 1 < size)
			buf[n++] = *p;
		if (*p)
			p++;
	}
	buf[escaped ? 0 : n] = '\0';
	return *p ? p + 1 : p;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void scan_text(struct scan *sc, const char *p)
{
	bool line_start = true;

	while (*p) {
		int line = sc->line;
		char buf[256];

		p = skip_comment_or_space(sc, p);
		line_start = line_start || sc->line != line;
		if (!*p)
			break;
		if (*p == '#' && line_start && !strncmp(p + 1 + strspn(p + 1, " \t"), "include", 7)) {
			p += strcspn(p, "\n");
			continue;
		}
		line_start = false;
		if (*p == '"' || *p == '\'') {
			bool str = *p == '"';

			p = read_quoted(sc, p, buf, sizeof(buf));
			if (str)
				on_string(sc, buf);
			on_token(sc, "\"");
			sc->prev_was_ident = false;
			sc->member_key = false;
		} else if (*p >= '0' && *p <= '9') {
			while (ident_char(*p) || *p == '.')
				p++;
			on_token(sc, "0");
			sc->prev_was_ident = false;
			sc->prev_punct[0] = '\0';
		} else if (ident_char(*p)) {
			size_t n = 0;

			while (ident_char(*p)) {
				if (n + 1 < sizeof(sc->prev_ident))
					sc->prev_ident[n++] = *p;
				p++;
			}
			sc->prev_ident[n] = '\0';
			on_token(sc, sc->prev_ident);
			snprintf(sc->before_ident, sizeof(sc->before_ident), "%s", sc->prev_punct);
			sc->member_key = !strcmp(sc->prev_ident, "key") &&
					 (!strcmp(sc->prev_punct, "->") || !strcmp(sc->prev_punct, "."));
			sc->prev_was_ident = true;
			sc->prev_punct[0] = '\0';
		} else {
			/* "->" and the comparisons ("==", "<=" ...) are one token; no '=' of theirs assigns */
			bool two = (p[0] == '-' && p[1] == '>') || (strchr("=!<>", p[0]) && p[1] == '=');

			if (two)
				on_token(sc, p[0] == '-' ? "->" : "==");
			else if (!strchr(",)]}", *p))
				on_token(sc, (char[2]){ *p, '\0' });
			if (!two)
				on_punct(sc, *p);
			snprintf(sc->prev_punct, sizeof(sc->prev_punct), "%.*s", two ? 2 : 1, p);
			p += two ? 2 : 1;
			sc->prev_was_ident = false;
		}
	}
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = calloc(1, (size_t)size + 1);
		if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every .c and .h of the rooms, read into sc->lits; how many files. */
static size_t scan_rooms(struct scan *sc)
{
	size_t files = 0;

	for (size_t r = 0; r < sizeof(rooms) / sizeof(rooms[0]); r++) {
		struct dirent **names;
		int n = scandir(rooms[r], &names, NULL, by_name);

		if (n < 0)
			fail_msg("%s: not found: run from the tree's root", rooms[r]);
		for (int i = 0; i < n; i++) {
			const char *name = names[i]->d_name;
			size_t len = strlen(name);
			char path[256];
			char *text;

			if (len > 2 && name[len - 2] == '.' && (name[len - 1] == 'c' || name[len - 1] == 'h')) {
				snprintf(path, sizeof(path), "%s/%s", rooms[r], name);
				text = read_all(path);
				if (!text)
					fail_msg("%s: unreadable", path);
				sc->path = path;
				sc->line = 1;
				sc->fn = 0;
				sc->depth = 0;
				scan_text(sc, text);
				free(text);
				files++;
			}
			free(names[i]);
		}
		free(names);
	}
	return files;
}

static bool has_col(const char *table, const char *key)
{
	const struct table_desc *d = table_desc_find(table);

	return d && table_col(d, key) >= 0;
}

/* Whether a registered table has a column of the key. */
static bool any_has_col(const char *key)
{
	size_t n;
	const struct table_desc *const *reg = table_registry(&n);

	for (size_t i = 0; i < n; i++)
		if (table_col(reg[i], key) >= 0)
			return true;
	return false;
}

/*
 * The key is a column of a table named in its function, else of one named in its file; where
 * the file names none, or reads any table given (generic_keys), of some registered table.
 */
static bool key_resolves(const struct scan *sc, const struct lit *k, const char **scope)
{
	bool in_file = false;

	if (k->table[0]) {
		*scope = k->table; /* its own: the row's, or the lookup's table argument */
		return has_col(k->table, k->text);
	}
	for (size_t i = 0; i < sizeof(generic_keys) / sizeof(generic_keys[0]); i++)
		if (!strcmp(generic_keys[i].file, k->file) && !strcmp(generic_keys[i].key, k->text)) {
			*scope = "any registered table";
			return any_has_col(k->text);
		}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sc->nlits; i++) {
			const struct lit *t = &sc->lits[i];

			if (t->kind != LIT_TABLE || strcmp(t->file, k->file) || (!pass && t->fn != k->fn))
				continue;
			in_file = true;
			if (has_col(t->text, k->text))
				return true;
		}
	*scope = in_file ? "the tables its function or file names" : "any registered table";
	return !in_file && any_has_col(k->text);
}

static void names_resolve(void **state)
{
	struct scan sc = { .lits = calloc(MAX_LITS, sizeof(struct lit)) };
	size_t files, tables = 0, keys = 0, own = 0, bad = 0, ntables;

	(void)state;
	assert_non_null(sc.lits);
	table_registry(&ntables);
	assert_true(ntables > 20);
	/* the derived table registers itself too: linked in by this reference */
	assert_ptr_equal(table_desc_find(gpu_processes_table.name), &gpu_processes_table);
	files = scan_rooms(&sc);
	for (size_t i = 0; i < sc.nlits; i++) {
		const struct lit *l = &sc.lits[i];
		const char *scope;

		if (getenv("NAMES_LIST")) /* every name found, with what it resolves against */
			printf("    %s:%d: %s \"%s\"%s%s\n", l->file, l->line, l->kind == LIT_TABLE ? "table" : "key",
			       l->text, l->table[0] ? " of " : "", l->table);
		if (l->kind == LIT_TABLE) {
			tables++;
			if (!table_desc_find(l->text)) {
				printf("    %s:%d: \"%s\": no registered table of the name\n", l->file, l->line,
				       l->text);
				bad++;
			}
		} else {
			keys++;
			own += l->table[0] != '\0';
			if (!key_resolves(&sc, l, &scope)) {
				printf("    %s:%d: \"%s\": no column of the key in %s\n", l->file, l->line, l->text,
				       scope);
				bad++;
			}
		}
	}
	printf("    %zu files, %zu registered tables: %zu table names and %zu column keys written as text (%zu of "
	       "them against their own table), %zu unresolved\n",
	       files, ntables, tables, keys, own, bad);
	assert_true(tables > 50 && keys > 100); /* the scan saw them: a scanner that reads nothing passes nothing */
	assert_int_equal(bad, 0);
	free(sc.lits);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_resolve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
