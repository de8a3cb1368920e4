// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/hex.h"
#include "symbols/text.h"

int text_read_fd(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t got;

		if (n == cap) {
			size_t grown = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *q;

			if (grown <= cap) { /* max + 1 bytes held: one more than allowed */
				free(buf);
				return -EFBIG;
			}
			q = realloc(buf, grown + 1);
			if (!q) {
				free(buf);
				return -ENOMEM;
			}
			buf = q;
			cap = grown;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > max) {
		free(buf);
		return -EFBIG;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int text_read_path(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY), err;

	if (fd < 0)
		return -errno;
	err = text_read_fd(fd, max, out, len);
	close(fd);
	return err;
}

bool text_next_line(const char **pos, const char *end, const char **line, size_t *len)
{
	const char *p = *pos, *nl;

	if (p >= end)
		return false;
	nl = memchr(p, '\n', (size_t)(end - p));
	*line = p;
	*len = (size_t)((nl ? nl : end) - p);
	*pos = nl ? nl + 1 : end;
	return true;
}

bool text_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int digits = 0, d;

	if (end - s >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hex_digit(s[2]) >= 0)
		s += 2;
	for (; s < end && (d = hex_digit(*s)) >= 0; s++) {
		if (v == 0 && d == 0 && digits == 0)
			continue; /* leading zeros do not count against the 16 */
		if (++digits > 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (s == *p)
		return false;
	*p = s;
	*out = v;
	return true;
}

bool text_skip_blanks(const char **p, const char *end)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == *p)
		return false;
	*p = s;
	return true;
}
