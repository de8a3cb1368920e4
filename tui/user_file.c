// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/privileges.h"
#include "tui/user_file.h"

int user_file_read(const char *path, char **text, char *err, size_t errlen)
{
	FILE *f = privileges_fopen_as_user(path, "re");
	struct stat st;
	size_t n;

	*text = NULL;
	if (!f) {
		if (errno == ENOENT)
			return -ENOENT;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path,
			 S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		fclose(f);
		return -1;
	}
	if (st.st_size > USER_FILE_MAX) {
		snprintf(err, errlen, "%s: larger than %d KiB (%lld bytes): not read", path,
			 USER_FILE_MAX / 1024, (long long)st.st_size);
		fclose(f);
		return -1;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		snprintf(err, errlen, "%s: out of memory", path);
		fclose(f);
		return -1;
	}
	n = fread(*text, 1, (size_t)st.st_size, f);
	fclose(f);
	(*text)[n] = '\0';
	if (n != (size_t)st.st_size || memchr(*text, '\0', n)) {
		snprintf(err, errlen, "%s: %s", path, n != (size_t)st.st_size ? "read failed" : "not text (a NUL byte)");
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}
