/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * C++ names demangled by libstdc++'s __cxa_demangle (the Itanium ABI's own
 * entry point, in every Debian system's libstdc++6). Names come from other
 * users' files: a mangled name longer than DEMANGLE_IN_MAX is not demangled,
 * and the result is cut to the caller's buffer.
 */
#ifndef GPUTOP_SYMBOLS_DEMANGLE_H
#define GPUTOP_SYMBOLS_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#define DEMANGLE_IN_MAX 1024

/*
 * The demangled name into out[size] (cut, NUL-terminated); else the name as it
 * is. True if demangled.
 */
bool demangle(const char *name, char *out, size_t size);

#endif
