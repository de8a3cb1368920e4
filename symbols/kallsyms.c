// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/sysroot.h"
#include "symbols/kallsyms.h"
#include "symbols/text.h"

/* "ADDR TYPE NAME[\t[module]]": only text symbols are frames. */
static int parse_line(struct kallsyms *k, const char *line, size_t len, bool *nonzero)
{
	const char *p = line, *end = line + len, *name;
	uint64_t addr;
	char type;

	if (!text_hex(&p, end, &addr) || !text_skip_blanks(&p, end) || p == end)
		return -EINVAL;
	type = *p++;
	if (!text_skip_blanks(&p, end) || p == end)
		return -EINVAL;
	name = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	if (addr)
		*nonzero = true;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	return symtab_add(&k->syms, addr, 0, name, (size_t)(p - name));
}

int kallsyms_parse(struct kallsyms *k, const char *text, size_t len)
{
	const char *pos = text, *end = text + len, *line;
	bool nonzero = false;
	size_t n;
	int err;

	memset(k, 0, sizeof(*k));
	symtab_init(&k->syms, KALLSYMS_SYMS_MAX, KALLSYMS_FILE_MAX);
	while (text_next_line(&pos, end, &line, &n)) {
		err = parse_line(k, line, n, &nonzero);
		if (err == -ENOMEM)
			return err;
		if (err == -ENOSPC)
			break;
		if (err)
			k->bad_lines++;
	}
	k->hidden = !nonzero;
	if (k->hidden)
		symtab_free(&k->syms);
	/* the last symbol has no end: it is left to hold its own address alone */
	symtab_sort(&k->syms, true);
	return 0;
}

int kallsyms_load(struct kallsyms *k)
{
	char path[64], *text;
	size_t len;
	int err;

	if (!proc_path(path, sizeof(path), "kallsyms"))
		return -ENAMETOOLONG;
	err = text_read_path(path, KALLSYMS_FILE_MAX, &text, &len);
	if (err)
		return err;
	err = kallsyms_parse(k, text, len);
	free(text);
	return err;
}

const char *kallsyms_find(const struct kallsyms *k, uint64_t addr, uint64_t *off)
{
	const struct sym *s;

	if (k->hidden || !(s = symtab_find(&k->syms, addr)) || addr - s->addr >= KALLSYMS_FUNC_MAX)
		return NULL;
	*off = addr - s->addr;
	return symtab_name(&k->syms, s);
}

void kallsyms_free(struct kallsyms *k)
{
	symtab_free(&k->syms);
	memset(k, 0, sizeof(*k));
}
