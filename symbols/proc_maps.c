// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/sysroot.h"
#include "symbols/proc_maps.h"
#include "symbols/text.h"

static const char deleted_suffix[] = " (deleted)";

/* "rwxp": four characters, each its letter or '-', the last 'p' or 's'. */
static bool parse_perms(const char **p, const char *end, struct map *m)
{
	const char *s = *p;
	static const char letters[] = "rwx";
	int i;

	if (end - s < 4)
		return false;
	for (i = 0; i < 3; i++)
		if (s[i] != letters[i] && s[i] != '-')
			return false;
	if (s[3] != 'p' && s[3] != 's')
		return false;
	m->exec = s[2] == 'x';
	*p = s + 4;
	return true;
}

/* "fd:01": two hex numbers that fit a device number's major (12 bits) and minor (20 bits). */
static bool parse_dev(const char **p, const char *end, struct map *m)
{
	uint64_t major, minor;

	if (!text_hex(p, end, &major) || *p >= end || **p != ':')
		return false;
	(*p)++;
	if (!text_hex(p, end, &minor) || major > 0xfff || minor > 0xfffff)
		return false;
	m->dev_major = (uint32_t)major;
	m->dev_minor = (uint32_t)minor;
	return true;
}

static bool parse_decimal(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s == *p)
		return false;
	*p = s;
	*out = v;
	return true;
}

/* The name after the fields: a path, a [bracketed] name, or nothing. */
static int parse_name(const char *s, const char *end, struct map *m, char *path, size_t size)
{
	size_t n = (size_t)(end - s), sl = sizeof(deleted_suffix) - 1;

	if (n >= size || memchr(s, '\0', n))
		return -EINVAL;
	if (n == 0) {
		m->kind = m->inode ? MAP_KIND_FILE : MAP_KIND_ANON;
	} else if (s[0] == '[' && s[n - 1] == ']') {
		m->kind = n == 6 && !memcmp(s, "[vdso]", 6) ? MAP_KIND_VDSO : MAP_KIND_SPECIAL;
	} else if (s[0] == '/') {
		m->kind = MAP_KIND_FILE;
		if (n > sl && !memcmp(s + n - sl, deleted_suffix, sl)) {
			m->deleted = true;
			n -= sl;
		}
	} else {
		m->kind = MAP_KIND_SPECIAL; /* memfd:, /SYSV (has '/'), anon_inode:... */
	}
	if (m->kind == MAP_KIND_FILE && !m->inode)
		m->kind = MAP_KIND_SPECIAL; /* not a file we could open and check */
	memcpy(path, s, n);
	path[n] = '\0';
	return 0;
}

int proc_maps_parse_line(const char *line, size_t len, struct map *m, char *path, size_t size)
{
	const char *p = line, *end = line + len;

	memset(m, 0, sizeof(*m));
	if (!size)
		return -EINVAL;
	path[0] = '\0';
	if (!text_hex(&p, end, &m->start) || p >= end || *p++ != '-' ||
	    !text_hex(&p, end, &m->end) || m->end <= m->start || !text_skip_blanks(&p, end) ||
	    !parse_perms(&p, end, m) || !text_skip_blanks(&p, end) ||
	    !text_hex(&p, end, &m->offset) || !text_skip_blanks(&p, end) ||
	    !parse_dev(&p, end, m) || !text_skip_blanks(&p, end) ||
	    !parse_decimal(&p, end, &m->inode))
		return -EINVAL;
	if (m->offset > UINT64_MAX - (m->end - m->start))
		return -EINVAL;
	if (p < end && !text_skip_blanks(&p, end))
		return -EINVAL; /* "123abc": the inode runs into the name */
	return parse_name(p, end, m, path, size);
}

static int by_start(const void *a, const void *b)
{
	const struct map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int add(struct proc_maps *t, const struct map *m, const char *path)
{
	size_t n = strlen(path) + 1;
	struct map *slot;

	if (t->n >= PROC_MAPS_MAX) {
		t->full = true;
		return 0;
	}
	if (t->pool_len + n > t->pool_cap) {
		size_t cap = t->pool_cap ? t->pool_cap : 4096;
		char *q;

		while (cap < t->pool_len + n)
			cap *= 2;
		q = realloc(t->pool, cap);
		if (!q)
			return -ENOMEM;
		t->pool = q;
		t->pool_cap = cap;
	}
	slot = array_push(&t->maps, &t->n, &t->cap, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	*slot = *m;
	slot->path = (uint32_t)t->pool_len;
	memcpy(t->pool + t->pool_len, path, n);
	t->pool_len += n;
	return 0;
}

/* Sorted by start; a mapping that overlaps the one before it is dropped (counted as bad). */
static void sort_and_check(struct proc_maps *t)
{
	size_t i, out = 0;

	if (t->n)
		qsort(t->maps, t->n, sizeof(*t->maps), by_start);
	for (i = 0; i < t->n; i++) {
		if (out && t->maps[i].start < t->maps[out - 1].end) {
			t->bad_lines++;
			continue;
		}
		t->maps[out++] = t->maps[i];
	}
	t->n = out;
}

int proc_maps_parse(struct proc_maps *t, const char *text, size_t len)
{
	const char *pos = text, *end = text + len, *line;
	char path[PROC_MAPS_PATH_MAX];
	size_t n;
	struct map m;

	t->n = 0;
	t->pool_len = 0;
	t->bad_lines = 0;
	t->full = false;
	while (text_next_line(&pos, end, &line, &n)) {
		if (proc_maps_parse_line(line, n, &m, path, sizeof(path))) {
			t->bad_lines++;
			continue;
		}
		if (add(t, &m, path))
			return -ENOMEM;
	}
	sort_and_check(t);
	return 0;
}

int proc_maps_capture(struct proc_maps *t, pid_t pid)
{
	char path[64], *text;
	size_t len;
	int err;

	if (pid <= 0 || !proc_path(path, sizeof(path), "%d/maps", (int)pid))
		return -EINVAL;
	err = text_read_path(path, PROC_MAPS_FILE_MAX, &text, &len);
	if (err)
		return err;
	t->pid = pid;
	err = proc_maps_parse(t, text, len);
	free(text);
	return err;
}

struct map *proc_maps_find(const struct proc_maps *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < t->maps[mid].start)
			hi = mid;
		else if (addr >= t->maps[mid].end)
			lo = mid + 1;
		else
			return &t->maps[mid];
	}
	return NULL;
}

void proc_maps_free(struct proc_maps *t)
{
	free(t->maps);
	free(t->pool);
	memset(t, 0, sizeof(*t));
}
