/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Small text files the user names (config, themes), read with the user's own rights. */
#ifndef GPUTOP_USER_FILE_H
#define GPUTOP_USER_FILE_H

#include <stddef.h>

#define USER_FILE_MAX (64 * 1024) /* the largest config or theme file read */

/*
 * The whole of the regular file path (at most USER_FILE_MAX bytes) in *text
 * (NUL-terminated, the caller frees it). 0; -ENOENT when it does not exist;
 * -1 with err set ("PATH: is a directory", "... larger than 64 KiB", ...).
 */
int user_file_read(const char *path, char **text, char *err, size_t errlen);

#endif
