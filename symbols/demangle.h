/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * C++ names demangled by libiberty's demangler (Debian's libiberty-dev, the
 * one binutils' c++filt uses), in its callback form, which allocates nothing.
 * Names come from other users' files, and a demangled name can grow
 * exponentially with the mangled one's length (template arguments built from
 * substitutions of the one before: 287 bytes that c++filt does not finish in
 * seconds): a mangled name longer than DEMANGLE_IN_MAX, or one whose demangled
 * form passes DEMANGLE_OUT_MAX bytes, is left as it is; the result is cut to
 * the caller's buffer.
 */
#ifndef GPUTOP_SYMBOLS_DEMANGLE_H
#define GPUTOP_SYMBOLS_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#define DEMANGLE_IN_MAX 1024
#define DEMANGLE_OUT_MAX (64 << 10)

/*
 * The demangled name into out[size] (cut, NUL-terminated); else the name as it
 * is. True if demangled.
 */
bool demangle(const char *name, char *out, size_t size);

#endif
