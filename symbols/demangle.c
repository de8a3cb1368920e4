// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>
#include "symbols/demangle.h"

/* libstdc++ (cxxabi.h), declared for C: it allocates the result with malloc. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static void copy_cut(const char *s, char *out, size_t size)
{
	size_t n = strnlen(s, size - 1);

	memcpy(out, s, n);
	out[n] = '\0';
}

bool demangle(const char *name, char *out, size_t size)
{
	char *d = NULL;
	int status = -1;

	if (!size)
		return false;
	/* _Z: the Itanium ABI's mangled names; types alone are not symbols */
	if (name[0] == '_' && name[1] == 'Z' &&
	    strnlen(name, DEMANGLE_IN_MAX + 1) <= DEMANGLE_IN_MAX)
		d = __cxa_demangle(name, NULL, NULL, &status);
	if (d && status == 0) {
		copy_cut(d, out, size);
		free(d);
		return true;
	}
	free(d);
	copy_cut(name, out, size);
	return false;
}
