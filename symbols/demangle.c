// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "symbols/demangle.h"

/* Where the demangler's output goes: out[size], and how much it has made in all. */
struct sink {
	char *out;
	size_t size, used, made;
	jmp_buf stop;
};

static void copy_cut(const char *s, char *out, size_t size)
{
	size_t n = strnlen(s, size - 1);

	memcpy(out, s, n);
	out[n] = '\0';
}

/*
 * A piece of the name. Past DEMANGLE_OUT_MAX bytes in all it stops the
 * demangler (whose callback form allocates nothing and holds nothing to undo):
 * a name can grow exponentially with its length (templates of substitutions).
 */
static void take(const char *s, size_t len, void *opaque)
{
	struct sink *k = opaque;
	size_t n = len < k->size - 1 - k->used ? len : k->size - 1 - k->used;

	memcpy(k->out + k->used, s, n);
	k->used += n;
	k->made += len;
	if (k->made > DEMANGLE_OUT_MAX)
		longjmp(k->stop, 1);
}

bool demangle(const char *name, char *out, size_t size)
{
	struct sink k = { .out = out, .size = size };
	volatile bool done = false;

	if (!size)
		return false;
	/* _Z: the Itanium ABI's mangled names; types alone are not symbols */
	if (name[0] == '_' && name[1] == 'Z' && strnlen(name, DEMANGLE_IN_MAX + 1) <= DEMANGLE_IN_MAX &&
	    !setjmp(k.stop))
		done = cplus_demangle_v3_callback(name, DMGL_PARAMS | DMGL_ANSI, take, &k) == 1;
	if (done) {
		out[k.used] = '\0';
		return true;
	}
	copy_cut(name, out, size);
	return false;
}
