/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The data installed beside the binary: PREFIX/share/gputop-bpf/SUB for a binary at
 * PREFIX/bin/gputop-bpf, whatever PREFIX (make install's, the Debian package's /usr). A binary
 * run from the source tree has none.
 */
#ifndef GPUTOP_SHARE_DIR_H
#define GPUTOP_SHARE_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* For the binary at exe (an absolute path): the folder SUB into buf; true where it exists. */
bool share_dir_for(const char *exe, const char *sub, char *buf, size_t size);
/* The same for the running binary (/proc/self/exe). */
bool share_dir(const char *sub, char *buf, size_t size);
/* The running binary's PREFIX/lib/gputop-bpf/NAME into buf (make install's CUPTI library); true where it exists. */
bool installed_lib(const char *name, char *buf, size_t size);

#endif
