// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "symbols/file_open.h"
#include "symbols/perf_map.h"
#include "symbols/text.h"

/* "START SIZE name": two hex fields, a blank after each, a name of anything printable or not. */
static int parse_line(struct symtab *t, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	uint64_t start, size;

	if (len && end[-1] == '\r')
		end--;
	if (!text_hex(&p, end, &start) || !text_skip_blanks(&p, end) || !text_hex(&p, end, &size) ||
	    !text_skip_blanks(&p, end) || p == end || !size || start > UINT64_MAX - size)
		return -EINVAL;
	return symtab_add(t, start, size, p, (size_t)(end - p));
}

int perf_map_parse(struct symtab *t, const char *text, size_t len, size_t *bad_lines)
{
	const char *pos = text, *end = text + len, *line;
	size_t n;
	int err;

	symtab_init(t, PERF_MAP_SYMS_MAX, PERF_MAP_FILE_MAX);
	*bad_lines = 0;
	while (text_next_line(&pos, end, &line, &n)) {
		if (!n)
			continue;
		err = parse_line(t, line, n);
		if (err == -ENOMEM)
			return err;
		if (err == -ENOSPC)
			break;
		if (err)
			(*bad_lines)++;
	}
	symtab_sort(t, false);
	return 0;
}

int perf_map_load(struct symtab *t, const char *dir, pid_t pid, uid_t owner)
{
	char *text;
	size_t len, bad;
	int fd = perf_map_file_open(dir, pid, owner, PERF_MAP_FILE_MAX), err;

	if (fd < 0)
		return fd;
	err = text_read_fd(fd, PERF_MAP_FILE_MAX, &text, &len);
	close(fd);
	if (err)
		return err;
	err = perf_map_parse(t, text, len, &bad);
	free(text);
	return err;
}
